package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// What a new user trips over in the first hour (issue 24), each through
// the whole CLI in-process.

// dirtyRepo is a repository with one commit and an uncommitted change.
func dirtyRepo(t *testing.T) *testRepo {
	r, _ := dirtyFixture.copy(t)
	return r
}

// dirtyFixture is the repository of dirtyRepo, built once per test binary.
var dirtyFixture = newFixture(func(r *testRepo) map[string]string {
	r.write("a.go", "package a\n\nfunc A() int { return 1 }\n")
	r.commit("one")
	r.write("a.go", "package a\n\nfunc A() int { return 2 }\n")
	return nil
})

// TestPostingReportOutsideItsRequestIsRefusedFirst: a posting report that
// has no pull or merge request to go to is refused before any model call
// (exit 2), saying what to use instead; the model gets no request.
func TestPostingReportOutsideItsRequestIsRefusedFirst(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	head := r.git("rev-parse", "HEAD")
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"before":"`+head+`","after":"`+head+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		env    testEnv
		report string
		want   []string
	}{
		{"local github-review", testEnv{}, "github-review",
			[]string{"github-review posts a review on a GitHub pull request, and there is none here", "ocr review --format text"}},
		{"local gitlab-discussion", testEnv{}, "gitlab-discussion",
			[]string{"gitlab-discussion posts on a GitLab merge request", "merge_request_event"}},
		{"GitHub push", testEnv{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": event,
			"GITHUB_REPOSITORY": "o/r", "GITHUB_TOKEN": "tok"}, "github-review",
			[]string{"(push: before..after)", "github-annotations, github-summary and sarif work on any event"}},
		{"GitLab branch pipeline", testEnv{"GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "push", "CI_COMMIT_SHA": head,
			"OCR_GITLAB_TOKEN": "glpat"}, "gitlab-discussion",
			[]string{"there is none here (pipeline without a previous commit", "codequality and text work in any pipeline"}},
		{"github-review in a GitLab merge request", testEnv{"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": "3",
			"CI_MERGE_REQUEST_DIFF_BASE_SHA": head, "CI_COMMIT_SHA": head}, "github-review",
			[]string{"github-review posts a review on a GitHub pull request, and there is none here (merge request !3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.New(t)
			tc.env.useLLM(srv)
			code, out, errs := tc.env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--report", tc.report)
			if code != reporters.ExitUsage || out != "" || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line", code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if n := srv.Count(); n != 0 {
				t.Errorf("the model got %d request(s) for a review that could not be delivered", n)
			}
		})
	}
}

// TestNothingToReviewNeedsNoModel: a clean work tree with no LLM
// configured says there is nothing to review and how to review something,
// exit 0; --preview, env, tools and rules never ask for a model either.
func TestNothingToReviewNeedsNoModel(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	code, out, errs := testEnv{}.run(t, "review", "--repo", r.dir)
	if code != reporters.ExitOK || strings.Contains(errs, "LLM") || !strings.Contains(errs, "nothing to review") ||
		!strings.Contains(errs, "--commit HEAD") || !strings.Contains(out, "no findings") {
		t.Errorf("clean work tree without a model: exit %d, stdout %q, stderr %q; want exit 0 and the nothing-to-review hint", code, out, errs)
	}
	for _, args := range [][]string{
		{"review", "--repo", r.dir, "--preview"}, {"tools", "list"}, {"rules", "list"},
		{"tools", "call", "file_read", `{"file_path":"a.go"}`, "--repo", r.dir, "--commit", "HEAD"},
		{"rules", "check", "a.go", "--repo", r.dir},
	} {
		if code, _, errs := (testEnv{}).run(t, args...); code != reporters.ExitOK {
			t.Errorf("ocr %v without a model: exit %d, stderr %q", args, code, errs)
		}
	}
	// ocr env names the missing endpoint as the one problem (exit 2).
	if code, out, _ := (testEnv{}).run(t, "env", "--repo", r.dir); code != reporters.ExitUsage ||
		strings.Count(out, "problem:") != 1 || !strings.Contains(out, "problem:       no LLM endpoint configured") {
		t.Errorf("ocr env without a model: exit %d, want 2 and the one problem:\n%s", code, out)
	}
	// With something to review, the missing endpoint is the error, before
	// any report is written.
	r.write("a.go", "package a\n\nvar x = 1\n")
	code, out, errs = testEnv{}.run(t, "review", "--repo", r.dir)
	if code != reporters.ExitUsage || out != "" || !strings.Contains(errs, "no LLM endpoint configured: set OCR_LLM_URL") {
		t.Errorf("a change without a model: exit %d, stdout %q, stderr %q; want exit 2 naming OCR_LLM_URL", code, out, errs)
	}
}

