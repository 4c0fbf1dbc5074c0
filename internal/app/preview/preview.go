// Package preview is what `--preview` prints: the files a review or scan
// would review and why the others are left out, as text or as the
// documented JSON shape. No model is called.
package preview

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/infra/logtext"
	"github.com/ocr-ci/ocr/review"
)

// Preview is the documented JSON shape of `ocr review --preview --format json`.
type Preview struct {
	Mode  string                `json:"mode"`
	Base  string                `json:"base,omitempty"`
	Head  string                `json:"head,omitempty"`
	Files []review.FileCoverage `json:"files"`
	// Totals over all files of the change.
	Totals Totals `json:"totals"`
	// Notes say what was done to make the range available (shallow clones).
	Notes []string `json:"notes,omitempty"`
}

// Totals sums a preview.
type Totals struct {
	Files     int `json:"files"`
	Reviewed  int `json:"reviewed"`
	Excluded  int `json:"excluded"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// New sums the files of ch as selected.
func New(ch *change.Change, files []review.FileCoverage) Preview {
	p := Preview{Mode: ch.Mode, Base: ch.Base, Head: ch.Head, Files: files, Notes: ch.Notes}
	if p.Files == nil {
		p.Files = []review.FileCoverage{}
	}
	for _, f := range files {
		p.Totals.Files++
		p.Totals.Additions += f.Additions
		p.Totals.Deletions += f.Deletions
		if f.Reviewed {
			p.Totals.Reviewed++
		} else {
			p.Totals.Excluded++
		}
	}
	return p
}

// WriteJSON writes the preview as indented JSON.
func (p Preview) WriteJSON(w io.Writer) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return err
	}
	_, err := io.WriteString(w, logtext.Inert(b.String()))
	return err
}

// WriteText writes the preview for a terminal.
func (p Preview) WriteText(w io.Writer) error {
	var b strings.Builder
	what := "changed"
	if p.Mode == "scan" {
		what = "scanned"
	}
	fmt.Fprintf(&b, "Preview (%s %s): %d file(s) %s  |  +%d  -%d\n", p.Mode, p.rangeText(),
		p.Totals.Files, what, p.Totals.Additions, p.Totals.Deletions)
	fmt.Fprintf(&b, "Will review (%d):\n", p.Totals.Reviewed)
	for _, f := range p.Files {
		if f.Reviewed {
			fmt.Fprintf(&b, "  [%s]  %s  +%d  -%d\n", badge(f.Status), printable(f.Path), f.Additions, f.Deletions)
		}
	}
	if p.Totals.Excluded > 0 {
		fmt.Fprintf(&b, "Not reviewed (%d):\n", p.Totals.Excluded)
	}
	for _, f := range p.Files {
		if !f.Reviewed {
			why := string(f.Reason)
			if f.Reason == review.ReasonBudget && f.Detail != "" { // what the budget left out, and its rank
				why += ": " + logtext.Inline(f.Detail)
			}
			fmt.Fprintf(&b, "  [%s]  %s  (%s)\n", badge(f.Status), printable(f.Path), why)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (p Preview) rangeText() string {
	switch {
	case p.Head == "":
		return "work tree"
	case p.Base == "": // a scan of the files at a commit
		return "at " + Short(p.Head)
	default:
		return Short(p.Base) + ".." + Short(p.Head)
	}
}

// printable quotes a path that holds control characters (a newline in a
// file name could otherwise start a workflow command in a CI log), the way
// git quotes such names.
func printable(p string) string {
	for _, r := range p {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return logtext.Inline(strconv.Quote(p))
		}
	}
	return logtext.Inline(p)
}

func badge(status string) string {
	if status == "" {
		return "?"
	}
	return string(status[0] - 'a' + 'A')
}

// Short abbreviates a commit to 12 hex digits.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
