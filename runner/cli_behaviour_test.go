package runner

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// TestEveryCommandAnswersHelp: each command prints its own usage on
// stdout and exits 0, nothing on stderr.
func TestEveryCommandAnswersHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "ocr review [flags]"},
		{[]string{"help"}, "ocr tools call NAME"},
		{[]string{"review", "--help"}, "--max-tokens-budget N"},
		{[]string{"review", "-h"}, "Exit codes: 0 reviewed"},
		{[]string{"help", "review"}, "Usage: ocr review [flags]"},
		{[]string{"env", "--help"}, "Usage: ocr env"},
		{[]string{"tools", "--help"}, "ocr tools list"},
		{[]string{"tools", "list", "--help"}, "Usage: ocr tools list"},
		{[]string{"tools", "call", "-h"}, "Usage: ocr tools call NAME"},
		{[]string{"help", "tools", "call"}, "--commit REF"},
		{[]string{"rules", "--help"}, "ocr rules check PATH..."},
		{[]string{"rules", "list", "--help"}, "Usage: ocr rules list"},
		{[]string{"rules", "check", "--help"}, "--config-ref REF"},
		{[]string{"version", "--help"}, "Usage: ocr version"},
		{[]string{"scan", "--help"}, "--max-files N             files reviewed at most (default 100 for a scan)"},
		{[]string{"help", "scan"}, "--worktree"},
		{[]string{"help", "--help"}, "ocr tools call NAME"},
	} {
		code, out, errs := testEnv{}.run(t, tc.args...)
		if code != reporters.ExitOK || !strings.Contains(out, tc.want) || errs != "" {
			t.Errorf("ocr %v: exit %d, stdout %.200q, stderr %q; want exit 0 and %q on stdout", tc.args, code, out, errs, tc.want)
		}
	}
	// A command's usage lists only its own flags.
	if _, out, _ := (testEnv{}).run(t, "tools", "list", "--help"); strings.Contains(out, "--repo") {
		t.Errorf("ocr tools list --help lists flags it does not take:\n%s", out)
	}
	// Scan's usage leaves out review's range flags, which it refuses.
	if _, out, _ := (testEnv{}).run(t, "scan", "--help"); strings.Contains(out, "--commit") || strings.Contains(out, "--from") {
		t.Errorf("ocr scan --help lists review's range flags:\n%s", out)
	}
	// --format's help lists the report kinds.
	if _, out, _ := (testEnv{}).run(t, "review", "--help"); !strings.Contains(out, "codequality") || !strings.Contains(out, "OCR_FORMAT") {
		t.Errorf("review --help does not list the report kinds or the variables:\n%s", out)
	}
}

// TestFlagErrorsAreOneLine: an unknown flag or a bad value is one line on
// stderr with a hint (a suggestion when a flag is close), exit 2, and no
// usage dump.
func TestFlagErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"review", "--formt", "json"}, "ocr: unknown flag --formt; did you mean --format? Run 'ocr review --help'."},
		{[]string{"review", "-concurency", "2"}, "did you mean --concurrency?"},
		{[]string{"review", "--format"}, "--format needs a value: sarif, github-annotations, github-summary, codequality, json, text"},
		{[]string{"review", "--format", "sarf"}, `--format (OCR_FORMAT) "sarf": want one of sarif,`},
		{[]string{"review", "--concurrency", "0"}, `invalid value "0" for --concurrency: must be at least 1`},
		{[]string{"review", "--concurrency", "-3"}, "--concurrency: must be at least 1"},
		{[]string{"review", "--max-comments", "-1"}, "--max-comments: must be at least 1"},
		{[]string{"review", "--max-tokens-budget", "-1"}, "--max-tokens-budget: must be 0 or more (0 means the default cap)"},
		{[]string{"review", "--timeout", "0s"}, "--timeout: must be longer than 0"},
		{[]string{"tools", "list", "--repo", "."}, "unknown flag --repo. Run 'ocr tools list --help'."},
		{[]string{"rules", "list", "--x"}, "ocr rules list takes no arguments"},
		{[]string{"env", "--max-inline=0"}, "--max-inline: must be at least 1"},
		{[]string{"help", "nope"}, "the commands are review, scan, merge, env,"},
		{[]string{"sacn"}, "did you mean scan?"},
	} {
		code, out, errs := testEnv{}.run(t, tc.args...)
		if code != reporters.ExitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("ocr %v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", tc.args, code, out, errs, tc.want)
		}
	}
	env := testEnv{"OCR_CONCURRENCY": "0"}
	if code, _, errs := env.run(t, "review", "--preview"); code != reporters.ExitUsage || !strings.Contains(errs, "OCR_CONCURRENCY=0") {
		t.Errorf("OCR_CONCURRENCY=0: exit %d, %q", code, errs)
	}
}

