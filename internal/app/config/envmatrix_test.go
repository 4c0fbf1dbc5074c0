package config

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ValidValues holds a valid value of every variable docs/reference.md
// lists; a variable missing here fails TestEveryVariableLoadsOrNamesItself,
// so a new one is tried with good, negative and garbage values.
var validValues = map[string]string{
	"OCR_REPO": ".", "OCR_FROM": "HEAD~1", "OCR_TO": "HEAD", "OCR_COMMIT": "HEAD", "OCR_PREVIEW": "true",
	"OCR_FORMAT": "json", "OCR_OUTPUT": "out.json", "OCR_REPORTS": "sarif,text", "OCR_EXCLUDE": "vendor/**",
	"OCR_INCLUDE": "gen/**", "OCR_INCLUDE_TESTS": "true", "OCR_MAX_GIT_PROCS": "4", "OCR_MAX_FILE_TOKENS": "1000",
	"OCR_MAX_DIFF_MB": "5", "OCR_MAX_FILES": "5", "OCR_TOOLS": "tools.json", "OCR_RULE": "rule.json",
	"OCR_CONFIG_REF": "HEAD", "OCR_LANGUAGE": "French", "OCR_BACKGROUND": "a service", "OCR_BACKGROUND_FILE": "bg.md",
	"OCR_MODEL": "m", "OCR_CONCURRENCY": "2", "OCR_TIMEOUT": "5m", "OCR_MAX_TOKENS_BUDGET": "100000",
	"OCR_MAX_COST": "0", "OCR_PRICE_INPUT": "2.5", "OCR_PRICE_OUTPUT": "10", "OCR_PRICE_CACHED_INPUT": "1.25",
	"OCR_MAX_COMMENTS": "10", "OCR_MAX_INLINE": "5", "OCR_POST_MIN_SEVERITY": "high", "OCR_NO_FILTER": "true", "OCR_EFFORT": "high",
	"OCR_FAIL_ON": "high", "OCR_ALLOW_PARTIAL": "true", "OCR_SARIF_FILE": "x.sarif", "OCR_SARIF_CATEGORY": "c",
	"OCR_FULL": "true", "OCR_VERBOSE": "1", "OCR_GITHUB_LOGIN": "my-app[bot]",
	"OCR_LLM_URL": "https://llm.example.com/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m", "OCR_LLM_TIMEOUT": "30",
	"OCR_LLM_EXTRA_HEADERS": "X-A=1", "OCR_LLM_EXTRA_BODY": `{"enable_thinking": false}`, "OCR_LLM_TEMPERATURE": "0.2",
	"OCR_PASSES": "3", "OCR_MIN_VOTES": "2",
	"OCR_LLM_AZURE_DEPLOYMENT": "gpt4o", "OCR_LLM_AZURE_API_VERSION": "2024-10-21", "OPENAI_API_KEY": "sk-x",
	"OCR_LLM_TOOLS": "text", "OCR_LLM_CONTEXT": "32768",
	"OPENAI_BASE_URL": "https://gw.example.com/v1", "OPENAI_MODEL": "gpt-4.1-mini",
	"OCR_QUIET": "true", "OCR_SHARD": "1/2", "OCR_LINK_ALLOW": "docs.example.org", "OCR_HANDLE": "reviewbot", "OCR_CHAT_REPLIES": "all", "OCR_CHAT_TRUST": "OWNER,MEMBER,author",
	"OCR_CHAT_UNTRUSTED": "silent", "OCR_CHAT_MAX_REQUESTS": "4", "OCR_CHAT_MAX_TOKENS": "50000",
}

// companions are the settings a variable needs beside it to be valid.
var companions = map[string]map[string]string{
	"OCR_TO":        {"OCR_FROM": "HEAD~1"},
	"OCR_MAX_COST":  {"OCR_PRICE_INPUT": "1", "OCR_PRICE_OUTPUT": "1"},
	"OCR_MIN_VOTES": {"OCR_PASSES": "3"},
}

// EnvMatrixValues are the values every variable is tried with.
func envMatrixValues(key string) []string {
	return []string{validValues[key], "-5", "0", "garbage{\x01"}
}

// DocumentedVariables reads the variables docs/reference.md lists in its
// tables of ocr's settings: the flags table, the variables without a flag,
// and the LLM endpoint table (the CI's own variables are internal/app/ci's).
func documentedVariables(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "## Flags and OCR_* variables")
	end := strings.Index(doc, "## CI variables ocr reads")
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

// TestDocumentedVariablesAreTheCodes: the variables tables of
// docs/reference.md and the loaders' variables (Config's env tags and
// LoadLLM's) are the same list.
func TestDocumentedVariablesAreTheCodes(t *testing.T) {
	t.Parallel()
	docs, code := documentedVariables(t), Keys()
	slices.Sort(docs)
	slices.Sort(code)
	for _, k := range code {
		if _, ok := slices.BinarySearch(docs, k); !ok {
			t.Errorf("%s is read by the code but has no row in docs/reference.md's variables tables", k)
		}
	}
	for _, k := range docs {
		if _, ok := slices.BinarySearch(code, k); !ok {
			t.Errorf("docs/reference.md lists %s, which the code does not read", k)
		}
	}
	if d := slices.Compact(slices.Clone(docs)); len(d) != len(docs) {
		t.Errorf("docs/reference.md lists a variable twice: %v", docs)
	}
}

// TestEveryVariableLoadsOrNamesItself sets every documented variable, one
// at a time, to a valid value, a negative one, zero and garbage: loading
// and validating never panics, and either succeeds or refuses with a
// message naming the variable. OCR_MAX_FILES=5 used to panic in Load.
func TestEveryVariableLoadsOrNamesItself(t *testing.T) {
	t.Parallel()
	for _, key := range documentedVariables(t) {
		if _, ok := validValues[key]; !ok {
			t.Errorf("%s has no valid value in validValues: add one", key)
			continue
		}
		for _, val := range envMatrixValues(key) {
			if err := loadAll(key, val); err != nil && !strings.Contains(err.Error(), key) {
				t.Errorf("%s=%q: %v; want the error to name %s", key, val, err, key)
			}
		}
		if err := loadAll(key, validValues[key]); err != nil {
			t.Errorf("%s=%q (valid): %v", key, validValues[key], err)
		}
	}
}

// loadAll runs what a review does with key=val, a complete LLM endpoint
// otherwise: Load, Validate, LoadLLM and the endpoint's Validate. A panic
// is returned as an error.
func loadAll(key, val string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	env := map[string]string{"OCR_LLM_MODEL": "m", "OCR_LLM_TOKEN": "t", "OPENAI_BASE_URL": "https://gw.example.com/v1"}
	for k, v := range companions[key] {
		env[k] = v
	}
	env[key] = val
	c, err := Load(MapLookup(env))
	if err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	lc, err := LoadLLM(MapLookup(env))
	if err != nil {
		return err
	}
	return lc.Validate()
}
