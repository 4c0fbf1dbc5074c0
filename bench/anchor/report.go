package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// printTable writes one row per class, ours then OCR's naive strategy.
func printTable(w io.Writer, all []stats, parallel float64, verbose bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tn\texact\tside ok\twrong side\tfalse in-hunk\tunanchored\tres/s\t|\tnaive exact\tnaive wrong side\tnaive off-diff\tnaive unanchored\t")
	var tot stats
	for _, s := range all {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t%s\t%.0f\t|\t%s\t%d\t%d\t%s\t\n", s.name, s.n, pct(s.exact, s.n), pct(s.sideOK, s.n),
			s.wrongSide, s.falseIn, pct(s.unanch, s.n), s.perSec, pct(s.naiveExact, s.n), s.naiveWrongSide, s.naiveOffDiff, pct(s.naiveUnanch, s.n))
		tot.n += s.n
		tot.exact += s.exact
		tot.naiveExact += s.naiveExact
	}
	_ = tw.Flush() // the terminal report, as the lines above
	fmt.Fprintf(w, "\noverall exact: ours %s, naive %s; res/s per core (CPU time, best of 3); all classes on every core: %.0f resolutions/s (wall clock)\n",
		pct(tot.exact, tot.n), pct(tot.naiveExact, tot.n), parallel)
	fmt.Fprintln(w, "naive off-diff: anchored outside every hunk, yet OCR posts it inline (GitHub answers 422)")
	for _, s := range all {
		fmt.Fprintf(w, "methods %-15s %s\n", s.name, methods(s))
		if verbose {
			for _, m := range s.misses {
				fmt.Fprintf(w, "  miss: %s\n", m)
			}
		}
	}
}

func methods(s stats) string {
	var keys []string
	for m := range s.methods {
		keys = append(keys, string(m))
	}
	sort.Strings(keys)
	out := ""
	for _, k := range keys {
		out += fmt.Sprintf("%s=%d ", k, s.methods[reviewMethod(k)])
	}
	return out
}

func pct(a, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(a)/float64(n))
}

// checkTargets lists every target of issue 4 that was missed. Speed is
// checked per core (CPU time); the parallel wall-clock figure depends on
// what else runs on the machine and is only reported. The misquote class
// (fuzzy matching, which stands in for a model request) has no target.
func checkTargets(all []stats) []string {
	var missed []string
	for _, s := range all {
		need := 99.5
		switch s.name {
		case "none":
			need = 100
		case "ambiguous+hint":
			need = 95
		case "ambiguous+hint±3", "ambiguous-nohint", "ambig-nohint-added", "misquote":
			need = 0 // reported, no target
		}
		if s.n > 0 && 100*float64(s.exact)/float64(s.n) < need {
			missed = append(missed, fmt.Sprintf("%s: exact %s < %.1f%%", s.name, pct(s.exact, s.n), need))
		}
		if s.falseIn > 0 || (s.wrongSide > 0 && s.name != "misquote") {
			missed = append(missed, fmt.Sprintf("%s: %d wrong sides, %d false in-hunk", s.name, s.wrongSide, s.falseIn))
		}
		if s.perSec < 50000 && s.name != "misquote" { // fuzzy: the rare path that saves a model request
			missed = append(missed, fmt.Sprintf("%s: %.0f resolutions/s < 50000", s.name, s.perSec))
		}
	}
	return missed
}
