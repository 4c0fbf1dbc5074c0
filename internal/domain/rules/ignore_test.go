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

// A like entry ignores a kind of finding: in the files its glob matches,
// of its category, whose text says most of its words.
func TestIgnoreLikeEntry(t *testing.T) {
	set, err := Load(Options{RepoReader: func(string) ([]byte, error) {
		return []byte(`{"ignore": [{"path": "gen/**", "category": "documentation", "like": "exported function lacks a doc comment", "reason": "generated"}]}`), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := func(path string, cat review.Category, text string) review.Comment {
		return review.Comment{Location: review.Location{Path: path, StartLine: 3, EndLine: 3}, Category: cat, Content: text}
	}
	rv := &review.Review{Comments: []review.Comment{
		c("gen/api/types.go", "documentation", "Exported function NewClient lacks a doc comment; add one saying what it returns."),
		c("gen/api/types.go", "documentation", "The comment on Close says it is safe twice; it is not."),
		c("svc/api.go", "documentation", "Exported function NewClient lacks a doc comment."),
		c("gen/api/types.go", "style", "Exported function NewClient lacks a doc comment."),
	}}
	if n := rv.Suppress(set.Suppression); n != 1 || rv.Comments[0].Suppressed == nil {
		t.Fatalf("Suppress = %d, want only the first: %+v", n, rv.Comments)
	}
	if got := *rv.Comments[0].Suppressed; got != (review.Suppression{By: review.RuleFileIgnore, Reason: "generated"}) {
		t.Errorf("suppression %+v", got)
	}
}

func TestIgnoreLikeEntryRefused(t *testing.T) {
	for entry, want := range map[string]string{
		`{"path": "gen/**"}`: `ignore[0].fingerprint: missing; give "fingerprint"`,
		`{"fingerprint": "3c1f0a9d8e7b6a5c4d3e", "like": "x"}`: `give either "fingerprint" (one finding) or "like"`,
		`{"like": "x", "path": "gen/[**"}`:                     "ignore[0].path: invalid glob",
		`{"like": "x", "category": "bugs"}`:                    `ignore[0].category: "bugs" is not a category`,
	} {
		_, err := ParseFile("rule.json", []byte(`{"ignore": [`+entry+`]}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", entry, err, want)
		}
	}
}
