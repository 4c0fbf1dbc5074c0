package main

import (
	"fmt"
	"io"
	"strings"
)

// row is one setting's line of the table.
type row struct {
	Setting string
	T       tally
}

// writeTable writes the settings' results as one Markdown table; the
// token ratio is against the first setting.
func writeTable(w io.Writer, rows []row, tol int, judged bool) error {
	match := fmt.Sprintf("location (same path and side, lines within %d)", tol)
	if judged {
		match += " and meaning (judge)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Matched by %s; comments are those the posting plan would post inline.\n\n", match)
	b.WriteString("| setting | changes (clean) | comments | precision | recall | line precision | per clean change | like a rejected one | requests | prompt tokens | tokens × | incomplete |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		t := r.T
		fmt.Fprintf(&b, "| %s | %d (%d) | %d | %.3f | %.3f | %.3f | %.2f | %d | %d | %d | %.2f | %d |\n",
			r.Setting, t.Changes, t.Clean, t.Posted, ratio(t.Matched, t.Posted), ratio(t.Matched, t.Expected),
			ratio(t.LineMatched, t.Posted), ratio(t.PostedOnClean, t.Clean), t.Rejected, t.Usage.Requests,
			t.Usage.PromptTokens, ratio(t.Usage.PromptTokens, rows[0].T.Usage.PromptTokens), t.Failed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
