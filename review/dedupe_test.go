package review

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func at(path string, start, end int, cat Category, sev Severity, content string) Comment {
	side := SideNew
	if start == 0 {
		side = SideNone
	}
	return Comment{Location: Location{Path: path, Side: side, StartLine: start, EndLine: end},
		Category: cat, Severity: sev, Content: content}
}

// TestSimilarityPairs tunes DuplicateSimilarity: paraphrases a model makes of
// the same finding across rounds must merge, different findings on the
// same lines must not.
func TestSimilarityPairs(t *testing.T) {
	cases := []struct {
		a, b string
		dup  bool
	}{
		{"Possible nil pointer dereference: `user` may be nil when FindUser returns an error.",
			"Nil pointer dereference: `user` can be nil if FindUser returns an error.", true},
		{"The error returned by db.Close is ignored.", "Error from db.Close() is ignored; check it.", true},
		{"SQL injection: the query is built with fmt.Sprintf from the `name` request parameter.",
			"The query is built with fmt.Sprintf from the request parameter `name`, allowing SQL injection.", true},
		{"Loop bound is off by one: `i <= len(items)` reads past the end of the slice.",
			"Off-by-one: `i <= len(items)` reads past the end of items.", true},
		{"Same text.", "Same text.", true},
		{"SQL injection: the query is built with fmt.Sprintf from user input.",
			"The rows returned by the query are never closed, leaking connections.", false},
		{"Off-by-one: `i <= len(items)` reads past the end of the slice.",
			"`items` may be nil here and is dereferenced without a check.", false},
		{"The mutex is copied by value, so the lock does not protect `count`.",
			"`count` is read without holding the lock, a data race with Inc.", false},
		{"The HTTP response body is never closed.", "The HTTP status code is not checked before decoding the body.", false},
		{"ForUser runs one query per user inside the rows loop (N+1); load orders for all users in one query.",
			"N+1 query: h.orders.ForUser is called once per user inside the loop.", true},
		{"`rows` is never closed; add `defer rows.Close()` after the error check, or connections leak.",
			"rows is never closed (missing defer rows.Close()), which leaks database connections.", true},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			a := at("a.go", 10, 12, CategoryBug, SeverityHigh, c.a)
			b := at("a.go", 11, 11, CategoryBug, SeverityHigh, c.b)
			if got := Duplicate(a, b); got != c.dup {
				t.Errorf("Duplicate = %v (similarity %.2f), want %v:\n  %s\n  %s", got, Similarity(c.a, c.b), c.dup, c.a, c.b)
			}
			if Duplicate(a, b) != Duplicate(b, a) {
				t.Error("Duplicate is not symmetric")
			}
		})
	}
}

// TestSameCodeLowersTheBar: quoting the same code makes a looser paraphrase
// a duplicate, but not a different finding on that code.
func TestSameCodeLowersTheBar(t *testing.T) {
	const code = "rows, err := db.QueryContext(ctx, q)"
	mk := func(content string) Comment {
		c := at("a.go", 16, 16, CategoryBug, SeverityMedium, content)
		c.ExistingCode = code
		return c
	}
	loose := [2]string{"rows is never closed, so connections leak.", "Missing defer rows.Close() leaks a pooled connection per request."}
	if s := Similarity(loose[0], loose[1]); s >= DuplicateSimilarity || s < SameCodeSimilarity {
		t.Fatalf("fixture similarity %.2f must lie between the two thresholds", s)
	}
	if !Duplicate(mk(loose[0]), mk(loose[1])) {
		t.Error("same code, loose paraphrase: want duplicate")
	}
	other := at("a.go", 16, 16, CategoryBug, SeverityMedium, loose[1])
	if Duplicate(mk(loose[0]), other) {
		t.Error("different code, loose paraphrase: want distinct")
	}
	if Duplicate(mk("rows is never closed, so connections leak."), mk("rows.Err() is not checked after the loop, hiding iteration errors.")) {
		t.Error("same code, different finding: want distinct")
	}
}

func TestDuplicateConditions(t *testing.T) {
	base := at("a.go", 10, 12, CategoryBug, SeverityHigh, "user may be nil here")
	cases := map[string]struct {
		c   Comment
		dup bool
	}{
		"same":           {base, true},
		"overlap end":    {at("a.go", 12, 20, CategoryBug, SeverityLow, "user may be nil here"), true},
		"no end line":    {at("a.go", 11, 0, CategoryBug, SeverityLow, "user may be nil here"), true},
		"adjacent":       {at("a.go", 13, 14, CategoryBug, SeverityHigh, "user may be nil here"), false},
		"other path":     {at("b.go", 10, 12, CategoryBug, SeverityHigh, "user may be nil here"), false},
		"other category": {at("a.go", 10, 12, CategorySecurity, SeverityHigh, "user may be nil here"), false},
		"file level":     {at("a.go", 0, 0, CategoryBug, SeverityHigh, "user may be nil here"), false},
		"old side": {func() Comment {
			c := base
			c.Side = SideOld
			return c
		}(), false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Duplicate(base, c.c); got != c.dup {
				t.Errorf("Duplicate = %v, want %v", got, c.dup)
			}
		})
	}
	if !Duplicate(at("a.go", 0, 0, CategoryTest, SeverityLow, "no tests"), at("a.go", 0, 0, CategoryTest, SeverityLow, "No tests!")) {
		t.Error("two file-level comments with the same text must be duplicates")
	}
}

