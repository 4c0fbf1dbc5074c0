package rules

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

// Ignored is one finding a repository never wants reported, by its
// fingerprint (review.Fingerprint: path, category and the anchored code,
// so it survives moves and rewording), or a kind of finding, by a Like
// text: every finding in a file the Path glob matches (all files without
// one) whose text says most of its words (review.Coverage at least
// review.LikeCoverage), of Category when one is given. "/ocr ignore" on
// a pull request prints both forms ready to paste. With a fingerprint,
// Path is for people; Reason always is.
//
//	{"ignore": [{"fingerprint": "3c1f0a9d8e7b6a5c4d3e", "path": "svc/calc.go", "reason": "callers validate b"},
//	            {"path": "gen/**", "like": "exported function lacks a doc comment", "reason": "generated"}]}
type Ignored struct {
	Fingerprint string `json:"fingerprint,omitempty"`
	Path        string `json:"path,omitempty"`
	Like        string `json:"like,omitempty"`
	Category    string `json:"category,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{20}$`)

func checkIgnore(ig []Ignored) error {
	for i, e := range ig {
		if err := checkIgnored(e); err != nil {
			return fmt.Errorf("ignore[%d].%w", i, err)
		}
	}
	return nil
}

// checkIgnored checks one entry: a fingerprint, or a like text with an
// optional path glob and category; never both.
func checkIgnored(e Ignored) error {
	switch {
	case e.Fingerprint != "" && e.Like != "":
		return errors.New(`like: give either "fingerprint" (one finding) or "like" (a kind of finding), not both`)
	case e.Fingerprint != "":
		if !fingerprintRE.MatchString(e.Fingerprint) {
			return fmt.Errorf("fingerprint: %q is not a finding's fingerprint (20 hex digits, as /ocr ignore shows it)", e.Fingerprint)
		}
		return nil
	case strings.TrimSpace(e.Like) == "":
		return errors.New(`fingerprint: missing; give "fingerprint" (as /ocr ignore shows it), or "like" with the text of the kind of finding to ignore`)
	case e.Category != "" && review.ParseCategory(e.Category) != review.Category(strings.ToLower(e.Category)):
		return fmt.Errorf("category: %q is not a category (%s)", e.Category, categoryNames())
	case e.Path != "":
		if err := checkGlob(e.Path); err != nil {
			return fmt.Errorf("path: %w", err)
		}
	}
	return nil
}

func categoryNames() string {
	names := make([]string, len(review.Categories))
	for i, c := range review.Categories {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// Suppression is why a rule file of the set ignores the finding (By
// review.RuleFileIgnore, the entry's reason), if one does.
func (s *Set) Suppression(c review.Comment) (review.Suppression, bool) {
	fp := review.FingerprintOf(c)
	for _, l := range s.layers {
		for _, e := range l.file.Ignore {
			if (e.Fingerprint != "" && e.Fingerprint == fp) || (e.Like != "" && e.likeOf(c)) {
				return review.Suppression{By: review.RuleFileIgnore, Reason: e.Reason}, true
			}
		}
	}
	return review.Suppression{}, false
}

// likeOf reports whether a like entry covers c: its file, its category,
// and a text like the entry's.
func (e Ignored) likeOf(c review.Comment) bool {
	if e.Path != "" && !matchGlob(e.Path, strings.ToLower(c.Path)) {
		return false
	}
	if e.Category != "" && !strings.EqualFold(e.Category, string(c.Category)) {
		return false
	}
	return review.Coverage(e.Like, c.Content) >= review.LikeCoverage
}
