package reportertest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/gitlab"
	"github.com/ocr-ci/ocr/review"
)

// Routes of the GitHub fake, as its Calls counts them.
const (
	RListPR    = "GET /repos/o/r/pulls/7/comments"
	RListIssue = "GET /repos/o/r/issues/7/comments"
	RReview    = "POST /repos/o/r/pulls/7/reviews"
	RIssue     = "POST /repos/o/r/issues/7/comments"
	RUser      = githubfake.RouteUser
	// RThreads and RResolve are the GraphQL operations that resolve ocr's
	// threads whose finding is gone.
	RThreads = githubfake.QueryThreads
	RResolve = githubfake.MutationResolve
)

// NewGitHubFake serves pull request o/r#7 with diff at head, token "tok".
func NewGitHubFake(t testing.TB, diff, head string) *githubfake.Server {
	return githubfake.New(t, githubfake.Config{Diff: diff, Head: head, Base: PostBase})
}

// NewGitHubReview is a poster of o/r#7 at PostHead against the fake f,
// falling back, logging and sleeping into rec. Its floor is low and its
// budget 30: the posting tests post every finding of their fixtures.
func NewGitHubReview(t testing.TB, f *githubfake.Server, diff string, rec *Recorder) *github.Review {
	return &github.Review{BaseURL: f.URL, Token: "tok", HTTPClient: f.Client(), MinSeverity: review.SeverityLow, MaxInline: 30,
		Owner: "o", Repo: "r", PR: 7, HeadSHA: PostHead, Changes: PostChangeSet(t, diff),
		ConfigHash: "cfg1", Fallback: rec, Logf: rec.Logf, Sleep: rec.Sleep}
}

// AssertCalls fails t unless the fake received exactly the calls in want.
func AssertCalls(t *testing.T, f interface{ Calls() map[string]int }, want map[string]int) {
	t.Helper()
	if d := cmp.Diff(want, f.Calls()); d != "" {
		t.Errorf("API calls (-want +got):\n%s", d)
	}
}

// GLMR is the fake merge request's API path.
const GLMR = "/api/v4/projects/42/merge_requests/5"

// Routes of the GitLab fake, as its Calls counts them.
const (
	GLList     = "GET " + GLMR + "/discussions"
	GLVersions = "GET " + GLMR + "/versions"
	GLCreate   = "POST " + GLMR + "/discussions"
	GLNote     = "POST " + GLMR + "/notes"
	GLUser     = "GET /api/v4/user"
)

// NewGitLabFake serves merge request 42!5 with diff, token "tok".
func NewGitLabFake(t testing.TB, diff string, tls bool) *gitlabfake.Server {
	return gitlabfake.New(t, gitlabfake.Config{Diff: diff, TLS: tls,
		Base: PostBase, Start: "3333333333333333333333333333333333333333", Head: PostHead})
}

// NewGitLab is a poster of merge request 42!5 at PostHead against the
// fake f, falling back, logging and sleeping into rec. Its floor is low
// and its budget 30: the posting tests post every finding of their fixtures.
func NewGitLab(t testing.TB, f *gitlabfake.Server, diff string, rec *Recorder) *gitlab.Discussion {
	return &gitlab.Discussion{BaseURL: f.URL + "/api/v4", Token: "tok", TokenSource: "OCR_GITLAB_TOKEN", MinSeverity: review.SeverityLow, MaxInline: 30,
		HTTPClient: f.Client(), Project: "42", MR: 5, HeadSHA: PostHead, Changes: PostChangeSet(t, diff),
		ConfigHash: "cfg1", Fallback: rec, Logf: rec.Logf, Sleep: rec.Sleep}
}

// StaleHunk is a third hunk for pkg/f1.go that only ocr's diff has: GitHub
// (the fake) rejects comments on it with 422, as when the diff ocr reviewed
// is not the pull request's.
const StaleHunk = "@@ -60,3 +62,4 @@\n // e1\n+// e2\n // e3\n // e4\n"

// LastBodyLine is the last line of a comment body.
func LastBodyLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// GitLabFindings covers every line kind: added range with a suggestion,
// deleted line, added line, context line (the degraded cross-hunk range),
// outside the diff, file-level, other file; then n more inline ones.
func GitLabFindings(n int) []review.Comment {
	var cs []review.Comment
	for k := KindRangeSuggest; k <= KindOtherFile; k++ {
		cs = append(cs, PostFinding(k, 0, review.SeverityHigh))
	}
	ctx := PostFinding(KindSingle, 0, review.SeverityLow)
	ctx.StartLine, ctx.EndLine, ctx.ExistingCode = 5, 7, "context range"
	ctx.Fingerprint = review.Fingerprint(ctx.Path, ctx.Category, ctx.ExistingCode)
	cs = append(cs, ctx)
	for i := 0; i < n; i++ {
		cs = append(cs, PostFinding(i%3, 1+i/3, review.SeverityMedium))
	}
	return cs
}
