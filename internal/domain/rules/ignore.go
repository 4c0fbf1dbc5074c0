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

// Suppression is why a rule file of the set ignores the finding (By
// review.RuleFileIgnore, the entry's reason), if one does.
func (s *Set) Suppression(c review.Comment) (review.Suppression, bool) {
	fp := review.FingerprintOf(c)
	for _, l := range s.layers {
		for _, e := range l.file.Ignore {
			if e.Fingerprint == fp {
				return review.Suppression{By: review.RuleFileIgnore, Reason: e.Reason}, true
			}
		}
	}
	return review.Suppression{}, false
}
