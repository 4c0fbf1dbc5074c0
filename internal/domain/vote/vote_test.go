package vote

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

func finding(pass int, path string, start, end int, cat review.Category, text string) Finding {
	return Finding{Pass: pass, Comment: review.Comment{
		Location: review.Location{Path: path, Side: review.SideNew, StartLine: start, EndLine: end, InHunk: true},
		Content:  text, Category: cat, Severity: review.SeverityHigh}}
}

// threePasses: one real issue found by every pass in other words and on
// nearby lines, one found by two passes, and noise each pass invents alone.
func threePasses() []Finding {
	return []Finding{
		finding(0, "a.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored, so a failed flush loses data."),
		finding(1, "a.go", 11, 11, review.CategoryBug, "Close's error is ignored: a failed flush silently loses data."),
		finding(2, "a.go", 9, 10, review.CategoryBug, "Ignoring the error from Close loses data when the flush fails."),
		finding(0, "b.go", 5, 5, review.CategoryBug, "The loop index is off by one and reads past the end of the slice."),
		finding(2, "b.go", 5, 6, review.CategoryBug, "Off by one: the loop reads one element past the end of the slice."),
		finding(0, "a.go", 30, 30, review.CategoryStyle, "Rename this variable to something clearer."),
		finding(1, "b.go", 40, 40, review.CategoryPerformance, "This allocation in the hot path could be hoisted."),
		finding(2, "c.go", 3, 3, review.CategoryDocumentation, "Document the exported function."),
	}
}

func TestKeepMajority(t *testing.T) {
	kept, outvoted := Keep(threePasses(), 3, Majority(3))
	if len(kept) != 2 {
		t.Fatalf("kept %d findings, want the two a majority found: %+v", len(kept), kept)
	}
	got := map[string]string{}
	for _, c := range kept {
		got[c.Path] = c.Votes.String()
	}
	if want := map[string]string{"a.go": "3/3", "b.go": "2/3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("votes %v, want %v", got, want)
	}
	if outvoted != 3 {
		t.Errorf("outvoted %d, want the 3 findings one pass made alone (the copies of kept ones are not outvoted)", outvoted)
	}
	all, _ := Keep(threePasses(), 3, 1)
	if len(all) != 5 {
		t.Errorf("--min-votes 1 kept %d, want every cluster (5)", len(all))
	}
}

func TestMatchNeedsPlaceCategoryAndText(t *testing.T) {
	base := finding(0, "a.go", 10, 12, review.CategoryBug, "The error returned by Close is ignored, so data is lost.")
	for name, tc := range map[string]struct {
		other Finding
		want  bool
	}{
		"paraphrase, adjacent line": {finding(1, "a.go", 13, 13, review.CategoryBug, "Close's error is ignored and data is lost."), true},
		"two lines away":            {finding(1, "a.go", 14, 14, review.CategoryBug, "Close's error is ignored and data is lost."), false},
		"other file":                {finding(1, "b.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored, so data is lost."), false},
		"other category":            {finding(1, "a.go", 10, 10, review.CategorySecurity, "The error returned by Close is ignored, so data is lost."), false},
		"other issue, same lines":   {finding(1, "a.go", 10, 10, review.CategoryBug, "This loop is quadratic in the number of users."), false},
	} {
		if _, got := Match(base.Comment, tc.other.Comment); got != tc.want {
			t.Errorf("%s: Match = %v, want %v", name, got, tc.want)
		}
	}
	old := base
	old.Comment.Side = review.SideOld
	if _, ok := Match(base.Comment, old.Comment); ok {
		t.Error("findings on different sides matched")
	}
}

// TestOnePassCountsOnce: a pass that says the same thing twice gives one vote.
func TestOnePassCountsOnce(t *testing.T) {
	fs := []Finding{
		finding(0, "a.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored."),
		finding(0, "a.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored here."),
	}
	kept, _ := Keep(fs, 3, 2)
	if len(kept) != 0 {
		t.Errorf("one pass's two copies were kept as two votes: %+v", kept)
	}
}

func TestOrderDoesNotMatter(t *testing.T) {
	want, _ := Keep(threePasses(), 3, 2)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		fs := threePasses()
		r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
		if got, _ := Keep(fs, 3, 2); !reflect.DeepEqual(got, want) {
			t.Fatalf("the input order changed the result:\n%+v\nwant\n%+v", got, want)
		}
	}
}

// TestBestIsTheCentralText: the kept text is the one that says most of
// what the others say, not the longest or the first.
func TestBestIsTheCentralText(t *testing.T) {
	c := Cluster{Members: []Finding{
		finding(0, "a.go", 10, 10, review.CategoryBug, "Close error ignored."),
		finding(1, "a.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored, so a failed flush loses data."),
		finding(2, "a.go", 10, 10, review.CategoryBug, "The error returned by Close is ignored, so a failed flush loses data: check it and return it, which also reports disk-full conditions early to the caller."),
	}}
	if got := c.Best().Content; got != c.Members[1].Comment.Content {
		t.Errorf("Best = %q, want the middle text", got)
	}
	withSuggestion := c
	withSuggestion.Members = append([]Finding(nil), c.Members...)
	withSuggestion.Members[2].Comment.Suggestion = "if err := f.Close(); err != nil { return err }"
	withSuggestion.Members[2].Comment.Content = withSuggestion.Members[1].Comment.Content
	if got := withSuggestion.Best(); got.Suggestion == "" {
		t.Errorf("between equal texts the one with a suggestion should win, got %+v", got)
	}
}

func TestMajority(t *testing.T) {
	for passes, want := range map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3} {
		if got := Majority(passes); got != want {
			t.Errorf("Majority(%d) = %d, want %d", passes, got, want)
		}
	}
}
