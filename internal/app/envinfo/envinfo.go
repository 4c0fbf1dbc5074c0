// Package envinfo renders what `ocr env` shows: the detected context, the
// range, the caps in effect and why, the LLM endpoint with the variable
// each setting came from, and secrets only as "set (N characters)".
package envinfo

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
)

// Row is one line of `ocr env`: a name and its value ("" shows as "-").
type Row struct{ Name, Value string }

// Context lists what was detected and what a review would do with it.
func Context(cfg *config.Config, cx ci.Context) []Row {
	request := "pull request"
	if cx.Platform == "gitlab" {
		request = "merge request"
	}
	return []Row{
		{"platform", cx.Platform}, {"event", cx.Event}, {"why", cx.Why},
		{"mode", cfg.Mode()}, {"range", Range(cfg)}, {request, PR(cx)},
		{"config ref", cfg.ConfigRef}, {"reports", Reports(cfg, cx)},
	}
}

// Reports lists the reports a review would write; on a fork's pull
// request (a read-only token) github-review says it posts nothing and
// where its findings go instead.
func Reports(cfg *config.Config, cx ci.Context) string {
	list := cfg.ReportList()
	for i, r := range list {
		if r == "github-review" && cx.ReadOnly {
			list[i] = r + " (read-only token: nothing is posted; the findings go to the annotations and the step summary)"
		}
	}
	return strings.Join(list, ", ")
}

// Write prints rows as an aligned two-column table.
func Write(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		if _, err := fmt.Fprintf(tw, "%s:\t%s\n", r.Name, OrDash(r.Value)); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// Range says what a review compares: "A..B", one commit, or the work tree.
func Range(cfg *config.Config) string {
	switch cfg.Mode() {
	case "range":
		return cfg.From + ".." + cfg.To
	case "commit":
		return cfg.Commit
	}
	return "work tree against HEAD"
}

// PR names the pull request, and says when its token is read-only.
func PR(cx ci.Context) string {
	if cx.PR == 0 {
		return ""
	}
	s := fmt.Sprintf("#%d", cx.PR)
	if cx.Platform == "gitlab" {
		s = fmt.Sprintf("!%d", cx.PR)
	}
	if cx.ReadOnly {
		s += " (from a fork: read-only)"
	}
	return s
}

// Mask shows that a secret is set without showing it.
func Mask(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("set (%d characters)", len(s))
}

// OrDash shows an empty value as "-".
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Runs says what `ocr review` does in this job: on a comment event it
// answers the comment (and reviews only on "/ocr review"), else it reviews.
func Runs(e ci.Env) string {
	if (e.GitHub.Actions && (e.GitHub.EventName == "issue_comment" || e.GitHub.EventName == "pull_request_review_comment")) || (e.GitLab.CI && ci.IsGitLabNoteTrigger(e.GitLab)) {
		return "the conversation: ocr answers a comment that mentions @ocr or starts with /ocr; " +
			"\"/ocr review\" reviews the range above (docs/conversation.md)"
	}
	return "a review of the range above"
}