func TestDedupeKeepsMostSevereAndMergesIdenticalSuggestions(t *testing.T) {
	low := at("a.go", 10, 11, CategoryBug, SeverityLow, "user may be nil here")
	low.Suggestion = "if user == nil { return }"
	high := at("a.go", 10, 11, CategoryBug, SeverityHigh, "here user may be nil")
	med := at("a.go", 10, 11, CategoryBug, SeverityMedium, "user may be nil")
	med.Suggestion = "if user == nil { return }"
	other := at("a.go", 10, 10, CategoryBug, SeverityLow, "the loop never terminates")

	got := Dedupe([]Comment{low, other, high, med})
	wantHigh := high
	wantHigh.Suggestion = low.Suggestion
	if diff := cmp.Diff([]Comment{wantHigh, other}, got); diff != "" {
		t.Errorf("Dedupe (-want +got):\n%s", diff)
	}

	med.Suggestion = "if user != nil { use(user) }"
	got = Dedupe([]Comment{low, high, med})
	if len(got) != 1 || got[0].Suggestion != "" || got[0].Severity != SeverityHigh {
		t.Errorf("differing suggestions must not be merged: %+v", got)
	}
	med.Suggestion = low.Suggestion
	med.StartLine, med.EndLine = 11, 11
	if got := Dedupe([]Comment{low, high, med}); got[0].Suggestion != "" {
		t.Errorf("a suggestion for other lines must not move to the kept comment, got %q", got[0].Suggestion)
	}
	high.Suggestion = "mine"
	if got := Dedupe([]Comment{low, high}); got[0].Suggestion != "mine" {
		t.Errorf("the kept comment's own suggestion must win, got %q", got[0].Suggestion)
	}
	if high.Suggestion != "mine" || low.Suggestion != "if user == nil { return }" {
		t.Error("Dedupe modified its input")
	}
}

// randomComments draws comments from a small space so that duplicates are common.
func randomComments(r *rand.Rand, n int) []Comment {
	texts := []string{"user may be nil here", "here user may be nil", "user is nil", "the loop never ends",
		"loop never ends here", "SQL injection through name", "name allows SQL injection", "rows are not closed"}
	sevs := []Severity{SeverityCritical, SeverityHigh, SeverityMedium, SeverityLow}
	cats := []Category{CategoryBug, CategorySecurity}
	out := make([]Comment, n)
	for i := range out {
		start := r.IntN(6)
		end := 0
		if start > 0 {
			end = start + r.IntN(3)
		}
		out[i] = at([]string{"a.go", "b.go"}[r.IntN(2)], start, end, cats[r.IntN(2)], sevs[r.IntN(4)], texts[r.IntN(len(texts))])
		if r.IntN(3) == 0 {
			out[i].Suggestion = []string{"fix()", "other()"}[r.IntN(2)]
		}
	}
	return out
}

func TestDedupeProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	merged := 0
	for trial := range 300 {
		in := randomComments(r, 1+r.IntN(25))
		got := Dedupe(in)
		merged += len(in) - len(got)
		shuffled := slices.Clone(in)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if diff := cmp.Diff(got, Dedupe(shuffled)); diff != "" {
			t.Fatalf("trial %d: result depends on input order (-first +shuffled):\n%s", trial, diff)
		}
		if diff := cmp.Diff(got, Dedupe(got)); diff != "" {
			t.Fatalf("trial %d: not idempotent:\n%s", trial, diff)
		}
		for i := range got {
			for j := i + 1; j < len(got); j++ {
				if Duplicate(got[i], got[j]) {
					t.Fatalf("trial %d: kept duplicates %+v and %+v", trial, got[i], got[j])
				}
			}
		}
		for _, c := range in {
			if !slices.ContainsFunc(got, func(k Comment) bool { return Duplicate(k, c) && k.Severity.Rank() >= c.Severity.Rank() }) {
				t.Fatalf("trial %d: %+v lost without a kept duplicate at least as severe", trial, c)
			}
		}
	}
	if merged == 0 {
		t.Fatal("the generator produced no duplicates; the properties were not exercised")
	}
}

// BenchmarkDedupe measures a large run: 500 comments over 2 files.
func BenchmarkDedupe(b *testing.B) {
	in := randomComments(rand.New(rand.NewPCG(3, 4)), 500)
	for b.Loop() {
		Dedupe(in)
	}
}