// TestFormatWritesToStdout: --format KIND without --output writes the
// report to stdout, for every file kind, and no file; a report file gets
// one "wrote PATH" line. A clean work tree needs no model call.
func TestFormatWritesToStdout(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	env := testEnv{"OCR_LLM_URL": "http://127.0.0.1:1/v1", "OCR_LLM_MODEL": "m"}
	for kind, want := range map[string]string{"sarif": `"version": "2.1.0"`, "codequality": "[", "json": `"status": "complete"`, "text": "no findings"} {
		code, out, errs := env.run(t, "review", "--repo", r.dir, "--format", kind)
		if code != reporters.ExitOK || !strings.Contains(out, want) || strings.Contains(errs, "wrote") {
			t.Errorf("--format %s: exit %d, stdout %.200q, stderr %q; want the report on stdout", kind, code, out, errs)
		}
	}
	for _, name := range []string{"ocr.sarif", "gl-code-quality-report.json"} {
		if _, err := os.Stat(filepath.Join(r.dir, name)); err == nil {
			t.Errorf("--format wrote %s", name)
		}
	}
	out := filepath.Join(t.TempDir(), "r.sarif")
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--format", "sarif", "--output", out, "--report", "json="+out+".json")
	if code != reporters.ExitOK || strings.Count(errs, "ocr: wrote "+out+"\n") != 1 || strings.Count(errs, "ocr: wrote "+out+".json\n") != 1 {
		t.Errorf("report files: exit %d, stderr %q; want one wrote line per file", code, errs)
	}
}

