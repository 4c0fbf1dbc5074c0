package config

import (
	"strings"
	"testing"
)

func TestPostMinSeverity(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"", "medium", ""},
		{" High ", "high", ""},
		{"low", "low", ""},
		{"none", "", `--post-min-severity (OCR_POST_MIN_SEVERITY) "none": want critical, high, medium or low`},
	} {
		cfg, err := Load(MapLookup(map[string]string{"OCR_POST_MIN_SEVERITY": tc.in}))
		if err == nil {
			err = cfg.Validate()
		}
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || cfg.PostMinSeverity != tc.want || cfg.MaxInline != 10):
			t.Errorf("%q: %q, max-inline %d, %v; want %q, 10", tc.in, cfg.PostMinSeverity, cfg.MaxInline, err, tc.want)
		}
	}
}
