package config

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestPlainVariablesAreNotSettings: CI jobs define REPO, COMMIT, FORMAT,
// OUTPUT, TIMEOUT or MODEL for their own purposes; only the OCR_* names
// count. (kelseyhightower/envconfig fell back to the unprefixed name.)
func TestPlainVariablesAreNotSettings(t *testing.T) {
	t.Parallel()
	plain := map[string]string{
		"REPO": "/nonexistent", "COMMIT": "deadbeef", "FORMAT": "json", "OUTPUT": "/tmp/x.json",
		"TIMEOUT": "1s", "MODEL": "gpt-x", "FROM": "a", "TO": "b", "REPORTS": "sarif", "FAIL_ON": "low",
		"CONCURRENCY": "not a number", "PREVIEW": "maybe", "LLM_URL": "https://x/v1", "EXCLUDE": "**",
	}
	got, err := Load(MapLookup(plain))
	if err != nil {
		t.Fatalf("plain variables must be ignored, got %v", err)
	}
	want, err := Load(MapLookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plain variables changed the configuration:\ngot  %+v\nwant %+v", got, want)
	}
	lc, err := LoadLLM(MapLookup(plain))
	if err != nil || lc.Model != "" || lc.URL != "" {
		t.Errorf("LLM settings read plain variables: %+v, %v", lc, err)
	}
}

func TestLoadReadsOCRVariables(t *testing.T) {
	t.Parallel()
	c, err := Load(MapLookup(map[string]string{
		"OCR_REPO": "/r", "OCR_COMMIT": "c1", "OCR_FORMAT": "json", "OCR_OUTPUT": "o.json", "OCR_TIMEOUT": "90s",
		"OCR_MODEL": "m", "OCR_EXCLUDE": "a/**,b/**", "OCR_MAX_INLINE": "7", "OCR_ALLOW_PARTIAL": "true",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Repo != "/r" || c.Commit != "c1" || c.Format != "json" || c.Output != "o.json" || c.Timeout != 90*time.Second ||
		c.Model != "m" || !reflect.DeepEqual(c.Exclude, []string{"a/**", "b/**"}) || c.MaxInline != 7 || !c.AllowPartial {
		t.Errorf("Load = %+v", c)
	}
}

// TestEmptyNumbersAreRefused keeps the documented rule (docs/reference.md,
// "Empty values"): a number, boolean or duration set but empty is an error.
func TestEmptyNumbersAreRefused(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"OCR_CONCURRENCY", "OCR_TIMEOUT", "OCR_FULL"} {
		if _, err := Load(MapLookup(map[string]string{k: ""})); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s empty: error %v, want one naming it", k, err)
		}
	}
	if c, err := Load(MapLookup(map[string]string{"OCR_REPO": "", "OCR_EXCLUDE": ""})); err != nil || c.Repo != "" || len(c.Exclude) != 0 {
		t.Errorf("empty strings and lists are empty: %+v, %v", c, err)
	}
}

func TestValidateOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{{To: "b"}, {Format: "sariff"}, {Format: "github-review"}, {Commit: "c", From: "a", To: "b"}, {Effort: "max"}, {Commit: "-x"}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	c := Config{}
	if err := c.Validate(); err != nil || c.Repo != "." || c.Concurrency != 8 || c.SarifFile != "ocr.sarif" {
		t.Errorf("defaults: %+v, %v", c, err)
	}
	// --from alone reviews up to HEAD, as the clean-tree hint suggests.
	c = Config{From: "origin/main", Format: "SARIF"}
	if err := c.Validate(); err != nil || c.To != "HEAD" {
		t.Errorf("--from alone: To %q, %v; want HEAD", c.To, err)
	}
}

// TestNumbersOutOfRangeAreRefused: a number that makes no sense is a
// configuration error naming the setting, from a flag or a variable, not a
// silent default (0 used to mean "the default" everywhere).
func TestNumbersOutOfRangeAreRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ args []string }{
		{[]string{"--concurrency", "0"}}, {[]string{"--concurrency", "-3"}}, {[]string{"--max-comments", "-1"}},
		{[]string{"--max-comments", "0"}}, {[]string{"--max-tokens-budget", "-1"}}, {[]string{"--max-inline=0"}},
		{[]string{"--timeout", "0s"}}, {[]string{"--timeout", "-5m"}}, {[]string{"--concurrency", "many"}},
		{[]string{"--max-files", "-1"}}, {[]string{"--max-diff-mb", "-1"}},
	} {
		var c Config
		fs := flag.NewFlagSet("review", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.Bind(fs)
		err := fs.Parse(tc.args)
		name := strings.TrimLeft(strings.SplitN(tc.args[0], "=", 2)[0], "-")
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: error %v, want one naming -%s", tc.args, err, name)
		}
	}
	for k, v := range map[string]string{"OCR_CONCURRENCY": "0", "OCR_MAX_COMMENTS": "-1", "OCR_MAX_TOKENS_BUDGET": "-1", "OCR_TIMEOUT": "0s"} {
		if _, err := Load(MapLookup(map[string]string{k: v})); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: error %v, want one naming it", k, v, err)
		}
	}
	var c Config
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	c.Bind(fs)
	if err := fs.Parse([]string{"--max-tokens-budget", "200000", "--concurrency", "2", "--timeout", "90s"}); err != nil ||
		c.MaxTokensBudget != 200000 || c.Concurrency != 2 || c.Timeout != 90*time.Second {
		t.Errorf("valid numbers: %+v, %v", c, err)
	}
}

// TestEveryFlagHasAGroupAndAVariable: the help lists every review flag
// once, with its variable.
func TestEveryFlagHasAGroupAndAVariable(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for _, g := range FlagGroups() {
		for _, f := range g.Flags {
			seen[f]++
		}
	}
	for name, env := range FlagEnv() {
		if seen[name] != 1 || !strings.HasPrefix(env, "OCR_") {
			t.Errorf("--%s: in %d help groups, variable %q; want 1 and an OCR_ variable", name, seen[name], env)
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("help group lists --%s, which is not a flag", name)
	}
}
