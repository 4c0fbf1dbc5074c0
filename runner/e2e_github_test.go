package runner

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// TestE2EGitHubPullRequest is a pull request's life in GitHub Actions: the
// first review is posted, a re-run reuses it (no model request) and posts
// nothing new, and a pushed commit
// is reviewed incrementally.
func TestE2EGitHubPullRequest(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
	llm := llmtest.New(t, storeScript(1))
	cache := llmtest.Script{Name: "cache", Match: []string{"cache/cache.go"}, Answers: []llmtest.Answer{cacheComments()}}
	llm.Add(cache)
	step := githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	useLLM(t, llm)
	gh.Expect(gh.Route("GET", "comments"), gh.Route("GET", "issue-comments"), gh.Route("POST", "reviews"),
		gh.Route("POST", "issue-comments"))

	t.Run("first review", func(t *testing.T) {
		code, out, errs := run(t, "review", "--repo", p.dir, "--no-filter", "--fail-on", "high")
		if code != reporters.ExitFindings {
			t.Fatalf("exit %d, want %d (a critical finding with --fail-on high)\nstderr:\n%s", code, reporters.ExitFindings, errs)
		}
		checkFirstReview(t, gh, p)
		checkAnnotations(t, out)
		for _, secret := range []string{llmtest.Token, "tok"} {
			if !strings.Contains(errs, "::add-mask::"+secret+"\n") {
				t.Errorf("stderr does not mask %q before anything else is printed:\n%s", secret, errs)
			}
		}
		checkGitHubFiles(t, step, p.dir)
		summary := gh.IssueComments()
		if len(summary) != 1 || !strings.Contains(summary[0].Body, "**Status:** complete") {
			t.Errorf("sticky summary: %+v", summary)
		}
	})
	if t.Failed() {
		return
	}
	t.Run("re-run posts nothing", func(t *testing.T) {
		gh.ResetCalls()
		before := llm.Count()
		code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
		if code != reporters.ExitOK {
			t.Fatalf("exit %d, want 0 without --fail-on\nstderr:\n%s", code, errs)
		}
		if n := llm.Count() - before; n != 0 {
			t.Errorf("a re-run of the reviewed head made %d model request(s), want 0", n)
		}
		if calls := gh.Calls(); fakes.Writes(calls) != 0 {
			t.Errorf("a re-run with no change wrote to GitHub: %v", calls)
		}
		if n := len(gh.Reviews()); n != 1 {
			t.Errorf("%d reviews after the re-run, want 1", n)
		}
		if !strings.Contains(errs, "re-run of "+p.head[:12]+", reviewed before: its review is reused (3 finding(s))") {
			t.Errorf("stderr does not say that the review of the head is reused:\n%s", errs)
		}
	})
	t.Run("pushed commit is reviewed incrementally", func(t *testing.T) {
		before := len(llm.Requests())
		p.pushCache()
		gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
		writeEvent(t, e2ePath("github-pr", "event.json"), step.event, p.shas())
		gh.ResetCalls()
		code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
		if code != reporters.ExitOK {
			t.Fatalf("exit %d\nstderr:\n%s", code, errs)
		}
		if !strings.Contains(errs, "incremental review") {
			t.Errorf("stderr does not announce an incremental review:\n%s", errs)
		}
		checkOnlyCacheReviewed(t, llm.Requests()[before:])
		rv := gh.LastReview()
		if len(gh.Reviews()) != 2 || rv.CommitID != p.head || len(rv.Comments) != 1 || rv.Comments[0].Path != "cache/cache.go" ||
			*rv.Comments[0].Line != 4 || rv.Comments[0].Side != "RIGHT" {
			t.Errorf("second review: %d reviews, last %+v", len(gh.Reviews()), rv)
		}
		// Each listing once, and one GET /user: the last state, pause and
		// ignore (conversation.ReadState) and the poster read the pull
		// request through the run's one readonce transport (job.forge).
		// It was three times the issue comments and twice the review ones.
		want := map[string]int{gh.Route("GET", "comments"): 1, gh.Route("GET", "issue-comments"): 1, githubfake.RouteUser: 1,
			gh.Route("POST", "reviews"): 1, gh.IssueCommentRoute("PATCH", gh.IssueComments()[0].ID): 1}
		if d := cmp.Diff(want, gh.Calls()); d != "" {
			t.Errorf("API calls (-want +got):\n%s", d)
		}
		if s := gh.IssueComments()[0].Body; !strings.Contains(s, "2 of 2 files reviewed") || !strings.Contains(s, "head `"+p.head[:7]) {
			t.Errorf("sticky summary after the push:\n%s", s)
		}
	})
	t.Run("reports after the push cover the whole pull request", func(t *testing.T) {
		if s := gh.IssueComments()[0].Body; !strings.Contains(s, "| Critical | 1 |") || !strings.Contains(s, "| High | 1 |") {
			t.Errorf("the sticky summary must count every finding that still applies:\n%s", s)
		}
		if got := outputs(t, step.output); got["comments"] != "4" || got["max-severity"] != "critical" {
			t.Errorf("$GITHUB_OUTPUT after the push: %v, want 4 comments, max-severity critical", got)
		}
		if sarif := readFile(t, filepath.Join(p.dir, "ocr.sarif")); !strings.Contains(sarif, "store/store.go") {
			t.Error("the SARIF file after the push lacks the earlier findings on store/store.go")
		}
	})
}