// TestFailOnSaysWhy: exit 1 from --fail-on ends with one line saying how
// many findings tripped the gate and at which threshold; a run under it
// prints no such line.
func TestFailOnSaysWhy(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	comments := []map[string]string{
		{"content": "nil dereference", "existing_code": "return *v", "category": "bug", "severity": "critical"},
		{"content": "k is unchecked", "existing_code": "v := m[k]", "category": "bug", "severity": "high"},
		{"content": "name v better", "existing_code": "v := m[k]", "category": "style", "severity": "low"},
	}
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Repeat: true, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": comments}), llmtest.Done())}})
	env := testEnv{}
	env.useLLM(srv)
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--fail-on", "high")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if want := "ocr: 2 finding(s) at or above high (--fail-on high): exit 1"; code != reporters.ExitFindings || lines[len(lines)-1] != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and the last line %q", code, errs, want)
	}
	code, _, errs = env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--fail-on", "critical")
	if want := "ocr: 1 finding(s) at or above critical (--fail-on critical): exit 1"; code != reporters.ExitFindings || !strings.HasSuffix(errs, want+"\n") {
		t.Errorf("--fail-on critical: exit %d, stderr:\n%s\nwant the last line %q", code, errs, want)
	}
	code, _, errs = env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter")
	if code != reporters.ExitOK || strings.Contains(errs, "--fail-on") {
		t.Errorf("without --fail-on: exit %d, stderr:\n%s", code, errs)
	}
}

// prEnv is the environment of a GitHub Actions step on pull_request for
// p (the head repository headRepo), through a map: reports and runner
// files in a temp dir, GITHUB_TOKEN set to token unless it is "".
func prEnv(t *testing.T, p prRepo, apiURL, headRepo, token string) (testEnv, string) {
	dir := t.TempDir()
	event := filepath.Join(dir, "event.json")
	body := `{"number":7,"pull_request":{"number":7,"base":{"sha":"` + p.base + `","repo":{"full_name":"o/r"}},` +
		`"head":{"sha":"` + p.head + `","repo":{"full_name":"` + headRepo + `"}}},"repository":{"full_name":"o/r","default_branch":"main"}}`
	if err := os.WriteFile(event, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	env := testEnv{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": apiURL, "GITHUB_SERVER_URL": "https://github.example",
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_OUTPUT": filepath.Join(dir, "output"),
		"OCR_SARIF_FILE": filepath.Join(dir, "ocr.sarif"), "GITHUB_SHA": "5555555555555555555555555555555555555555"}
	if token != "" {
		env["GITHUB_TOKEN"] = token
	}
	return env, dir
}

// TestPostingNoticeSaysWhatIsTrue: a review that cannot be posted says
// why — no token, a token GitHub refuses (403 on a same-repository pull
// request), or a fork's read-only token — and never blames a fork for the
// first two. The findings go to the annotations and the step summary.
func TestPostingNoticeSaysWhatIsTrue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, headRepo, token string
		readOnly              bool
		want                  []string
		calls                 bool
	}{
		{"no token", "o/r", "", false, []string{"no GitHub token: set GITHUB_TOKEN", "`github-token` input", "OCR_GITHUB_TOKEN",
			"`pull-requests: write` and `contents: read`"}, false},
		{"token without write permission", "o/r", "tok", true, []string{"the token cannot write to it",
			`GitHub answered 403 "Resource not accessible by integration"`, "`pull-requests: write` and `contents: read`"}, true},
		{"fork", "someone/r", "tok", false, []string{"the pull request comes from a fork", "read-only token", "docs/github-forks.md"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPRRepo(t)
			gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, HeadRepo: tc.headRepo})
			gh.SetReadOnly(tc.readOnly)
			srv := llmtest.New(t, storeScript(1))
			env, dir := prEnv(t, p, gh.URL, tc.headRepo, tc.token)
			env.useLLM(srv)
			code, out, errs := env.run(t, "review", "--repo", p.dir, "--no-filter")
			if code != reporters.ExitOK {
				t.Fatalf("exit %d, want 0: a review that cannot be posted is still a review\nstderr:\n%s", code, errs)
			}
			var notice string
			for _, l := range strings.Split(errs, "\n") {
				if strings.Contains(l, "not posting a review on pull request #7") {
					notice = l
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(notice, w) {
					t.Errorf("the notice lacks %q:\n%s", w, notice)
				}
			}
			if fork := strings.Contains(notice, "fork"); fork != (tc.headRepo != "o/r") {
				t.Errorf("the notice blames a fork: %v, want %v:\n%s", fork, !fork, notice)
			}
			if made := len(gh.Calls()) > 0; made != tc.calls {
				t.Errorf("GitHub calls %v, want calls %v", gh.Calls(), tc.calls)
			}
			if len(commandLines(out)) != 3 || !strings.Contains(readFile(t, filepath.Join(dir, "summary.md")), "nil check was removed") {
				t.Errorf("the findings are not in the annotations and the step summary:\n%s", out)
			}
		})
	}
}

