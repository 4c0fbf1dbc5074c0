package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters"
)

func TestRulesList(t *testing.T) {
	t.Parallel()
	code, out, errs := testEnv{}.run(t, "rules", "list")
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "PATTERNS") {
		t.Errorf("no header: %q", lines[0])
	}
	for _, want := range []string{"ocr/go ", "**/*.go", "ocr/github-actions ", "(everything else)"} {
		if !strings.Contains(out, want) {
			t.Errorf("ocr rules list lacks %q:\n%s", want, out)
		}
	}
}

// TestRulesCheckLayers: --rule wins over the repository's .ocr/rule.json
// (read at --config-ref when given), which wins over the catalogue.
func TestRulesCheckLayers(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write(".ocr/rule.json", `{"rules": [{"path": "db/**", "rule": "Every query must use bind parameters."}]}`)
	r.write("main.go", "package main\n")
	base := r.commit("rules")
	r.write(".ocr/rule.json", `{"rules": [{"path": "db/**", "rule": "Changed in the head: not trusted."}]}`)
	r.commit("head changes the rules")
	flagRule := filepath.Join(t.TempDir(), "rule.json")
	if err := os.WriteFile(flagRule, []byte(`{"rules": [{"path": "legacy/**", "rule": "Legacy: security only."}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := testEnv{}.run(t, "rules", "check", "main.go", "db/q.sql", "legacy/a.py",
		"--repo", r.dir, "--config-ref", base, "--rule", flagRule)
	if code != reporters.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	blocks := strings.Split(out, "\nFile:")
	if len(blocks) != 3 {
		t.Fatalf("want one block per path:\n%s", out)
	}
	for i, want := range [][]string{
		{"main.go", "Source:  builtin", "Rule:    ocr/go"},
		{"db/q.sql", "Source:  repo (.ocr/rule.json)", "Every query must use bind parameters."},
		{"legacy/a.py", "Source:  flag (--rule " + flagRule + ")", "Legacy: security only."},
	} {
		for _, w := range want {
			if !strings.Contains(blocks[i], w) {
				t.Errorf("block %d lacks %q:\n%s", i, w, blocks[i])
			}
		}
	}
	if strings.Contains(out, "not trusted") {
		t.Errorf("the head's rule.json was read instead of --config-ref's:\n%s", out)
	}
}

func TestRulesCheckOutsideARepository(t *testing.T) {
	t.Parallel()
	code, out, errs := testEnv{}.run(t, "rules", "check", "--repo", t.TempDir(), "src/App.java")
	if code != reporters.ExitOK || !strings.Contains(out, "Source:  builtin") || !strings.Contains(out, "ocr/java") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestRulesUsageErrors(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.commit("one")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"rules"}, "needs a subcommand"},
		{[]string{"rules", "lint"}, `unknown rules subcommand "lint"`},
		{[]string{"rules", "check", "--repo", r.dir}, "usage: ocr rules check PATH"},
		{[]string{"rules", "check", "a.go", "--rule", filepath.Join(t.TempDir(), "missing.json")}, "could not read --rule file"},
		{[]string{"rules", "check", "a.go", "--repo", r.dir, "--config-ref", "nosuchref"}, "--config-ref"},
	} {
		code, out, errs := testEnv{}.run(t, tc.args...)
		if code != reporters.ExitUsage || !strings.Contains(errs, tc.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tc.args, code, out, errs, tc.msg)
		}
	}
}