// checkFirstReview asserts one COMMENT review on the head with the three
// findings on the right lines and sides.
func checkFirstReview(t *testing.T, gh *githubfake.Server, p prRepo) {
	t.Helper()
	rs := gh.Reviews()
	if len(rs) != 1 {
		t.Fatalf("%d reviews posted, want 1", len(rs))
	}
	rv := rs[0]
	if rv.CommitID != p.head || rv.Event != "COMMENT" {
		t.Errorf("review commit %s event %s, want the PR head %s (never GITHUB_SHA) and COMMENT", rv.CommitID, rv.Event, p.head)
	}
	got := map[string]string{}
	for _, c := range rv.Comments {
		key := c.Side + ":" + itoa(*c.Line)
		if c.StartLine != nil {
			key = c.StartSide + ":" + itoa(*c.StartLine) + "-" + key
		}
		got[key] = c.Body
		if c.Path != "store/store.go" {
			t.Errorf("comment on %s", c.Path)
		}
	}
	for key, want := range map[string]string{"RIGHT:6": "Dereferencing ptr", "LEFT:5": "nil check was removed", "RIGHT:3": "still promises"} {
		if !strings.Contains(got[key], want) {
			t.Errorf("no comment at %s containing %q; comments at: %v", key, want, keys(got))
		}
	}
}

// checkAnnotations asserts every workflow command on stdout is ocr's own.
func checkAnnotations(t *testing.T, out string) {
	t.Helper()
	cmds := commandLines(out)
	levels := map[string]int{}
	for _, l := range cmds {
		name, _, _ := strings.Cut(strings.TrimPrefix(l, "::"), " ")
		name, _, _ = strings.Cut(name, "::")
		levels[name]++
		switch {
		case (name == "error" || name == "warning" || name == "notice") && strings.HasPrefix(l, "::"+name+" file=store/store.go,"):
		default:
			t.Errorf("unexpected workflow command on stdout: %q", l)
		}
	}
	if levels["error"] != 1 || levels["warning"] != 1 || levels["notice"] != 1 {
		t.Errorf("annotations by level %v, want one each:\n%s", levels, out)
	}
	if strings.Contains(out, "\n::set-output") || strings.Contains(out, "\n::error file=evil.go") {
		t.Errorf("model text started a workflow command:\n%s", out)
	}
	golden(t, "github-pr", "stdout.golden", out)
}

// checkGitHubFiles asserts the step summary, SARIF file and step outputs.
func checkGitHubFiles(t *testing.T, step ghRunner, workspace string) {
	t.Helper()
	summary := readFile(t, step.summary)
	for _, want := range []string{"store/store.go", "Dereferencing ptr", "nil check was removed"} {
		if !strings.Contains(summary, want) {
			t.Errorf("step summary lacks %q:\n%s", want, summary)
		}
	}
	if strings.Contains(summary, "<img") {
		t.Errorf("step summary carries the model's HTML:\n%s", summary)
	}
	sarif := []byte(readFile(t, filepath.Join(workspace, "ocr.sarif")))
	validateSchema(t, "sarif/testdata/sarif-schema-2.1.0.json", sarif)
	checkSARIF(t, sarif)
	exportArtifact(t, "github-pr.sarif", sarif)
	want := map[string]string{"comments": "3", "max-severity": "critical", "status": "complete", "sarif": "ocr.sarif"}
	got := outputs(t, step.output)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("$GITHUB_OUTPUT %s=%q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// checkSARIF checks the fields code scanning needs beyond the schema.
func checkSARIF(t *testing.T, data []byte) {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("SARIF version %q with %d runs", log.Version, len(log.Runs))
	}
	lines := map[int]string{}
	for _, r := range log.Runs[0].Results {
		if len(r.Locations) != 1 || r.Locations[0].Physical.Artifact.URI != "store/store.go" || r.RuleID == "" || len(r.Fingerprints) == 0 {
			t.Errorf("SARIF result %+v", r)
			continue
		}
		lines[r.Locations[0].Physical.Region.StartLine] = r.Level
	}
	if lines[6] != "error" || lines[3] != "note" || len(lines) != 3 {
		t.Errorf("SARIF results by start line %v, want error at 6, note at 3 and the deleted-line finding", lines)
	}
}

// checkOnlyCacheReviewed asserts the model saw only the pushed change.
func checkOnlyCacheReviewed(t *testing.T, reqs []llmtest.Request) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("the model was not asked about the pushed commit")
	}
	for _, r := range reqs {
		raw, _ := json.Marshal(r.Body.Messages)
		if r.Script != "cache" || strings.Contains(string(raw), "store/store.go") || strings.Contains(string(raw), "ptr := m[k]") {
			t.Errorf("request %d (script %q) is not only about cache/cache.go: %.400s", r.Seq, r.Script, raw)
		}
	}
}
