package github

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// summaryMaxFiles bounds the not-reviewed table.
const summaryMaxFiles = 200

// Bounds of one row: a path or an error longer than this is cut.
const (
	pathMaxRunes  = 300
	errorMaxRunes = 2000
)

// summaryCoverage says how many files were reviewed, lists the others with
// their reasons (folded) and the run's errors, in about budget bytes: the
// rows that do not fit are counted instead.
func summaryCoverage(r *review.Review, budget int) string {
	var b strings.Builder
	missing := reporters.NotReviewed(r.Files)
	fmt.Fprintf(&b, "\n**Coverage:** %d of %d file(s) reviewed", len(r.Files)-missing, len(r.Files))
	if missing == 0 {
		b.WriteString(".\n")
	} else {
		fmt.Fprintf(&b, "; %d not reviewed.\n\n<details><summary>Files not reviewed</summary>\n\n| File | Reason |\n| --- | --- |\n", missing)
		listed := 0
		for _, f := range r.Files {
			if f.Reviewed {
				continue
			}
			row := fmt.Sprintf("| %s | %s |\n", posting.MdText(posting.TruncateRunes(f.Path, pathMaxRunes)),
				posting.MdText(posting.TruncateRunes(reporters.SkipReason(f), errorMaxRunes)))
			if listed == summaryMaxFiles || b.Len()+len(row) > budget/2 {
				break
			}
			listed++
			b.WriteString(row)
		}
		if missing > listed {
			fmt.Fprintf(&b, "| … | %d more |\n", missing-listed)
		}
		b.WriteString("\n</details>\n")
	}
	writeErrors(&b, r.Errors, budget)
	return b.String()
}

// writeErrors lists the run's errors while b stays within budget.
func writeErrors(b *strings.Builder, errs []string, budget int) {
	for i, e := range errs {
		line := fmt.Sprintf("\n> ⚠️ %s\n", posting.MdText(posting.TruncateRunes(e, errorMaxRunes)))
		if b.Len()+len(line) > budget-100 {
			fmt.Fprintf(b, "\n> ⚠️ %d more error(s): the JSON report lists all of them.\n", len(errs)-i)
			return
		}
		b.WriteString(line)
	}
}
