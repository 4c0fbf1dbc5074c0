package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// faultGroups is the number of groups of the fault fixture, faultWave the
// groups reviewed at once: "one wave" is at most faultWave requests.
const (
	faultGroups = 16
	faultWave   = 4
)

// faultRepo is a commit that changes one file in each of faultGroups
// directories: as many groups, reviewed faultWave at a time.
func faultRepo(t *testing.T) *testRepo {
	r, _ := faultFixture.copy(t)
	return r
}

// faultFixture is the repository of faultRepo, built once per test binary.
var faultFixture = newFixture(func(r *testRepo) map[string]string {
	for i := range faultGroups {
		r.write(fmt.Sprintf("d%02d/f.go", i), fmt.Sprintf("package d%02d\n\nfunc F() int { return 1 }\n", i))
	}
	r.commit("root")
	for i := range faultGroups {
		r.write(fmt.Sprintf("d%02d/f.go", i), fmt.Sprintf("package d%02d\n\nfunc F(x []int) int { return x[%d] }\n", i, i))
	}
	r.commit("index without a bounds check")
	return nil
})

// faultRun runs `ocr review` on the fault fixture with JSON and SARIF
// reports and a fast heartbeat, and returns what a CI job would see.
type faultResult struct {
	code         int
	wall         time.Duration
	stdout       string
	stderr       string
	json, sarif  string
	status       review.Status
	reportErrors []string
}

func faultRun(t *testing.T, r *testRepo, args ...string) faultResult {
	t.Helper()
	dir := t.TempDir()
	jsonPath, sarifPath := filepath.Join(dir, "ocr.json"), filepath.Join(dir, "ocr.sarif")
	var out, errb bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &errb, sleep: noSleep, heartbeat: 50 * time.Millisecond, LookupEnv: envOf(t).lookup}
	argv := append([]string{"ocr", "review", "--repo", r.dir, "--commit", "HEAD", "--no-filter",
		"--concurrency", fmt.Sprint(faultWave), "--report", "json=" + jsonPath, "--report", "sarif=" + sarifPath}, args...)
	start := time.Now()
	code := c.Main(context.Background(), argv)
	res := faultResult{code: code, wall: time.Since(start), stdout: out.String(), stderr: errb.String()}
	res.json, res.sarif = readFile(t, jsonPath), readFile(t, sarifPath)
	var rep struct {
		Status review.Status `json:"status"`
		Errors []string      `json:"errors"`
	}
	if err := json.Unmarshal([]byte(res.json), &rep); err != nil {
		t.Fatalf("the JSON report is not JSON: %v\n%s", err, res.json)
	}
	res.status, res.reportErrors = rep.Status, rep.Errors
	t.Logf("exit %d after %s\nstderr:\n%s", code, res.wall.Round(time.Millisecond), res.stderr)
	return res
}

// faultEnv points ocr at url with the test token; nothing of the machine
// running the tests is seen (setVar).
func faultEnv(t *testing.T, url string, kv ...string) {
	setVar(t, "OCR_LLM_URL", url)
	setVar(t, "OCR_LLM_TOKEN", llmtest.Token)
	setVar(t, "OCR_LLM_MODEL", llmtest.Model)
	for i := 0; i+1 < len(kv); i += 2 {
		setVar(t, kv[i], kv[i+1])
	}
}

// TestE2EProviderFaults: each fault of a misbehaving endpoint ends the run
// quickly, after at most one wave of requests, with one line that names
// the setting to fix, exit 3, and every report written.
func TestE2EProviderFaults(t *testing.T) {
	t.Parallel()
	const page = "<!DOCTYPE html>\n<html><head><title>Sign in · Example SSO</title></head><body><form>…</form></body></html>"
	tests := []struct {
		name   string
		answer *llmtest.Answer // nil: nothing listens
		env    []string
		hint   string // the one line naming what to fix
		// before is what the same fault cost before the fix, for the record:
		// every group retried (5 attempts each) or waited out its timeout.
		before string
	}{
		{"hang", &llmtest.Answer{Hang: true}, []string{"OCR_LLM_TIMEOUT", "300ms"},
			"the endpoint did not answer within 300ms", "10 minutes for one group"},
		{"refused", nil, nil, "OCR_LLM_URL", "5 attempts per group, one log line each"},
		{"401", &llmtest.Answer{Status: 401, Message: "Incorrect API key provided: " + llmtest.Token + "."}, nil,
			"check OCR_LLM_TOKEN", "one request per group"},
		{"HTML 200", &llmtest.Answer{Body: page}, nil,
			`HTTP 200: text/html body "HTML page titled \"Sign in · Example SSO\""`, "5 attempts per group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := faultRepo(t)
			url, count := llmtest.RefusedURL(t), func() int { return 0 }
			if tt.answer != nil {
				srv := llmtest.New(t)
				a := *tt.answer
				srv.Handle(func(llmtest.Request) llmtest.Answer { return a })
				url, count = srv.URL, srv.Count
			}
			faultEnv(t, url, tt.env...)
			res := faultRun(t, r)
			if res.code != reporters.ExitIncomplete {
				t.Errorf("exit %d, want 3", res.code)
			}
			if res.wall > 10*time.Second {
				t.Errorf("took %s to fail (before the fix: %s)", res.wall, tt.before)
			}
			if n := count(); n > faultWave || (tt.answer != nil && n == 0) {
				t.Errorf("%d requests, want one wave at most (%d)", n, faultWave)
			}
			if n := strings.Count(res.stderr, "attempt "); n > 0 {
				t.Errorf("%d retry lines for a fault that no retry can fix", n)
			}
			var hints []string
			for _, l := range strings.Split(res.stderr, "\n") {
				if strings.Contains(l, tt.hint) {
					hints = append(hints, l)
				}
			}
			if len(hints) != 1 || !strings.Contains(hints[0], fmt.Sprintf("%d file(s) not reviewed", faultGroups)) {
				t.Errorf("lines with %q: %q; want exactly one, covering all %d files", tt.hint, hints, faultGroups)
			}
			if res.status != review.StatusFailed || len(res.reportErrors) != 1 || !strings.Contains(res.reportErrors[0], tt.hint) {
				t.Errorf("JSON report: status %s, errors %q; want failed with the cause", res.status, res.reportErrors)
			}
			if !strings.Contains(res.sarif, `"executionSuccessful": false`) && !strings.Contains(res.sarif, `"executionSuccessful":false`) {
				t.Errorf("the SARIF report does not say the run failed:\n%.600s", res.sarif)
			}
			// One "wrote PATH" line per report file comes on top.
			if n := strings.Count(res.stderr, "\n") - strings.Count(res.stderr, "in flight") - strings.Count(res.stderr, "ocr: wrote "); n > faultWave+4 {
				t.Errorf("%d lines of output (heartbeats and report files aside) for one fault", n)
			}
			for _, out := range []string{res.stderr, res.json, res.sarif} {
				if strings.Contains(out, llmtest.Token) {
					t.Errorf("the token is printed:\n%s", out)
				}
			}
			if tt.name == "hang" && !strings.Contains(res.stderr, "requests in flight") {
				t.Errorf("no heartbeat while the requests hung:\n%s", res.stderr)
			}
		})
	}
}

