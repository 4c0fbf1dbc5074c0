// Package github is everything GitHub: workflow-command annotations and
// secret masking, the step summary, $GITHUB_OUTPUT, and the pull request
// review poster (Review).
package github

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/sethvargo/go-githubactions"

	"github.com/ocr-ci/ocr/review"
)

// annotationsPerLevel is how many annotations of each level GitHub shows per
// step; extra lines vanish silently.
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#setting-an-error-message
const annotationsPerLevel = 10

// annotationMaxRunes bounds one annotation's message; the summary has the rest.
const annotationMaxRunes = 4000

// Annotations writes GitHub Actions workflow commands
// (::error/::warning/::notice) for the comments, most severe first, at most
// PerLevel per level; one closing notice counts the rest and points at the
// step summary. Model text is escaped (go-githubactions: %, CR, LF in the
// message; also : and , in properties), so every command is exactly one
// line and no model text can start a command of its own.
type Annotations struct {
	// W is the step's stdout (GitHub parses commands from the log).
	W io.Writer
	// PerLevel overrides GitHub's 10 per level (tests).
	PerLevel int
}

var _ reporters.Reporter = (*Annotations)(nil)

// Report writes the annotations.
func (a *Annotations) Report(_ context.Context, r *review.Review) error {
	for _, cmd := range a.Commands(r) {
		if _, err := io.WriteString(a.W, cmd.String()+"\n"); err != nil {
			return fmt.Errorf("could not write GitHub annotations: %w", err)
		}
	}
	return nil
}

// Commands are the workflow commands Report writes, in order; suppressed
// comments (someone ignored them) are not annotated.
func (a *Annotations) Commands(r *review.Review) []*githubactions.Command {
	r = r.Active()
	per := reporters.OrDefault(a.PerLevel, annotationsPerLevel)
	shown := map[string]int{}
	var cmds []*githubactions.Command
	hidden := 0
	for _, c := range reporters.BySeverity(r.Comments) {
		level := annotationLevel(c.Severity)
		limit := per
		if level == "notice" {
			limit = per - 1 // the closing notice needs one slot
		}
		if shown[level] >= limit {
			hidden++
			continue
		}
		shown[level]++
		cmds = append(cmds, annotation(c, level))
	}
	if note := closingNotice(r, hidden); note != "" {
		cmds = append(cmds, &githubactions.Command{Name: "notice", Message: note,
			Properties: githubactions.CommandProperties{"title": "ocr"}})
	}
	return cmds
}

// annotationLevel maps severities to workflow-command levels.
func annotationLevel(s review.Severity) string {
	switch s {
	case review.SeverityCritical, review.SeverityHigh:
		return "error"
	case review.SeverityMedium:
		return "warning"
	}
	return "notice"
}

// annotation places one comment; file-level and old-side comments become
// file annotations (no line) whose message says what they are about.
func annotation(c review.Comment, level string) *githubactions.Command {
	props := githubactions.CommandProperties{
		"file":  c.Path,
		"title": string(c.Category) + " · " + string(c.Severity),
	}
	msg := strings.TrimSpace(c.Content)
	switch {
	case c.FileLevel():
		msg = "File-level finding: " + msg
	case c.Side == review.SideOld:
		msg = fmt.Sprintf("About removed code (%s of the old version of %s): %s", reporters.LineSpan(c.StartLine, c.EndLine), reporters.OldPath(c.Location), msg)
	default:
		props["line"] = strconv.Itoa(c.StartLine)
		if c.EndLine > c.StartLine {
			props["endLine"] = strconv.Itoa(c.EndLine)
		}
	}
	if c.Suggestion != "" {
		msg += "\n\nSuggested change:\n" + c.Suggestion
	}
	for k, v := range props {
		props[k] = logSafe(v)
	}
	return &githubactions.Command{Name: level, Message: logSafe(posting.TruncateRunes(msg, annotationMaxRunes)), Properties: props}
}

// logSafe turns Unicode line separators into "\n" (then escaped as %0A,
// so no log viewer can split the line) and drops other control and
// bidi-formatting characters (ANSI colours, Trojan Source), keeping tabs.
func logSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u2028' || r == '\u2029' || r == '\u0085':
			return '\n'
		case r == '\n' || r == '\r' || r == '\t':
			return r
		case reporters.IsUnsafeControl(r):
			return -1
		}
		return r
	}, s)
}

// closingNotice says what the annotations do not show: hidden findings and
// an incomplete review. "" when there is nothing to say.
func closingNotice(r *review.Review, hidden int) string {
	var parts []string
	if hidden > 0 {
		parts = append(parts, fmt.Sprintf("%d more finding(s) are not shown as annotations (GitHub shows %d per level)", hidden, annotationsPerLevel))
	}
	if n := reporters.NotReviewed(r.Files); r.Status != review.StatusComplete {
		parts = append(parts, fmt.Sprintf("the review is incomplete (%s): %d file(s) were not reviewed", r.Status, n))
	}
	if len(parts) == 0 {
		return ""
	}
	return "ocr: " + strings.Join(parts, "; ") + ". See the job summary for the full report."
}
