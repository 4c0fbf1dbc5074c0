package config

import (
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
	for _, c := range []Config{{From: "a"}, {To: "b"}, {Commit: "c", From: "a", To: "b"}, {Effort: "max"}, {Commit: "-x"}} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	c := Config{}
	if err := c.Validate(); err != nil || c.Repo != "." || c.Concurrency != 8 || c.SarifFile != "ocr.sarif" {
		t.Errorf("defaults: %+v, %v", c, err)
	}
}
