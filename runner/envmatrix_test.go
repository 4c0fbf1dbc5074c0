package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

// matrixValues are a valid value of each variable docs/reference.md lists
// in its settings tables; TestEveryVariableThroughTheCLI fails on a listed
// variable missing here.
var matrixValues = map[string]string{
	"OCR_REPO": ".", "OCR_FROM": "HEAD~1", "OCR_TO": "HEAD", "OCR_COMMIT": "HEAD", "OCR_PREVIEW": "true",
	"OCR_FORMAT": "json", "OCR_OUTPUT": "out.json", "OCR_REPORTS": "text", "OCR_EXCLUDE": "vendor/**",
	"OCR_INCLUDE": "gen/**", "OCR_INCLUDE_TESTS": "true", "OCR_MAX_GIT_PROCS": "4", "OCR_MAX_FILE_TOKENS": "1000",
	"OCR_MAX_DIFF_MB": "5", "OCR_MAX_FILES": "5", "OCR_TOOLS": "tools.json", "OCR_RULE": "rule.json",
	"OCR_CONFIG_REF": "HEAD", "OCR_LANGUAGE": "French", "OCR_BACKGROUND": "a service", "OCR_BACKGROUND_FILE": "bg.md",
	"OCR_MODEL": "m", "OCR_CONCURRENCY": "2", "OCR_TIMEOUT": "5m", "OCR_MAX_TOKENS_BUDGET": "100000",
	"OCR_MAX_COST": "0", "OCR_PRICE_INPUT": "2.5", "OCR_PRICE_OUTPUT": "10", "OCR_PRICE_CACHED_INPUT": "1.25",
	"OCR_MAX_COMMENTS": "10", "OCR_MAX_INLINE": "5", "OCR_POST_MIN_SEVERITY": "high", "OCR_NO_FILTER": "true", "OCR_EFFORT": "high",
	"OCR_FAIL_ON": "high", "OCR_ALLOW_PARTIAL": "true", "OCR_SARIF_FILE": "x.sarif", "OCR_SARIF_CATEGORY": "c",
	"OCR_FULL": "true", "OCR_VERBOSE": "1", "OCR_GITHUB_LOGIN": "my-app[bot]",
	"OCR_LLM_URL": "https://llm.example.com/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m", "OCR_LLM_TIMEOUT": "30",
	"OCR_LLM_EXTRA_HEADERS": "X-A=1", "OCR_LLM_EXTRA_BODY": `{"enable_thinking": false}`,
	"OCR_LLM_AZURE_DEPLOYMENT": "gpt4o", "OCR_LLM_AZURE_API_VERSION": "2024-10-21", "OPENAI_API_KEY": "sk-x",
	"OCR_LLM_TOOLS": "text", "OCR_LLM_CONTEXT": "32768",
	"OPENAI_BASE_URL": "https://gw.example.com/v1", "OPENAI_MODEL": "gpt-4.1-mini",
	"OCR_QUIET": "true", "OCR_SHARD": "1/2", "OCR_LINK_ALLOW": "docs.example.org", "OCR_HANDLE": "reviewbot", "OCR_CHAT_REPLIES": "all", "OCR_CHAT_TRUST": "OWNER,MEMBER,author",
	"OCR_CHAT_UNTRUSTED": "silent", "OCR_CHAT_MAX_REQUESTS": "4", "OCR_CHAT_MAX_TOKENS": "50000",
	"OCR_PASSES": "3", "OCR_MIN_VOTES": "1", "OCR_LLM_TEMPERATURE": "0.2",
}

// pathValued are the variables that name a file ocr reads or writes.
var pathValued = map[string]bool{"OCR_OUTPUT": true, "OCR_TOOLS": true, "OCR_RULE": true, "OCR_BACKGROUND_FILE": true, "OCR_SARIF_FILE": true}

// referenceVariables are the variables of docs/reference.md's settings
// tables (flags, variables without a flag, LLM endpoint).
func referenceVariables(t *testing.T) []string {
	t.Helper()
	doc := string(pkgRead(t, "docs/reference.md"))
	start, end := strings.Index(doc, "## Flags and OCR_* variables"), strings.Index(doc, "## CI variables ocr reads")
	if start < 0 || end < start {
		t.Fatal("docs/reference.md: the sections of the variables tables moved; update this test")
	}
	row := regexp.MustCompile("(?m)^\\| (?:`--[a-z-]+` \\| )?`((?:OCR|OPENAI)_[A-Z_]+)` \\|")
	var out []string
	for _, m := range row.FindAllStringSubmatch(doc[start:end], -1) {
		out = append(out, m[1])
	}
	return out
}

