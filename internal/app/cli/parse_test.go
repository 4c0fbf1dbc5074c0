package cli

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestParseScan: scan's own flags, PATHs interleaved with flags, the
// environment's range dropped and scan's --max-files default, through the
// parse path every command takes.
func TestParseScan(t *testing.T) {
	t.Parallel()
	l, err := Parse("scan", []string{"src", "--ref", "v1", "docs", "--since=v0"}, env("OCR_FROM", "main"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Scan != (Scan{Ref: "v1", Since: "v0"}) || !slices.Equal(l.Args, []string{"src", "docs"}) {
		t.Errorf("scan = %+v, args %q", l.Scan, l.Args)
	}
	if l.Config.From != "" || l.Config.MaxFiles != DefaultScanMaxFiles {
		t.Errorf("from %q, max files %d; want none and %d", l.Config.From, l.Config.MaxFiles, DefaultScanMaxFiles)
	}
	for _, args := range [][]string{{"--from", "main"}, {"--ref", "a", "--worktree"}, {"--ref=-x"}} {
		if _, err := Parse("scan", args, env(), nil); err == nil || !errors.As(err, new(*UsageError)) {
			t.Errorf("scan %q: err = %v, want a usage error", args, err)
		}
	}
}

// TestParseRefusesArguments: a command without positionals names the
// argument instead of ignoring the flags after it.
func TestParseRefusesArguments(t *testing.T) {
	t.Parallel()
	_, err := Parse("review", []string{"HEAD", "--preview"}, env(), nil)
	if err == nil || !strings.Contains(err.Error(), `takes no argument "HEAD"`) {
		t.Errorf("err = %v", err)
	}
}

// TestHelpOfScanIsScans: `ocr help scan` and `ocr scan --help` print the
// same flags, scan's own among them.
func TestHelpOfScanIsScans(t *testing.T) {
	t.Parallel()
	var viaHelp, viaFlag strings.Builder
	if err := Help(&viaHelp, Find("scan")); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("scan", []string{"--help"}, env(), &viaFlag); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	if viaHelp.String() != viaFlag.String() {
		t.Errorf("ocr help scan and ocr scan --help differ:\n%s\n---\n%s", viaHelp.String(), viaFlag.String())
	}
	for _, own := range []string{"--ref REF", "--worktree", "--since REF", "--shard I/N", "default 100 for a scan"} {
		if !strings.Contains(viaHelp.String(), own) {
			t.Errorf("scan's help lacks %q", own)
		}
	}
}
