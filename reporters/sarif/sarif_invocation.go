package sarif

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/review"
)

// failureReasons are coverage reasons that mean the review fell short, as
// opposed to files excluded on purpose.
var failureReasons = map[string]bool{
	"budget": true, "timeout": true, "provider_error": true,
	"round_cap": true, "malformed_answers": true,
}

// sarifInvocation records whether the review completed, which files were
// not reviewed and why, run errors, and results cut by the limits.
func sarifInvocation(r *review.Review, cut int) invocation {
	inv := invocation{ExecutionSuccessful: r.Status == review.StatusComplete}
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		inv.StartTimeUTC, inv.EndTimeUTC = r.Started.UTC().Format(time.RFC3339), r.Finished.UTC().Format(time.RFC3339)
	}
	var notes []notification
	for _, e := range r.Errors {
		notes = append(notes, notify(levelError, ensurePeriod(e)))
	}
	for _, f := range r.Files {
		if !f.Reviewed {
			notes = append(notes, fileNotification(f))
		}
	}
	if cut > 0 {
		notes = append(notes, notify(levelWarning, fmt.Sprintf(
			"%d least severe result(s) were left out to stay within GitHub's limits (%d results, %d MB gzipped); the JSON report and the step summary list them.",
			cut, sarifMaxResults, sarifMaxGzipBytes>>20)))
	}
	if r.Dropped > 0 {
		notes = append(notes, notify(levelNote, fmt.Sprintf(
			"%d comment(s) over the configured caps were dropped before reporting.", r.Dropped)))
	}
	inv.ToolExecutionNotifications = notes
	return inv
}

func notify(level, text string) notification {
	return notification{Level: level, Message: message{Text: text}}
}

// fileNotification names a file that was not reviewed and why.
func fileNotification(f review.FileCoverage) notification {
	level := levelNote
	if failureReasons[string(f.Reason)] {
		level = levelWarning
	}
	text := fmt.Sprintf("%s was not reviewed (reason: %s)", f.Path, cmp.Or(f.Reason, "unknown"))
	if f.Detail != "" {
		text += ": " + f.Detail
	}
	n := notify(level, ensurePeriod(text))
	n.Locations = []location{{PhysicalLocation: physicalLocation{ArtifactLocation: artifactAt(f.Path)}}}
	return n
}

// ensurePeriod ends a sentence with a period, as SARIF message rules ask.
func ensurePeriod(s string) string {
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}
