package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// report prints the table, the ratios and the git breakdown.
func report(w io.Writer, rows []row, runs int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "scenario\tto 1st request\twall\texit\trequests\tgit by ocr\tgit all\tfetches\thistory (fetch) ms\t\n")
	for _, r := range rows {
		c := r.counted
		first := "-"
		if r.toFirst > 0 {
			first = fmt.Sprintf("%.0f ms", ms(r.toFirst))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f ms\t%s\t%d\t%d\t%d\t%d\t%s\t\n", r.sc.name, first, ms(r.wall), exits(r.exits),
			r.requestsPerRun, c.git.direct, c.git.all, c.git.fetches, fetchSpan(c.git))
	}
	_ = tw.Flush() // the terminal report, as the lines above
	fmt.Fprintf(w, "(times: median of %d run(s) without the shim; git figures and history span: one run with the shim and GIT_TRACE2_EVENT)\n\n", runs)
	ratios(w, rows)
	for _, r := range rows {
		fmt.Fprintf(w, "%s — git by ocr: %s\n", r.sc.name, histogram(r.counted.git.byCmd))
		if len(r.counted.git.nested) > 0 {
			fmt.Fprintf(w, "%s — spawned by git itself (not on PATH, not in the shim): %s\n", r.sc.name, histogram(r.counted.git.nested))
		}
	}
}

// ratios compares the scenarios within this run.
func ratios(w io.Writer, rows []row) {
	shallow, full, preview := rows[0], rows[1], rows[2]
	if shallow.toFirst > 0 && full.toFirst > 0 {
		fmt.Fprintf(w, "shallow / full, time to first request: %.2fx (+%.0f ms)\n",
			ratio(shallow.toFirst, full.toFirst), ms(shallow.toFirst-full.toFirst))
	}
	g := shallow.counted.git
	if span := g.fetchTo - g.fetchFrom; g.fetches > 0 && shallow.counted.toFirst > 0 && g.fetchTo > 0 {
		fmt.Fprintf(w, "history completion (first fetch → next git after the last fetch) / time to first request, shallow counted run: %.0f%% (%.0f of %.0f ms)\n",
			100*ratio(span, shallow.counted.toFirst), ms(span), ms(shallow.counted.toFirst))
	}
	if shallow.toFirst > 0 {
		fmt.Fprintf(w, "preview wall (shallow, whole selection, no model) / shallow time to first request: %.2fx\n",
			ratio(preview.wall, shallow.toFirst))
	}
	if shallow.counted.toFirst > 0 && shallow.toFirst > 0 {
		fmt.Fprintf(w, "shim+trace2 overhead, shallow: counted run %.0f ms vs median %.0f ms to first request\n",
			ms(shallow.counted.toFirst), ms(shallow.toFirst))
	}
	fmt.Fprintln(w)
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func fetchSpan(g gitCount) string {
	if g.fetches == 0 || g.fetchTo == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f", ms(g.fetchFrom), ms(g.fetchTo))
}

func exits(codes []int) string {
	seen := map[int]bool{}
	var parts []string
	for _, c := range codes {
		if !seen[c] {
			seen[c] = true
			parts = append(parts, fmt.Sprint(c))
		}
	}
	return strings.Join(parts, ",")
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