// TestE2EDeadline: when --timeout is reached, ocr stops the requests in
// flight, writes every report with what was reviewed, marked incomplete,
// and exits 3; the line says the deadline was reached. The deadline leaves
// room for loading the change on a loaded machine (setup once took over 1s),
// so the first wave is always sent before it.
func TestE2EDeadline(t *testing.T) {
	t.Parallel()
	r := faultRepo(t)
	srv := llmtest.New(t, llmtest.Script{Match: []string{`<file path="d00/f.go">`}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}})
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Hang: true} })
	faultEnv(t, srv.URL, "OCR_TIMEOUT", "5s", "OCR_LLM_TIMEOUT", "1h")
	res := faultRun(t, r)
	if res.code != reporters.ExitIncomplete {
		t.Errorf("exit %d, want 3", res.code)
	}
	if res.wall > 15*time.Second {
		t.Errorf("took %s with --timeout 5s", res.wall)
	}
	if n := srv.Count(); n < 2 || n > faultWave+1 {
		t.Errorf("%d requests, want the first wave and the group after d00", n)
	}
	const hint = "the run's deadline (--timeout 5s) was reached"
	if n := strings.Count(res.stderr, hint+": ocr stopped and writes the reports with what was reviewed, marked partial"); n != 1 {
		t.Errorf("%d lines say the deadline was reached, want 1", n)
	}
	if res.status != review.StatusPartial || len(res.reportErrors) != 1 || !strings.Contains(res.reportErrors[0], "15 file(s) not reviewed, timeout: "+hint) {
		t.Errorf("JSON report: status %s, errors %q; want partial, the 15 files cut off by the deadline", res.status, res.reportErrors)
	}
	if !strings.Contains(res.json, `"reason": "timeout"`) && !strings.Contains(res.json, `"reason":"timeout"`) {
		t.Errorf("the JSON report names no file not reviewed for the deadline:\n%.800s", res.json)
	}
}

// TestE2ESecretsNeverPrinted: a provider whose error quotes the key and a
// gateway header's value, at the place where messages used to be cut, gets
// neither printed, nor any prefix of them: not on stderr or stdout, not in
// the step summary, $GITHUB_OUTPUT, the SARIF file or the posted summary
// (issue 14, class 8).
func TestE2ESecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	const header = "gw-secret-0123456789abcdef"
	for _, offset := range []int{0, 280, 290, 296} {
		t.Run(fmt.Sprint(offset), func(t *testing.T) {
			t.Parallel()
			p := newPRRepo(t)
			gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
			msg := strings.Repeat("x ", offset/2) + "Incorrect API key provided: " + llmtest.Token + " via gateway key " + header + "."
			srv := llmtest.New(t)
			srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Answer{Status: 401, Message: msg} })
			step := githubStep(t, p.testRepo, gh.URL, "llm-down", "event.json", "pull_request", p.shas())
			useLLM(t, srv)
			setVar(t, "OCR_LLM_EXTRA_HEADERS", "X-Gateway-Key="+header)
			code, out, errs := run(t, "review", "--repo", p.dir, "--no-filter")
			if code != reporters.ExitIncomplete || (offset == 0 && !strings.Contains(errs, "Incorrect API key provided: *** via gateway key ***.")) {
				t.Fatalf("exit %d, want 3 with the provider's message redacted\nstderr:\n%s", code, errs)
			}
			var masked []string
			for _, l := range strings.Split(errs, "\n") {
				if !strings.HasPrefix(l, "::add-mask::") { // the runner's own masking command
					masked = append(masked, l)
				}
			}
			places := map[string]string{"stderr": strings.Join(masked, "\n"), "stdout": out,
				"step summary": readFile(t, step.summary), "output": readFile(t, step.output),
				"sarif": readFile(t, filepath.Join(p.dir, "ocr.sarif"))}
			for i, c := range gh.IssueComments() {
				places[fmt.Sprintf("comment %d", i)] = c.Body
			}
			for where, text := range places {
				for _, secret := range []string{llmtest.Token, header} {
					for n := len(secret); n >= 6; n-- {
						if strings.Contains(text, secret[:n]) {
							t.Errorf("%s shows %d of the %d characters of a secret:\n%s", where, n, len(secret), text)
							break
						}
					}
				}
			}
		})
	}
}
