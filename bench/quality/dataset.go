package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// sample is one record of AACR-Bench's positive_samples.json or
// negative_samples.json (github.com/alibaba/aacr-bench, README "Data
// Format"): a pull request by its URL and commits, with annotated comments.
type sample struct {
	PR       string    `json:"githubPrUrl"`
	Source   string    `json:"source_commit"`
	Target   string    `json:"target_commit"`
	Language string    `json:"project_main_language"`
	Comments []comment `json:"comments"`
}

// comment is an annotated review comment. Side is "right" (the new file)
// or "left" (the old one); from_line may exceed to_line in the published
// data, so a range is read as its two ends in either order.
type comment struct {
	Note     string `json:"note"`
	Path     string `json:"path"`
	Side     string `json:"side"`
	FromLine int    `json:"from_line"`
	ToLine   int    `json:"to_line"`
	Category string `json:"category"`
}

// span is the comment's lines, low to high, and its side in ocr's terms.
func (c comment) span() (review.Side, int, int) {
	side := review.SideNew
	if strings.EqualFold(c.Side, "left") {
		side = review.SideOld
	}
	return side, min(c.FromLine, c.ToLine), max(c.FromLine, c.ToLine)
}

// change is one pull request to review: its clone, its range, the
// comments expected (positive) and the comments annotators rejected
// (negative). A change without expected comments is clean.
type change struct {
	Repo     string // owner/name
	Dir      string // the local clone
	Source   string
	Target   string
	Expected []comment
	Rejected []comment
}

// Clean reports whether no comment is expected on the change.
func (c change) Clean() bool { return len(c.Expected) == 0 }

var prURL = regexp.MustCompile(`github\.com/([^/]+)/([^/]+)/pull/\d+`)

// loadDataset reads dir's positive_samples.json and negative_samples.json
// (either may be missing, not both) into changes, one per pull request and
// commit pair, whose clones are repos/OWNER/NAME.
func loadDataset(dir, repos string) ([]change, error) {
	pos, errPos := readSamples(filepath.Join(dir, "positive_samples.json"))
	neg, errNeg := readSamples(filepath.Join(dir, "negative_samples.json"))
	if errPos != nil && errNeg != nil {
		return nil, fmt.Errorf("no dataset in %s: %w", dir, errors.Join(errPos, errNeg))
	}
	for _, err := range []error{errPos, errNeg} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	byKey := map[string]*change{}
	var keys []string
	add := func(s sample, positive bool) error {
		m := prURL.FindStringSubmatch(s.PR)
		if m == nil || s.Source == "" || s.Target == "" {
			return fmt.Errorf("sample %q: want githubPrUrl https://github.com/OWNER/NAME/pull/N, source_commit and target_commit", s.PR)
		}
		key := s.PR + " " + s.Source + " " + s.Target
		ch, ok := byKey[key]
		if !ok {
			ch = &change{Repo: m[1] + "/" + m[2], Dir: filepath.Join(repos, m[1], m[2]), Source: s.Source, Target: s.Target}
			byKey[key], keys = ch, append(keys, key)
		}
		if positive {
			ch.Expected = append(ch.Expected, s.Comments...)
		} else {
			ch.Rejected = append(ch.Rejected, s.Comments...)
		}
		return nil
	}
	for _, set := range []struct {
		samples  []sample
		positive bool
	}{{pos, true}, {neg, false}} {
		for _, s := range set.samples {
			if err := add(s, set.positive); err != nil {
				return nil, err
			}
		}
	}
	sort.Strings(keys)
	out := make([]change, 0, len(keys))
	for _, k := range keys {
		out = append(out, *byKey[k])
	}
	return out, nil
}

// readSamples reads one samples file.
func readSamples(path string) ([]sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []sample
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s is not an AACR-Bench samples file (a JSON array of samples): %w", path, err)
	}
	return out, nil
}
