package runner

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// TestE2EGitLabPauseAndIgnore is a merge request where alice paused ocr
// (ocr acknowledged it) and ignored its critical finding: the pipeline exits 0 under
// --fail-on critical (the only critical finding is ignored), the SARIF and
// JSON reports keep it marked suppressed, Code Quality leaves it out, no
// discussion is created and the summary says paused and ignored. After
// "/ocr resume" the other findings are posted, the ignored one is not.
func TestE2EGitLabPauseAndIgnore(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	alice := gitlabfake.Human("alice")
	gl.AddMember(gitlabfake.Member{User: alice, AccessLevel: 30})
	critical := review.Fingerprint("store/store.go", "bug", "return *ptr")
	reason := base64.RawStdEncoding.EncodeToString([]byte("k is always present <img src=x> @bob"))
	gl.AddNote(gitlabfake.User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}, "Ignored.\n\n<!-- ocr:ignored fp="+critical+" by=alice reason="+reason+" -->")
	gl.AddNote(alice, "/ocr pause")
	bot := gitlabfake.User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}
	gl.AddNote(bot, "Paused.\n\n<!-- ocr:ack verb=pause by=alice at=2026-01-01T00:00:00Z -->") // ocr's acknowledgement
	useLLM(t, llmtest.New(t, storeScript(2)))
	gitlabJob(t, p, gl)

	args := []string{"review", "--repo", p.dir, "--no-filter", "--fail-on", "critical", "--report", "sarif=o.sarif", "--report", "json=o.json",
		"--report", "codequality=cq.json", "--report", "gitlab-discussion", "--full"}
	code, _, errs := run(t, args...)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d, want 0: the only critical finding is ignored\n%s", code, errs)
	}
	if n := len(gl.Posted()); n != 0 {
		t.Errorf("paused, yet %d discussion(s) created", n)
	}
	s := glSummary(t, gl)
	for _, want := range []string{"Paused by @", "resume` to resume", "1 finding ignored (by @", "alice", "k is always present"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "<img") || strings.Contains(s, "@bob") {
		t.Errorf("the reason is not escaped in the summary:\n%s", s)
	}
	checkSuppressedReports(t, p.dir, critical)
	t.Logf("paused run stderr:\n%s", errs)

	gl.AddNote(alice, "/ocr resume")
	gl.AddNote(bot, "Resumed.\n\n<!-- ocr:ack verb=resume by=alice at=2026-01-01T00:01:00Z -->")
	if code, _, errs = run(t, args...); code != reporters.ExitOK {
		t.Fatalf("resumed: exit %d\n%s", code, errs)
	}
	if n := len(gl.Posted()); n != 2 {
		t.Errorf("resumed: %d discussion(s), want the 2 findings not ignored", n)
	}
	for _, d := range gl.Posted() {
		if strings.Contains(d.Body, "Dereferencing ptr") {
			t.Errorf("the ignored finding was posted: %.200s", d.Body)
		}
	}
	if s := glSummary(t, gl); strings.Contains(s, "Paused") {
		t.Errorf("the summary still says paused:\n%s", s)
	}
}

// checkSuppressedReports: the SARIF result of fp carries an external
// suppression, the JSON comment says who and why, Code Quality omits it.
func checkSuppressedReports(t *testing.T, dir, fp string) {
	t.Helper()
	var sarif struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string
				Suppressions        []struct{ Kind, Justification string }
			}
		}
	}
	readJSON(t, filepath.Join(dir, "o.sarif"), &sarif)
	marked := 0
	for _, r := range sarif.Runs[0].Results {
		if len(r.Suppressions) > 0 {
			marked++
			if r.Suppressions[0].Kind != "external" || !strings.Contains(r.Suppressions[0].Justification, "by @alice: k is always present") {
				t.Errorf("suppression %+v", r.Suppressions)
			}
		}
	}
	if len(sarif.Runs[0].Results) != 3 || marked != 1 {
		t.Errorf("SARIF: %d results, %d suppressed; want 3 and 1", len(sarif.Runs[0].Results), marked)
	}
	var js struct {
		Comments []struct {
			Fingerprint string
			Suppressed  *review.Suppression
		}
	}
	readJSON(t, filepath.Join(dir, "o.json"), &js)
	for _, c := range js.Comments {
		if (c.Fingerprint == fp) != (c.Suppressed != nil) || (c.Suppressed != nil && c.Suppressed.By != "alice") {
			t.Errorf("JSON comment %s suppressed %+v", c.Fingerprint, c.Suppressed)
		}
	}
	var cq []any
	readJSON(t, filepath.Join(dir, "cq.json"), &cq)
	if len(cq) != 2 {
		t.Errorf("Code Quality: %d issues, want 2 (the ignored one left out)", len(cq))
	}
}

// glSummary is the sticky summary note (the test forged another note by
// ocr's account, so gitlabfake.SummaryBody's first one will not do).
func glSummary(t *testing.T, gl *gitlabfake.Server) string {
	t.Helper()
	for _, d := range gl.Discussions() {
		if b := d.Notes[0].Body; d.IndividualNote && posting.IsSummary(b) {
			return b
		}
	}
	t.Fatal("no summary note")
	return ""
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
