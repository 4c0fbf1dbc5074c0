package reporters_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestFakesRejectLikeThePlatforms checks the fakes themselves: the error
// answers the reporters are tested against are GitHub's and GitLab's.
func TestFakesRejectLikeThePlatforms(t *testing.T) {
	diff := postDiff(1)
	gh := newGitHubFake(t, diff, postHead)
	gl := newGitLabFake(t, diff, false)
	review := func(comment string) string {
		return `{"commit_id":"` + postHead + `","event":"COMMENT","body":"b","comments":[` + comment + `]}`
	}
	cases := []struct {
		name, url, header, body string
		status                  int
		want                    string
	}{
		{"github line outside the diff", gh.srv.URL + "/repos/o/r/pulls/7/reviews", "Authorization",
			review(`{"path":"pkg/f0.go","body":"x","line":20,"side":"RIGHT"}`), 422, "line must be part of the diff"},
		{"github range across hunks", gh.srv.URL + "/repos/o/r/pulls/7/reviews", "Authorization",
			review(`{"path":"pkg/f0.go","body":"x","start_line":6,"start_side":"RIGHT","line":42,"side":"RIGHT"}`), 422,
			"start line must be part of the same hunk as the line."},
		{"github deleted line on the left", gh.srv.URL + "/repos/o/r/pulls/7/reviews", "Authorization",
			review(`{"path":"pkg/f0.go","body":"x","line":3,"side":"LEFT"}`), 200, `"state":"COMMENTED"`},
		{"gitlab context line without old_line", gl.srv.URL + "/api/v4/projects/42/merge_requests/5/discussions", "Private-Token",
			`{"body":"x","position":{"position_type":"text","base_sha":"` + postBase + `","start_sha":"3333333333333333333333333333333333333333","head_sha":"` +
				postHead + `","old_path":"pkg/f0.go","new_path":"pkg/f0.go","new_line":5}}`, 400, "line_code=>[\\\"can't be blank\\\""},
		{"gitlab context line with both", gl.srv.URL + "/api/v4/projects/42/merge_requests/5/discussions", "Private-Token",
			`{"body":"x","position":{"position_type":"text","base_sha":"` + postBase + `","start_sha":"3333333333333333333333333333333333333333","head_sha":"` +
				postHead + `","old_path":"pkg/f0.go","new_path":"pkg/f0.go","old_line":4,"new_line":5}}`, 201, `"type":"DiffNote"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(c.body))
			if c.header == "Authorization" {
				req.Header.Set(c.header, "Bearer tok")
			} else {
				req.Header.Set(c.header, "tok")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Errorf("%d %s, want %d containing %s", resp.StatusCode, b, c.status, c.want)
			}
		})
	}
}