// TestCleanWorkTreeSaysHowToReview: an empty work-tree diff names the two
// ways to review something.
func TestCleanWorkTreeSaysHowToReview(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	code, _, errs := testEnv{}.run(t, "review", "--repo", r.dir, "--preview")
	if code != reporters.ExitOK || !strings.Contains(errs, "--commit HEAD") || !strings.Contains(errs, "--from origin/main") {
		t.Errorf("clean work tree: exit %d, stderr %q", code, errs)
	}
	// --from alone reviews up to HEAD.
	r.write("b.go", "package a\n")
	r.commit("two")
	code, out, errs := testEnv{}.run(t, "review", "--repo", r.dir, "--from", "HEAD~1", "--preview")
	if code != reporters.ExitOK || !strings.Contains(out, "b.go") {
		t.Errorf("--from HEAD~1: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestEnvShowsEndpointAndRepository: the endpoint with its path, secrets
// in it masked; each missing variable named; a warning outside a repository.
func TestEnvShowsEndpointAndRepository(t *testing.T) {
	t.Parallel()
	env := testEnv{"OCR_LLM_URL": "https://bob:hunter2@llm.example.com/openai/v1?key=sk-secret&api-version=2024-10-21"}
	code, out, errs := env.run(t, "env", "--repo", t.TempDir())
	if code != reporters.ExitUsage { // problems: no token, no model, no repository
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"https://***@llm.example.com/openai/v1?api-version=2024-10-21&key=***",
		"OCR_LLM_TOKEN (or OPENAI_API_KEY)", "OCR_LLM_MODEL (or --model, or OPENAI_MODEL)", "not a git repository", "ocr needs " + git.MinVersion} {
		if !strings.Contains(out, want) {
			t.Errorf("ocr env lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"hunter2", "sk-secret", "bob"} {
		if strings.Contains(out+errs, secret) {
			t.Errorf("ocr env printed %q:\n%s", secret, out)
		}
	}
	// A host without a dot (a CI service container) needs no token.
	env = testEnv{"OCR_LLM_URL": "http://ollama:11434/v1", "OCR_LLM_MODEL": "m"}
	if code, out, _ := env.run(t, "env"); code != reporters.ExitOK || strings.Contains(out, "problem:") || !strings.Contains(out, "http://ollama:11434/v1") {
		t.Errorf("ocr env for a service container:\n%s", out)
	}
}

// TestDubiousOwnershipIsUsage: git's safe.directory refusal is a
// configuration error (exit 2) with the safe.directory hint.
func TestDubiousOwnershipIsUsage(t *testing.T) {
	t.Parallel()
	err := &git.Error{Args: []string{"rev-parse"}, ExitCode: 128,
		Stderr: "fatal: detected dubious ownership in repository at '/w'\nTo add an exception for this directory, call: ..."}
	if exitCode(err) != reporters.ExitUsage || !strings.Contains(err.Error(), "safe.directory") {
		t.Errorf("dubious ownership: exit %d, %q", exitCode(err), err)
	}
	if exitCode(git.ErrGitUnusable) != reporters.ExitUsage || !strings.Contains(git.ErrGitUnusable.Error(), git.MinVersion) {
		t.Errorf("unusable git: exit %d, %q", exitCode(git.ErrGitUnusable), git.ErrGitUnusable)
	}
}

// TestBudgetTooSmallForOneRequest: a budget below what one request
// carries is refused before anything is sent (the endpoint sees nothing).
func TestBudgetTooSmallForOneRequest(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	r.write("a.go", "package a\n\nfunc F() {}\n")
	srv := llmtest.New(t)
	env := testEnv{}
	env.useLLM(srv)
	code, _, errs := env.run(t, "review", "--repo", r.dir, "--max-tokens-budget", "100")
	if code != reporters.ExitUsage || !strings.Contains(errs, "--max-tokens-budget 100 is too small for one request") || srv.Count() != 0 {
		t.Errorf("budget 100: exit %d, %d request(s), stderr %q; want exit 2 before any request", code, srv.Count(), errs)
	}
	// The hint works: 0 is the default budget, as every document says.
	if !strings.Contains(errs, "or 0 for the default budget (5000000)") {
		t.Errorf("the hint does not name 0 as the default budget: %q", errs)
	}
	if code, out, errs := env.run(t, "env", "--repo", r.dir, "--max-tokens-budget", "0"); code != reporters.ExitOK || !strings.Contains(out, "5,000,000 tokens (the defaults)") {
		t.Errorf("budget 0: exit %d, %q %q; want the default budget", code, out, errs)
	}
	// A budget that pays for requests is accepted (a clean tree sends none).
	r.commit("two")
	if code, _, errs := env.run(t, "review", "--repo", r.dir, "--max-tokens-budget", "100000"); code != reporters.ExitOK {
		t.Errorf("budget 100000: exit %d, %q", code, errs)
	}
}

// TestDubiousOwnershipRepository: a real repository owned by another user
// (possible only when the tests run as root) is refused with the hint.
func TestDubiousOwnershipRepository(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the repository another owner")
	}
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	if err := filepath.Walk(r.dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.CommandContext(t.Context(), "git", "config", "--get-all", "safe.directory").Output(); len(out) > 0 {
		t.Skipf("this machine's git trusts %q: ownership is not checked", out)
	}
	code, _, errs := testEnv{}.run(t, "review", "--repo", r.dir, "--preview")
	if code != reporters.ExitUsage || !strings.Contains(errs, "safe.directory "+r.dir) || strings.Count(errs, "\n") != 1 {
		t.Errorf("dubious ownership: exit %d, stderr %q; want exit 2 and one line with the safe.directory hint", code, errs)
	}
}

// TestColourOnlyOnATerminal: the text report on stdout is coloured only
// when stdout is a terminal and NO_COLOR is unset; a report file never is.
func TestColourOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	file := filepath.Join(t.TempDir(), "report.txt")
	for _, tc := range []struct {
		tty     bool
		noColor string
		want    bool
	}{{true, "", true}, {true, "1", false}, {false, "", false}} {
		var out, errb bytes.Buffer
		env := testEnv{"OCR_LLM_URL": "http://127.0.0.1:1/v1", "OCR_LLM_MODEL": "m"}
		if tc.noColor != "" {
			env["NO_COLOR"] = tc.noColor
		}
		c := &Command{Stdout: &out, Stderr: &errb, IsTerminal: tc.tty, LookupEnv: config.MapLookup(env)}
		code := c.Main(context.Background(), []string{"ocr", "review", "--repo", r.dir, "--report", "text", "--report", "text=" + file})
		if code != reporters.ExitOK || strings.Contains(out.String(), "\x1b[") != tc.want {
			t.Errorf("tty %v, NO_COLOR %q: exit %d, stdout %q; want colour %v", tc.tty, tc.noColor, code, out.String(), tc.want)
		}
		if strings.Contains(readFile(t, file), "\x1b[") {
			t.Errorf("the report file is coloured")
		}
	}
}
