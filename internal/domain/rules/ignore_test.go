package rules

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// The entry "/ocr ignore" prints, pasted into .ocr/rule.json, suppresses
// that finding in every later review, and only that one, with its reason.
func TestIgnoreEntry(t *testing.T) {
	kept := review.Comment{Location: review.Location{Path: "svc/calc.go"}, Category: "bug", ExistingCode: "return a"}
	gone := review.Comment{Location: review.Location{Path: "svc/calc.go"}, Category: "bug", ExistingCode: "return a / b"}
	fp := review.Fingerprint(gone.Path, gone.Category, gone.ExistingCode)
	set, err := Load(Options{RepoReader: func(string) ([]byte, error) {
		return []byte(`{"ignore": [{"fingerprint": "` + fp + `", "path": "svc/calc.go", "reason": "callers validate b"}]}`), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	rv := &review.Review{Comments: []review.Comment{kept, gone}}
	if n := rv.Suppress(set.Suppression); n != 1 || rv.Comments[0].Suppressed != nil {
		t.Fatalf("Suppress = %d, %+v", n, rv.Comments)
	}
	if got := *rv.Comments[1].Suppressed; got != (review.Suppression{By: review.RuleFileIgnore, Reason: "callers validate b"}) {
		t.Errorf("suppression %+v", got)
	}
}

func TestIgnoreEntryRefused(t *testing.T) {
	_, err := ParseFile("rule.json", []byte(`{"ignore": [{"fingerprint": "../../etc"}]}`))
	if err == nil || !strings.Contains(err.Error(), "ignore[0].fingerprint") {
		t.Errorf("err = %v", err)
	}
	_, err = ParseFile("rule.json", []byte(`{"ignore": [{"fp": "x"}]}`))
	if err == nil || !strings.Contains(err.Error(), "ignore[].fingerprint") {
		t.Errorf("err = %v", err)
	}
}
