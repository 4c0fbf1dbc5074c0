package gitlabfake_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
)

const (
	base  = "1111111111111111111111111111111111111111"
	start = "3333333333333333333333333333333333333333"
	head  = "2222222222222222222222222222222222222222"
	// diff: deletes old line 3, adds new lines 3–4; new line 5 is context (old 4).
	diff = "diff --git a/pkg/f0.go b/pkg/f0.go\nindex 1111111..2222222 100644\n--- a/pkg/f0.go\n+++ b/pkg/f0.go\n" +
		"@@ -1,6 +1,7 @@\n package p\n \n-func old() {}\n+func a() {}\n+func b() {}\n // c1\n // c2\n // c3\n"
)

// TestRejectsLikeGitLab checks the positions GitLab refuses and accepts.
func TestRejectsLikeGitLab(t *testing.T) {
	f := gitlabfake.New(t, gitlabfake.Config{Diff: diff, Base: base, Start: start, Head: head})
	pos := func(lines string) string {
		return `{"body":"x","position":{"position_type":"text","base_sha":"` + base + `","start_sha":"` + start + `","head_sha":"` +
			head + `","old_path":"pkg/f0.go","new_path":"pkg/f0.go",` + lines + `}}`
	}
	cases := []struct {
		name, body string
		status     int
		want       string
	}{
		{"context line without old_line", pos(`"new_line":5`), 400, `line_code=>[\"can't be blank\"`},
		{"added line given as old", pos(`"old_line":3,"new_line":3`), 400, `can't be blank`},
		{"deleted line as new", pos(`"new_line":99`), 400, `can't be blank`},
		{"context line with both", pos(`"old_line":4,"new_line":5`), 201, `"type":"DiffNote"`},
		{"added line", pos(`"new_line":3`), 201, `"type":"DiffNote"`},
		{"deleted line", pos(`"old_line":3`), 201, `"type":"DiffNote"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, f, f.MRPath()+"/discussions", c.body)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%d %s, want %d containing %s", status, body, c.status, c.want)
			}
		})
	}
	if n := len(f.Posted()); n != 3 {
		t.Errorf("%d discussions stored, want the 3 accepted", n)
	}
}

func TestTooManyRequestsOnce(t *testing.T) {
	f := gitlabfake.New(t, gitlabfake.Config{Diff: diff, Base: base, Start: start, Head: head})
	f.TooManyRequestsOnce()
	if status, _ := post(t, f, f.MRPath()+"/notes", `{"body":"s"}`); status != 429 {
		t.Errorf("first write: %d, want 429", status)
	}
	if status, _ := post(t, f, f.MRPath()+"/notes", `{"body":"s"}`); status != 201 {
		t.Errorf("retry: %d, want 201", status)
	}
	if f.SummaryBody() != "s" {
		t.Errorf("summary = %q", f.SummaryBody())
	}
}

func post(t *testing.T, f *gitlabfake.Server, path, body string) (int, string) {
	t.Helper()
	return do(t, f, http.MethodPost, path, body)
}

// do sends one request with the fake's token and returns the answer.
func do(t *testing.T, f *gitlabfake.Server, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Private-Token", "tok")
	req.Header.Set("Content-Type", "application/json")
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

// TestCurrentUser: GET /user answers the token's bot user, who authors the
// notes posted with the token; others' notes carry their own IDs.
func TestCurrentUser(t *testing.T) {
	f := gitlabfake.New(t, gitlabfake.Config{Diff: diff, Base: base, Start: start, Head: head})
	status, b := do(t, f, http.MethodGet, "/api/v4/user", "")
	if status != 200 || !strings.Contains(b, `"id":9042`) || !strings.Contains(b, `"bot":true`) {
		t.Errorf("GET /user: %d %s", status, b)
	}
	post(t, f, f.MRPath()+"/notes", `{"body":"mine"}`)
	f.AddNote(gitlabfake.Human("mallory"), "theirs")
	ds := f.Discussions()
	if len(ds) != 2 || ds[0].Notes[0].Author["id"] != int64(9042) || ds[1].Notes[0].Author["id"] == int64(9042) {
		t.Errorf("authors: %v / %v", ds[0].Notes[0].Author, ds[1].Notes[0].Author)
	}
	if f.SummaryBody() != "mine" {
		t.Errorf("SummaryBody = %q, want the token's own note", f.SummaryBody())
	}
}

// TestMultiLineAnswerLikeGitLab: a multi-line discussion is answered (and
// listed) as GitLab does: the position's own lines as numbers, line_range's
// as strings, null for the side an added line lacks.
func TestMultiLineAnswerLikeGitLab(t *testing.T) {
	f := gitlabfake.New(t, gitlabfake.Config{Diff: diff, Base: base, Start: start, Head: head})
	code := "909d761992f806ed6b303c57c35a2ff94393cf84" // sha1("pkg/f0.go")
	body := `{"body":"x","position":{"position_type":"text","base_sha":"` + base + `","start_sha":"` + start + `","head_sha":"` +
		head + `","old_path":"pkg/f0.go","new_path":"pkg/f0.go","new_line":4,"line_range":{` +
		`"start":{"line_code":"` + code + `_4_3","type":"new","new_line":3},"end":{"line_code":"` + code + `_4_4","type":"new","new_line":4}}}}`
	status, answer := post(t, f, f.MRPath()+"/discussions", body)
	want := `"line_range":{"end":{"line_code":"` + code + `_4_4","new_line":"4","old_line":null,"type":"new"},` +
		`"start":{"line_code":"` + code + `_4_3","new_line":"3","old_line":null,"type":"new"}}`
	if status != 201 || !strings.Contains(answer, want) || !strings.Contains(answer, `"new_line":4,"new_path"`) || !strings.Contains(answer, `"old_line":null,"old_path"`) {
		t.Errorf("%d %s\nwant it to contain %s", status, answer, want)
	}
	if _, listed := do(t, f, http.MethodGet, f.MRPath()+"/discussions?per_page=100", ""); !strings.Contains(listed, want) {
		t.Errorf("listing: %s", listed)
	}
}
