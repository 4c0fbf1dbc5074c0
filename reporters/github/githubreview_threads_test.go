package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
)

// rootOf is the ID of ocr's root comment carrying fingerprint fp.
func rootOf(t *testing.T, f *githubfake.Server, fp string) githubfake.Comment {
	t.Helper()
	for _, c := range f.Comments() {
		if c.InReplyTo == nil && strings.Contains(c.Body, "ocr:fp="+fp) && c.User == githubfake.ActionsBot() {
			return c
		}
	}
	t.Fatalf("no comment of ocr carries %s", fp)
	return githubfake.Comment{}
}

// TestGitHubReviewResolvesGoneThreads: when findings are gone, exactly
// ocr's unanswered thread is resolved through GraphQL; the thread a person
// answered and a person's own thread (even one carrying ocr's marker) stay
// open; the summary says which; a re-run writes nothing.
func TestGitHubReviewResolvesGoneThreads(t *testing.T) {
	diff := reportertest.PostDiff(4)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	f.SetPerPage(2) // several pages of threads
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	g.GraphQLURL = f.GraphQLURL()
	r := reportertest.InlineReview(6)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	gone, answered := r.Comments[0], r.Comments[1]
	goneRoot, answeredRoot := rootOf(t, f, gone.Fingerprint), rootOf(t, f, answered.Fingerprint)
	alice := githubfake.User{Login: "alice", ID: 777, Type: "User"}
	f.AddComment(githubfake.Comment{Body: "Not a bug: the caller checks.", Path: answeredRoot.Path, InReplyTo: &answeredRoot.ID, User: alice})
	line := 42
	human := f.AddComment(githubfake.Comment{Body: "Same here.\n\n<!-- ocr:fp=" + gone.Fingerprint + " -->", Path: goneRoot.Path,
		Line: &line, Side: "RIGHT", User: alice})

	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(r.Comments[2:])); err != nil {
		t.Fatal(err)
	}
	calls := f.Calls()
	if calls[reportertest.RResolve] != 1 || calls[reportertest.RThreads] != 4 { // 8 threads, 2 a page
		t.Errorf("calls %v: want 4 pages of threads and one resolve", calls)
	}
	if !f.Resolved(goneRoot.ID) || f.Resolved(answeredRoot.ID) || f.Resolved(human.ID) {
		t.Errorf("resolved: gone %v (want true), answered %v, human's %v (want false)",
			f.Resolved(goneRoot.ID), f.Resolved(answeredRoot.ID), f.Resolved(human.ID))
	}
	s := f.IssueComments()[0].Body
	if !strings.Contains(s, "Resolved since the last run (2)") || !strings.Contains(s, "— thread resolved") ||
		!strings.Contains(s, "— thread left open: someone replied") {
		t.Errorf("summary:\n%s", s)
	}

	f.ResetCalls()
	if err := g.Report(context.Background(), reportertest.PostReview(r.Comments[2:])); err != nil {
		t.Fatal(err)
	}
	if calls := f.Calls(); fakes.Writes(calls) != 0 || calls[reportertest.RThreads] != 4 {
		t.Errorf("re-run: %v, want the threads read and nothing written", calls)
	}
}

// TestGitHubReviewThreadErrors: a GraphQL error (HTTP 200 with errors) is
// an error, said in the summary; a refusal (FORBIDDEN) skips resolving
// with one line; a read-only token makes no call at all and says so.
func TestGitHubReviewThreadErrors(t *testing.T) {
	diff := reportertest.PostDiff(2)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	r := reportertest.InlineReview(3)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	f.FailGraphQLOnce("", "Something went wrong while executing your query.")
	err := g.Report(context.Background(), reportertest.PostReview(r.Comments[1:]))
	if err == nil || !strings.Contains(err.Error(), "Something went wrong") {
		t.Errorf("GraphQL error: %v, want an error", err)
	}
	if s := f.IssueComments()[0].Body; !strings.Contains(s, "Something went wrong") {
		t.Errorf("the summary does not say resolving failed:\n%s", s)
	}

	f.FailGraphQLOnce("FORBIDDEN", "Resource not accessible by integration")
	rec.Logs = nil
	if err := g.Report(context.Background(), reportertest.PostReview(r.Comments[1:])); err != nil {
		t.Errorf("FORBIDDEN: %v, want the review posted and resolving skipped", err)
	}
	if n := strings.Count(strings.Join(rec.Logs, "\n"), "not resolving ocr's review threads"); n != 1 {
		t.Errorf("%d lines say why threads are not resolved: %q", n, rec.Logs)
	}

	f.ResetCalls()
	rec.Logs = nil
	g.Fork = true
	if err := g.Report(context.Background(), reportertest.PostReview(nil)); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{})
	if logs := strings.Join(rec.Logs, "\n"); !strings.Contains(logs, "no review thread is resolved") {
		t.Errorf("read-only: %q", logs)
	}
}