// TestEveryVariableThroughTheCLI runs `ocr review --preview` in-process
// with each documented variable set to a valid value, a negative one, zero
// and garbage: no panic (OCR_MAX_FILES=5 crashed with a Go stack trace),
// and either a result or exit 2 with a message naming the variable.
func TestEveryVariableThroughTheCLI(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	r.write("a.go", "package a\n\nfunc A() {}\n")
	r.commit("two")
	scratch := t.TempDir()
	for name, content := range map[string]string{"tools.json": string(pkgReadTools(t)), "rule.json": `{"rules": []}`, "bg.md": "a service"} {
		if err := os.WriteFile(filepath.Join(scratch, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flags := map[string]string{}
	for f, v := range pkgFlagField() {
		flags[v] = "--" + f
	}
	for _, key := range referenceVariables(t) {
		valid, ok := matrixValues[key]
		if !ok {
			t.Errorf("%s has no valid value in matrixValues: add one", key)
			continue
		}
		for _, val := range []string{valid, "-5", "0", "garbage{\x01"} {
			if pathValued[key] && val == valid {
				val = filepath.Join(scratch, val)
			} else if pathValued[key] {
				// Paths go to a scratch directory, never the package's,
				// one per variable: a report written is not read back.
				val = filepath.Join(scratch, key, val)
			}
			env := testEnv{key: val}
			if key == "OCR_TO" {
				env["OCR_FROM"] = "HEAD~1"
			}
			code, _, errs, panicked := runRecover(t, env, "review", "--preview", "--repo", r.dir, "--format", "text")
			switch {
			case panicked != "":
				t.Errorf("%s=%q: panic: %s", key, val, panicked)
			case code == reporters.ExitUsage && !namesSetting(errs, key, val, flags):
				t.Errorf("%s=%q: exit 2 with %q; want the message to name %s", key, val, errs, key)
			case val == valid && code != reporters.ExitOK && !strings.Contains(errs, key):
				t.Errorf("%s=%q (valid): exit %d: %s", key, val, code, errs)
			case strings.Contains(errs, "goroutine "):
				t.Errorf("%s=%q: a stack trace on stderr: %s", key, val, errs)
			}
		}
	}
}

// namesSetting reports whether a configuration error names key or its
// flag (both are paired in help and docs/reference.md), or, for a ref that
// is not a commit, quotes the ref.
func namesSetting(errs, key, val string, flags map[string]string) bool {
	f := flags[key]
	return strings.Contains(errs, key) || (f != "" && strings.Contains(errs, f)) ||
		(strings.Contains(errs, "is not a commit") && strings.Contains(errs, fmt.Sprintf("%q", val)))
}

// runRecover is testEnv.run that turns a panic into its message.
func runRecover(t *testing.T, env testEnv, args ...string) (code int, out, errs, panicked string) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			panicked = fmt.Sprint(p)
		}
	}()
	code, out, errs = env.run(t, args...)
	return code, out, errs, ""
}

// pkgReadTools is the embedded tools.json, as a --tools file would hold it.
func pkgReadTools(t *testing.T) []byte { return pkgRead(t, "tools/tools.json") }

// TestEnvShowsTheLLMTokenAndSources: `ocr env` says whether an LLM token
// is set (masked) and which variable each LLM setting came from.
func TestEnvShowsTheLLMTokenAndSources(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  testEnv
		want []string
	}{
		{testEnv{"OPENAI_API_KEY": "sk-abcdefgh", "OPENAI_MODEL": "gpt-4.1-mini"}, []string{
			"llm endpoint: https://api.openai.com/v1 (from OpenAI's default, as OPENAI_API_KEY is set)",
			"llm token: set (11 characters) (from OPENAI_API_KEY)", "model: gpt-4.1-mini (from OPENAI_MODEL)"}},
		{testEnv{"OCR_LLM_URL": "https://r.openai.azure.com", "OCR_LLM_TOKEN": "azkey", "OCR_LLM_AZURE_DEPLOYMENT": "gpt4o",
			"OPENAI_BASE_URL": "https://ignored.example.com/v1", "OCR_MODEL": "o"}, []string{
			"llm endpoint: https://r.openai.azure.com (from OCR_LLM_URL)",
			"llm token: set (5 characters) (from OCR_LLM_TOKEN, sent as Azure's api-key)", "model: o (from --model/OCR_MODEL)"}},
		{testEnv{"OCR_LLM_URL": "https://llm.example.com/v1"}, []string{"llm token: not set (OCR_LLM_TOKEN or OPENAI_API_KEY)"}},
	} {
		code, out, errs := tc.env.run(t, "env", "--repo", t.TempDir())
		if code != reporters.ExitUsage { // --repo is no repository
			t.Fatalf("exit %d: %s", code, errs)
		}
		pkgWantLines(t, out, tc.want...)
		if strings.Contains(out, "sk-abcdefgh") || strings.Contains(out, "azkey") {
			t.Errorf("ocr env printed a token:\n%s", out)
		}
	}
}