// TestPostingNoticeNamesTheReportsWritten: the notice names where the
// findings really are — with OCR_REPORTS=github-review,json and no step
// summary, the annotations and the JSON report, not a SARIF file that was
// never written.
func TestPostingNoticeNamesTheReportsWritten(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head, HeadRepo: "o/r"})
	srv := llmtest.New(t, storeScript(1))
	env, dir := prEnv(t, p, gh.URL, "o/r", "")
	delete(env, "GITHUB_STEP_SUMMARY")
	env["OCR_REPORTS"] = "github-review,json=" + filepath.Join(dir, "r.json")
	env.useLLM(srv)
	code, _, errs := env.run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, errs)
	}
	if !strings.Contains(errs, "The findings are in the annotations and the JSON report instead") || strings.Contains(errs, "SARIF") {
		t.Errorf("the notice does not name the reports written:\n%s", errs)
	}
}

// TestMisquoteShowsTheFilesLines: a quote the fuzzy step placed shows the
// file's lines at the anchor, in the text report and in the JSON's
// existing_code, with the model's quote kept as quoted_code.
func TestMisquoteShowsTheFilesLines(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("run.go", "package run\n\nfunc Run(cmd, x string) {\n}\n")
	r.commit("one")
	r.write("run.go", "package run\n\nfunc Run(cmd, x string) {\n\tout, err := exec(cmd, x)\n\t_, _ = out, err\n}\n")
	r.commit("two")
	const misquote = "out, err := exec( cmd,  x )"
	srv := llmtest.New(t, llmtest.Script{Match: []string{"run.go"}, Repeat: true, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
			"content": "err is ignored", "existing_code": misquote, "category": "bug", "severity": "high"}}}), llmtest.Done())}})
	env := testEnv{}
	env.useLLM(srv)
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--format", "json")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Comments []struct {
			Method       string `json:"method"`
			StartLine    int    `json:"start_line"`
			ExistingCode string `json:"existing_code"`
			QuotedCode   string `json:"quoted_code"`
		} `json:"comments"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Comments) != 1 {
		t.Fatalf("JSON: %v, %d comments\n%s", err, len(got.Comments), out)
	}
	c := got.Comments[0]
	if c.Method != "fuzzy" || c.StartLine != 4 || c.ExistingCode != "\tout, err := exec(cmd, x)" || c.QuotedCode != misquote {
		t.Errorf("comment %+v; want the fuzzy match at line 4 showing the file's line, the quote as quoted_code", c)
	}
	_, out, _ = env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter", "--format", "text")
	if !strings.Contains(out, "|     out, err := exec(cmd, x)\n") || strings.Contains(out, "exec( cmd") {
		t.Errorf("the text report does not show the file's line:\n%s", out)
	}
}

// TestProgressAndQuiet: review and scan print each group's start and end
// with the elapsed time and the running count of requests and tokens;
// --quiet leaves those lines out and keeps the summary.
func TestProgressAndQuiet(t *testing.T) {
	t.Parallel()
	r := bugRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{"store/store.go"}, Repeat: true, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Done())}})
	env := testEnv{}
	env.useLLM(srv)
	for _, cmd := range [][]string{{"review", "--commit", "HEAD"}, {"scan"}} {
		args := append(slices.Clone(cmd), "--repo", r.dir, "--no-filter", "--format", "json")
		_, _, errs := env.run(t, args...)
		for _, want := range []string{"] group 1/1 start: store/store.go\n", "] group 1/1 done in ", ": 0 comments · 1 request · "} {
			if !strings.Contains(errs, want) {
				t.Errorf("ocr %s: stderr lacks %q:\n%s", cmd[0], want, errs)
			}
		}
		_, _, errs = env.run(t, append(args, "--quiet")...)
		if strings.Contains(errs, "group 1/1") || strings.Contains(errs, "reviewing 1 file") || !strings.Contains(errs, "complete: 0 comment(s), 1 request(s)") {
			t.Errorf("ocr %s --quiet: stderr:\n%s\nwant no progress lines and the summary", cmd[0], errs)
		}
	}
}

// TestHintsInARepositoryWithoutCommits: in a repository with no commit
// yet, scan suggests --worktree (not --commit, which scan does not have)
// and review --commit HEAD suggests dropping --commit; both hints work
// when run, and scan --worktree says nothing about a history it does not
// need.
func TestHintsInARepositoryWithoutCommits(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n\nfunc A() int { return 1 }\n")
	srv := scanModel(t, nil)
	env := testEnv{}
	env.useLLM(srv)
	for _, tc := range []struct {
		args        []string
		hint, retry string
	}{
		{[]string{"scan", "--repo", r.dir}, "--worktree", "--worktree"},
		{[]string{"review", "--repo", r.dir, "--commit", "HEAD"}, "drop --commit", ""},
	} {
		code, _, errs := env.run(t, tc.args...)
		if code != reporters.ExitUsage || !strings.Contains(errs, tc.hint) || strings.Contains(errs, "no --commit") {
			t.Errorf("%v: exit %d, %q; want exit 2 and the hint %q", tc.args, code, errs, tc.hint)
		}
		args := slices.DeleteFunc(slices.Clone(tc.args), func(a string) bool { return a == "--commit" || a == "HEAD" })
		if tc.retry != "" {
			args = append(args, tc.retry)
		}
		code, _, errs = env.run(t, args...)
		if code != reporters.ExitOK || strings.Contains(errs, "git log") || strings.Contains(errs, "failed") {
			t.Errorf("the hint %v: exit %d, %q; want a quiet success", args, code, errs)
		}
	}
}

// TestEndpointDownSaysFailedFirstAndOnce: with the endpoint down, the text
// report's first line says the review failed (not "no findings"), and the
// provider's error appears once across stdout and stderr.
func TestEndpointDownSaysFailedFirstAndOnce(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	env := testEnv{"OCR_LLM_URL": llmtest.RefusedURL(t), "OCR_LLM_TOKEN": llmtest.Token, "OCR_LLM_MODEL": llmtest.Model}
	code, out, errs := env.run(t, "review", "--repo", r.dir)
	first, _, _ := strings.Cut(out, "\n")
	if code != reporters.ExitIncomplete || first != "review failed: no file could be reviewed (why: below)" {
		t.Errorf("exit %d, first line %q; want exit 3 and the failure first:\n%s", code, first, out)
	}
	if n := strings.Count(out+errs, "connection refused"); n != 1 {
		t.Errorf("the provider error is printed %d times, want once:\n%s\n%s", n, out, errs)
	}
}

// TestOwnReportsAreNeverReviewed: the reports a review wrote into the
// work tree (under their default names or any other) are left out of the
// next work-tree review as generated, recognised by their content; the
// code beside them is still reviewed.
func TestOwnReportsAreNeverReviewed(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer {
		return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"path": "a.go", "comments": []map[string]string{
			{"content": "two, not one", "existing_code": "return 2", "category": "bug", "severity": "high"}}}), llmtest.Done())
	})
	env := testEnv{}
	env.useLLM(srv)
	reports := map[string]string{"sarif": "ocr.sarif", "codequality": "gl-code-quality-report.json",
		"json": "shard-1.json", "html": "out/review.html"}
	args := []string{"review", "--repo", r.dir}
	for kind, name := range reports {
		args = append(args, "--report", kind+"="+filepath.Join(r.dir, name))
	}
	args = append(args, "--report", "sarif="+filepath.Join(r.dir, "findings.json")) // SARIF under another name
	if code, _, errs := env.run(t, args...); code != reporters.ExitOK {
		t.Fatalf("first review: exit %d, %s", code, errs)
	}
	want := map[string]review.Reason{"findings.json": review.ReasonGenerated}
	for _, name := range reports {
		want[name] = review.ReasonGenerated
	}
	code, out, errs := env.run(t, "review", "--repo", r.dir, "--preview", "--format", "json")
	if code != reporters.ExitOK {
		t.Fatalf("preview: exit %d, %s", code, errs)
	}
	p := decodePreview(t, out)
	checkReasons(t, p, want)
	if p.Totals.Reviewed != 1 {
		t.Errorf("%d file(s) would be reviewed, want a.go alone", p.Totals.Reviewed)
	}
}

// TestFlagsThatDoNotApplyAreErrors: --preview with --report or a report
// --format, and OCR_SHARD on ocr review, are refused naming why, with no
// model call; --preview refuses a budget the real run would refuse; what
// the errors suggest works.
func TestFlagsThatDoNotApplyAreErrors(t *testing.T) {
	t.Parallel()
	r := dirtyRepo(t)
	srv := llmtest.New(t)
	env := testEnv{}
	env.useLLM(srv)
	for _, tc := range []struct {
		env  testEnv
		args []string
		want string
	}{
		{nil, []string{"--preview", "--report", "sarif=x.sarif"}, "--preview writes no report"},
		{nil, []string{"--preview", "--format", "sarif"}, "--preview prints the file selection as text or json, not sarif"},
		{nil, []string{"--preview", "--max-tokens-budget", "100"}, "--max-tokens-budget 100 is too small for one request"},
		{testEnv{"OCR_SHARD": "1/2"}, nil, "OCR_SHARD (1/2) applies to ocr scan only"},
	} {
		e := testEnv{}
		for k, v := range env {
			e[k] = v
		}
		for k, v := range tc.env {
			e[k] = v
		}
		code, out, errs := e.run(t, append([]string{"review", "--repo", r.dir}, tc.args...)...)
		if code != reporters.ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.env, tc.args, code, out, errs, tc.want)
		}
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("the model got %d request(s)", n)
	}
	// The preview in the formats it has.
	for _, f := range []string{"text", "json"} {
		if code, _, errs := env.run(t, "review", "--repo", r.dir, "--preview", "--format", f); code != reporters.ExitOK {
			t.Errorf("--preview --format %s: exit %d, %s", f, code, errs)
		}
	}
}

// TestHelpNamesTheEndpointVariables: ocr review --help names the
// endpoint's variables and both names of the model's; -x is not taken for
// a typo of --to, while --tp still is.
func TestHelpNamesTheEndpointVariables(t *testing.T) {
	t.Parallel()
	_, out, _ := testEnv{}.run(t, "review", "--help")
	for _, w := range []string{"OCR_LLM_URL", "OCR_LLM_TOKEN", "OCR_LLM_MODEL", "[OCR_MODEL]"} {
		if !strings.Contains(out, w) {
			t.Errorf("ocr review --help lacks %s", w)
		}
	}
	if _, _, errs := (testEnv{}).run(t, "review", "-x"); strings.Contains(errs, "did you mean") {
		t.Errorf("-x: %q", errs)
	}
	if _, _, errs := (testEnv{}).run(t, "review", "--tp"); !strings.Contains(errs, "did you mean --to?") {
		t.Errorf("--tp: %q", errs)
	}
}

// TestScanHelpShowsTheShardVariable: --shard's variable is shown like
// every other flag's, [OCR_SHARD], not in its text.
func TestScanHelpShowsTheShardVariable(t *testing.T) {
	t.Parallel()
	_, out, _ := testEnv{}.run(t, "scan", "--help")
	if !strings.Contains(out, "[OCR_SHARD]") || strings.Contains(out, "(OCR_SHARD;") {
		t.Errorf("ocr scan --help:\n%s", out)
	}
}
