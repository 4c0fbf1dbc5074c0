package ci

import (
	"context"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

const (
	baseSHA = "b000000000000000000000000000000000000000"
	headSHA = "h000000000000000000000000000000000000000"
)

// TestResolvePRFromIssueComment: a comment on a pull request names only its
// number; the range comes from GET /repos/{o}/{r}/pulls/{n}, with the token.
func TestResolvePRFromIssueComment(t *testing.T) {
	for _, headRepo := range []string{"o/r", "someone/r"} {
		t.Run(headRepo, func(t *testing.T) {
			gh := githubfake.New(t, githubfake.Config{PR: 9, Token: "ghs_tok", Base: baseSHA, Head: headSHA, HeadRepo: headRepo})
			gh.Expect(gh.Route("GET", ""))
			g := GitHubEnv{Actions: true, EventName: "issue_comment", Repository: "o/r", APIURL: gh.URL, Token: "ghs_tok",
				EventPath: eventFile(t, `{"issue":{"number":9,"pull_request":{"url":"x"}}}`), SHA: "c1"}
			cx, err := Detect(Env{GitHub: g})
			if err != nil || !cx.NeedPR || cx.PR != 9 {
				t.Fatalf("Detect = %+v, %v; want NeedPR for #9", cx, err)
			}
			if err := ResolvePR(context.Background(), &cx, g); err != nil {
				t.Fatal(err)
			}
			want := Context{Platform: PlatformGitHub, Event: "issue_comment", Owner: "o", Name: "r", PR: 9,
				From: baseSHA, To: headSHA, HeadSHA: headSHA, ConfigRef: baseSHA, Why: cx.Why,
				Reports: specs("github-review", "github-annotations", "github-summary", "sarif=ocr.sarif")}
			if headRepo != "o/r" {
				// Its token writes, but the head is a fork's: the lower caps apply.
				want.UntrustedHead = "fork pull request under issue_comment: head from someone/r"
			}
			if !reflect.DeepEqual(cx, want) {
				t.Errorf("resolved\n%+v\nwant\n%+v (a comment-triggered run is never read-only, even from a fork)", cx, want)
			}
			if calls := gh.Calls()[gh.Route("GET", "")]; calls != 1 {
				t.Errorf("GET pull request %d times, want once", calls)
			}
		})
	}
}

func TestResolvePRErrors(t *testing.T) {
	down := httptest.NewServer(nil)
	down.Close()
	for name, api := range map[string]string{"unreachable": down.URL, "bad URL": "http://[::1"} {
		t.Run(name, func(t *testing.T) {
			cx := Context{Platform: PlatformGitHub, Owner: "o", Name: "r", PR: 9, NeedPR: true}
			err := ResolvePR(context.Background(), &cx, GitHubEnv{APIURL: api, Token: "t"})
			if err == nil {
				t.Fatal("no error")
			}
			if name == "unreachable" && !strings.Contains(err.Error(), "pull-requests: read") {
				t.Errorf("error %q should say which permission the token needs", err)
			}
			if name == "bad URL" && !strings.Contains(err.Error(), "GITHUB_API_URL") {
				t.Errorf("error %q should name GITHUB_API_URL", err)
			}
			if cx.From != "" || !cx.NeedPR {
				t.Errorf("a failed lookup changed the context: %+v", cx)
			}
		})
	}
}

// TestLoadReadsOnlyTheLookup: the CI variables come from the lookup given,
// with the documented defaults and token fallbacks.
func TestLoadReadsOnlyTheLookup(t *testing.T) {
	t.Parallel()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_TOKEN": "fallback", "GITLAB_TOKEN": "gl", "OCR_GITLAB_TOKEN": "ocr-gl"}
	e, err := Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if !e.GitHub.Actions || e.GitHub.Token != "fallback" || e.GitLab.Token != "ocr-gl" || e.GitHub.APIURL != "https://api.github.com" ||
		e.GitHub.ServerURL != "https://github.com" || e.GitHub.TokenFallback != "" || e.GitLab.TokenFallback != "" {
		t.Errorf("Load = %+v", e)
	}
	if _, err := Load(func(k string) (string, bool) { return "x", k == "GITHUB_ACTIONS" }); err == nil || !strings.Contains(err.Error(), "GitHub Actions") {
		t.Errorf("GITHUB_ACTIONS=x: error %v, want one naming the GitHub Actions environment", err)
	}
}
