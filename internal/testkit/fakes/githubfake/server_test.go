package githubfake_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

const (
	head = "2222222222222222222222222222222222222222"
	// diff: hunk 1 deletes old line 3 and adds new lines 3–4; hunk 2 adds new line 42.
	diff = "diff --git a/pkg/f0.go b/pkg/f0.go\nindex 1111111..2222222 100644\n--- a/pkg/f0.go\n+++ b/pkg/f0.go\n" +
		"@@ -1,6 +1,7 @@\n package p\n \n-func old() {}\n+func a() {}\n+func b() {}\n // c1\n // c2\n // c3\n" +
		"@@ -40,4 +41,5 @@ func x() {\n // d1\n+// added\n // d2\n // d3\n // d4\n"
)

// TestRejectsLikeGitHub checks the error answers the reporters are tested
// against are GitHub's.
func TestRejectsLikeGitHub(t *testing.T) {
	f := githubfake.New(t, githubfake.Config{Diff: diff, Head: head})
	review := func(comment string) string {
		return `{"commit_id":"` + head + `","event":"COMMENT","body":"b","comments":[` + comment + `]}`
	}
	cases := []struct {
		name, body string
		status     int
		want       string
	}{
		{"line outside the diff", review(`{"path":"pkg/f0.go","body":"x","line":20,"side":"RIGHT"}`), 422, "line must be part of the diff"},
		{"range across hunks", review(`{"path":"pkg/f0.go","body":"x","start_line":6,"start_side":"RIGHT","line":42,"side":"RIGHT"}`), 422,
			"start line must be part of the same hunk as the line."},
		{"unknown path", review(`{"path":"nope.go","body":"x","line":1,"side":"RIGHT"}`), 422, "path is invalid"},
		{"wrong commit", `{"commit_id":"5555555555555555555555555555555555555555","event":"COMMENT","body":"b","comments":[]}`, 422, "commitOID is not part of the pull request"},
		{"deleted line on the left", review(`{"path":"pkg/f0.go","body":"x","line":3,"side":"LEFT"}`), 200, `"state":"COMMENTED"`},
		{"range in one hunk", review(`{"path":"pkg/f0.go","body":"x","start_line":3,"start_side":"RIGHT","line":4,"side":"RIGHT"}`), 200, `"state":"COMMENTED"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, f, "/repos/o/r/pulls/7/reviews", c.body)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%d %s, want %d containing %s", status, body, c.status, c.want)
			}
		})
	}
	if n := len(f.Reviews()); n != 2 {
		t.Errorf("%d reviews stored, want the 2 accepted", n)
	}
}

func TestSecondaryLimitOnceAndPagination(t *testing.T) {
	f := githubfake.New(t, githubfake.Config{Diff: diff, Head: head})
	f.SecondaryLimitOnce()
	f.SetPerPage(1)
	status, body := post(t, f, "/repos/o/r/issues/7/comments", `{"body":"one"}`)
	if status != 403 || !strings.Contains(body, "secondary rate limit") {
		t.Errorf("first write: %d %s, want 403 secondary rate limit", status, body)
	}
	for _, b := range []string{"one", "two"} {
		if status, body := post(t, f, "/repos/o/r/issues/7/comments", `{"body":"`+b+`"}`); status != 201 {
			t.Fatalf("write: %d %s", status, body)
		}
	}
	req, err := http.NewRequestWithContext(t.Context(), "GET", f.URL+"/repos/o/r/issues/7/comments?per_page=100", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := f.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if link := resp.Header.Get("Link"); !strings.Contains(link, `page=2>; rel="next"`) {
		t.Errorf("Link = %q, want a next page", link)
	}
	if got := f.Calls()[f.Route("POST", "issue-comments")]; got != 3 {
		t.Errorf("counted %d POSTs, want 3", got)
	}
}

func post(t *testing.T, f *githubfake.Server, path, body string) (int, string) {
	t.Helper()
	return do(t, f, http.MethodPost, path, body)
}

// TestUserByTokenKind: GET /user answers a personal access token's account
// and 403 for GITHUB_TOKEN, and comments are posted as that account.
func TestUserByTokenKind(t *testing.T) {
	for _, c := range []struct {
		pat    string
		status int
		want   string
		poster githubfake.User
	}{
		{"", 403, "Resource not accessible by integration", githubfake.ActionsBot()},
		{"octo", 200, `"login":"octo"`, githubfake.User{Login: "octo", ID: 5000001, Type: "User"}},
	} {
		t.Run("pat="+c.pat, func(t *testing.T) {
			f := githubfake.New(t, githubfake.Config{Diff: diff, Head: head, PATUser: c.pat})
			if status, body := get(t, f, "/user"); status != c.status || !strings.Contains(body, c.want) {
				t.Errorf("GET /user: %d %s, want %d containing %s", status, body, c.status, c.want)
			}
			post(t, f, "/repos/o/r/issues/7/comments", `{"body":"s"}`)
			if got := f.IssueComments()[0].User; got != c.poster {
				t.Errorf("posted as %+v, want %+v", got, c.poster)
			}
			f.SetUserStatus(502)
			if status, _ := get(t, f, "/user"); status != 502 {
				t.Errorf("GET /user after SetUserStatus(502): %d", status)
			}
		})
	}
}

func get(t *testing.T, f *githubfake.Server, path string) (int, string) {
	t.Helper()
	return do(t, f, http.MethodGet, path, "")
}

// do sends one request with the fake's token and returns the answer.
func do(t *testing.T, f *githubfake.Server, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := f.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
