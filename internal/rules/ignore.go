package rules

import (
	"fmt"
	"regexp"

	"github.com/ocr-ci/ocr/review"
)

// Ignored is one finding a repository never wants reported, by its
// fingerprint (review.Fingerprint: path, category and the anchored code,
// so it survives moves and rewording). "/ocr ignore" on a pull request
// prints the entry ready to paste. Path and Reason are for people.
//
//	{"ignore": [{"fingerprint": "3c1f0a9d8e7b6a5c4d3e", "path": "svc/calc.go", "reason": "callers validate b"}]}
type Ignored struct {
	Fingerprint string `json:"fingerprint"`
	Path        string `json:"path,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{20}$`)

func checkIgnore(ig []Ignored) error {
	for i, e := range ig {
		if !fingerprintRE.MatchString(e.Fingerprint) {
			return fmt.Errorf("ignore[%d].fingerprint: %q is not a finding's fingerprint (20 hex digits, as /ocr ignore shows it)", i, e.Fingerprint)
		}
	}
	return nil
}

// Ignores reports whether a rule file of the set ignores the finding.
func (s *Set) Ignores(c review.Comment) bool {
	fp := c.Fingerprint
	if fp == "" {
		fp = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
	}
	for _, l := range s.layers {
		for _, e := range l.file.Ignore {
			if e.Fingerprint == fp {
				return true
			}
		}
	}
	return false
}

// WithoutIgnored returns cs without the findings the set ignores, and how
// many it left out.
func (s *Set) WithoutIgnored(cs []review.Comment) ([]review.Comment, int) {
	out := cs[:0:0]
	for _, c := range cs {
		if !s.Ignores(c) {
			out = append(out, c)
		}
	}
	return out, len(cs) - len(out)
}
