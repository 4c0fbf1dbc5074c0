package anchor

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// resolveCounted resolves q and returns the location with the fuzzy
// step's work (nil when the step did not run).
func resolveCounted(ctx context.Context, q Query, cs *ChangeSet, opt Options) (review.Location, *fuzzyWork) {
	r := &resolver{cs: cs, opt: opt}
	loc := r.resolve(ctx, q)
	return loc, r.work
}

// Issue 23: the fuzzy step computed an LCS for every window of the file,
// seconds to minutes for a long quote of common tokens. A long quote is
// now compared only where its distinctive lines put it.
func TestFuzzyLongQuoteBounded(t *testing.T) {
	cs, opt, quotes := worstFixture(t, worstQuoteLines)
	for i, q := range quotes {
		loc, w := resolveCounted(context.Background(), Query{Path: "big.go", Code: q}, cs, opt)
		if !loc.FileLevel() {
			t.Errorf("quote %d placed at %s: the fixture should be unplaceable", i, describeLoc(loc))
		}
		if w == nil || w.runs > 3*fuzzyAnchored {
			t.Errorf("quote %d: %+v LCS computations, want at most %d (3 sides × %d anchored windows)", i, w, 3*fuzzyAnchored, fuzzyAnchored)
		}
	}
}

// A quote under the length cap is compared only with the windows whose
// token bound can reach the threshold: a fraction of the file's.
func TestFuzzyWindowBound(t *testing.T) {
	cs, opt, quotes := worstFixture(t, 60)
	for i, q := range quotes {
		loc, w := resolveCounted(context.Background(), Query{Path: "big.go", Code: q}, cs, opt)
		if !loc.FileLevel() {
			t.Errorf("quote %d placed at %s: the fixture should be unplaceable", i, describeLoc(loc))
		}
		if w == nil || w.runs == 0 || w.runs >= worstFileLines/2 {
			t.Errorf("quote %d: work %+v; want some LCS computations, far fewer than the %d windows", i, w, worstFileLines)
		}
	}
}

// The budget stops the comparisons when spent, whatever is left.
func TestFuzzyBudget(t *testing.T) {
	cs, opt, quotes := worstFixture(t, 60)
	lines, _ := opt.NewFile("big.go")
	seq := cs.wholeFile("big.go", lines)
	sn := parseSnippet(quotes[0])
	q := sn.fuzzyQuote(0)
	full := &fuzzyWork{ctx: context.Background(), ops: fuzzyMaxOps}
	fuzzyFind(seq, q, false, full)
	budget := (fuzzyMaxOps - full.ops) / 2
	half := &fuzzyWork{ctx: context.Background(), ops: budget}
	fuzzyFind(seq, q, false, half)
	if full.runs < 100 || half.runs >= full.runs || half.ops < 0 || half.runs == 0 {
		t.Errorf("with the whole budget %d LCS; with %d operations %d LCS and %d left; want fewer, within it", full.runs, budget, half.runs, half.ops)
	}
}

// countdownCtx is a context whose Err turns to Canceled after n calls: a
// deterministic cancellation in the middle of the fuzzy step.
type countdownCtx struct {
	context.Context
	n int
}

func (c *countdownCtx) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// The fuzzy step ends with the context (--timeout, SIGINT, SIGTERM): at
// once when it is already over, between two LCS computations otherwise.
func TestFuzzyStopsWithContext(t *testing.T) {
	cs, opt, quotes := worstFixture(t, 60)
	q := Query{Path: "big.go", Code: quotes[0]}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if loc, w := resolveCounted(ctx, q, cs, opt); w == nil || w.runs != 0 || !loc.FileLevel() {
		t.Errorf("cancelled: %s after %+v, want file-level after no LCS", describeLoc(loc), w)
	}
	// The exact steps call Err too (the whole-file read): count from the
	// fuzzy step's first check.
	cd := &countdownCtx{Context: context.Background(), n: 1 << 30}
	_, w := resolveCounted(cd, q, cs, opt)
	calls := 1<<30 - cd.n - w.runs // checks before the first LCS
	cd = &countdownCtx{Context: context.Background(), n: calls + 5}
	if loc, w := resolveCounted(cd, q, cs, opt); w.runs != 5 || !loc.FileLevel() {
		t.Errorf("cancelled after 5 LCS: %s after %d LCS computations", describeLoc(loc), w.runs)
	}
}

// The bounds keep what the fuzzy step finds: a long quote remembered
// loosely (one word changed every fifth line) lands on its window, and so
// does a short one in the large file.
func TestFuzzyBoundsKeepMatches(t *testing.T) {
	cs, opt, _ := worstFixture(t, 30)
	lines, _ := opt.NewFile("big.go")
	for _, c := range []struct{ start, n int }{{5000, worstQuoteLines}, {12345, 12}} {
		quote := append([]string(nil), lines[c.start:c.start+c.n]...)
		for i := 0; i < len(quote); i += 5 {
			quote[i] = strings.Replace(quote[i], "nil", "none", 1) + " // changed"
		}
		loc, w := resolveCounted(context.Background(), Query{Path: "big.go", Code: strings.Join(quote, "\n")}, cs, opt)
		want := review.Location{Path: "big.go", Side: review.SideNew, StartLine: c.start + 1, EndLine: c.start + c.n, Method: review.MethodFuzzy}
		if loc.Path != want.Path || loc.StartLine != want.StartLine || loc.EndLine != want.EndLine || loc.Method != want.Method {
			t.Errorf("%d lines at %d: %s after %d LCS, want %d-%d fuzzy", c.n, c.start+1, describeLoc(loc), w.runs, want.StartLine, want.EndLine)
		}
	}
}
