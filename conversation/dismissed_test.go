package conversation_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
)

// TestReadDismissedGitHub: a 👎 on ocr's finding counts when a trusted
// person gave it; the reaction counts of the comment listing spare a
// request per comment, and a reactor's association comes from their
// comment on the pull request before their permission is asked.
func TestReadDismissedGitHub(t *testing.T) {
	alice := githubfake.User{Login: "alice", ID: 501, Type: "User"}
	mallory := githubfake.User{Login: "mallory", ID: 666, Type: "User"}
	carol := githubfake.User{Login: "carol", ID: 502, Type: "User"}
	for _, tc := range []struct {
		name      string
		setup     func(w *world)
		by        string
		reactions int      // requests listing the comment's 👎
		perms     []string // whose permission is asked
	}{
		{"no reaction", func(*world) {}, "", 0, nil},
		{"a heart", func(w *world) { w.gh.React(w.finding.ID, mallory, "heart") }, "", 0, nil},
		{"an owner who commented", func(w *world) {
			w.gh.AddIssueCommentAs(alice, "OWNER", "looks fine")
			w.gh.React(w.finding.ID, alice, "-1")
		}, "alice", 1, nil},
		{"a stranger", func(w *world) { w.gh.React(w.finding.ID, mallory, "-1") }, "", 1, []string{"mallory"}},
		{"a bot", func(w *world) {
			w.gh.React(w.finding.ID, githubfake.User{Login: "dependabot[bot]", ID: 49699333, Type: "Bot"}, "-1")
		}, "", 1, nil},
		{"a writer who never commented, after a stranger", func(w *world) {
			w.gh.SetPermission("carol", "write", false)
			w.gh.React(w.finding.ID, mallory, "-1")
			w.gh.React(w.finding.ID, carol, "-1")
		}, "carol", 1, []string{"mallory", "carol"}},
		{"no push access to read permissions", func(w *world) {
			w.gh.SetPermission("carol", "write", true)
			w.gh.React(w.finding.ID, carol, "-1")
		}, "", 1, []string{"carol"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			tc.setup(w)
			w.gh.ResetCalls()
			ds, err := conversation.ReadDismissed(context.Background(), w.forge(), w.chat.Trust)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.by == "" && len(ds) != 0:
				t.Errorf("dismissed %+v, want none", ds)
			case tc.by != "" && (len(ds) != 1 || ds[0].By != tc.by || ds[0].FP != findingFP || ds[0].Root.Path != "svc/calc.go"):
				t.Errorf("dismissed %+v, want %s's of %s", ds, tc.by, findingFP)
			}
			want := map[string]int{}
			if tc.reactions > 0 {
				want[fmt.Sprintf("GET /repos/o/r/pulls/comments/%d/reactions", w.finding.ID)] = tc.reactions
			}
			for _, p := range tc.perms {
				want["GET /repos/o/r/collaborators/"+p+"/permission"] = 1
			}
			got := map[string]int{}
			for k, v := range w.gh.Calls() {
				if strings.HasSuffix(k, "/reactions") || strings.HasSuffix(k, "/permission") {
					got[k] = v
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("requests %v, want %v (all: %v)", got, want, w.gh.Calls())
			}
		})
	}
}

// TestReadDismissedGitLab: a 👎 (award emoji "thumbsdown") on ocr's
// finding note counts when a Developer or above gave it; one request per
// finding note (GitLab lists no counts), one membership question per
// reactor.
func TestReadDismissedGitLab(t *testing.T) {
	w := newGLWorld(t)
	root := w.thread()[0].ID
	reporter := w.member(gitlabfake.Human("mallory"), 20, false)
	dev := w.member(gitlabfake.Human("alice"), 30, true)
	w.gl.Award(root, reporter, "thumbsdown")
	w.gl.Award(root, gitlabfake.Human("bob"), "thumbsup")
	w.gl.Award(root, dev, "thumbsdown")
	w.gl.ResetCalls()
	ds, err := conversation.ReadDismissed(context.Background(), w.glForge(), w.chat.Trust)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].By != "alice" || ds[0].FP != findingFP {
		t.Errorf("dismissed %+v, want alice's of %s", ds, findingFP)
	}
	awards := fmt.Sprintf("GET /api/v4/projects/42/merge_requests/5/notes/%d/award_emoji", root)
	if c := w.gl.Calls(); c[awards] != 1 || c["GET /api/v4/projects/42/members/all/"+itoa(reporter.ID)] != 1 ||
		c["GET /api/v4/projects/42/members/all/"+itoa(dev.ID)] != 1 {
		t.Errorf("requests: %v", c)
	}
}
