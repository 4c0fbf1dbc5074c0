package sarif

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

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
func sarifInvocation(r *review.Review, cut int) *sarif.Invocation {
	inv := sarif.NewInvocation()
	ok := r.Status == review.StatusComplete
	inv.ExecutionSuccessful = &ok
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		start, end := r.Started.UTC().Format(time.RFC3339), r.Finished.UTC().Format(time.RFC3339)
		inv.StartTimeUtc, inv.EndTimeUtc = &start, &end
	}
	var notes []*sarif.Notification
	for _, e := range r.Errors {
		notes = append(notes, notification(sarif.LevelError, ensurePeriod(e)))
	}
	for _, f := range r.Files {
		if !f.Reviewed {
			notes = append(notes, fileNotification(f))
		}
	}
	if cut > 0 {
		notes = append(notes, notification(sarif.LevelWarning, fmt.Sprintf(
			"%d least severe result(s) were left out to stay within GitHub's limits (%d results, %d MB gzipped); the JSON report and the step summary list them.",
			cut, sarifMaxResults, sarifMaxGzipBytes>>20)))
	}
	if r.Dropped > 0 {
		notes = append(notes, notification(sarif.LevelNote, fmt.Sprintf(
			"%d comment(s) over the configured caps were dropped before reporting.", r.Dropped)))
	}
	inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notes...)
	return inv
}

func notification(level, text string) *sarif.Notification {
	n := sarif.NewNotification()
	n.Level = level
	n.Message = sarif.NewTextMessage(text)
	return n
}

// fileNotification names a file that was not reviewed and why.
func fileNotification(f review.FileCoverage) *sarif.Notification {
	level := sarif.LevelNote
	if failureReasons[string(f.Reason)] {
		level = sarif.LevelWarning
	}
	text := fmt.Sprintf("%s was not reviewed (reason: %s)", f.Path, cmp.Or(f.Reason, "unknown"))
	if f.Detail != "" {
		text += ": " + f.Detail
	}
	n := notification(level, ensurePeriod(text))
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(artifactLocation(f.Path))
	n.Locations = []*sarif.Location{sarif.NewLocation().WithPhysicalLocation(phys)}
	return n
}

// ensurePeriod ends a sentence with a period, as SARIF message rules ask.
func ensurePeriod(s string) string {
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}
