package runner

import (
	"flag"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
)

// refRows maps each flag of docs/reference.md's flags table to its default
// cell.
func refRows(t *testing.T) map[string]string {
	t.Helper()
	row := regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| `OCR_[A-Z_]+` \\|([^|]*)\\|")
	out := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(pkgRead(t, "docs/reference.md")), -1) {
		out[m[1]] = m[2]
	}
	return out
}

// codeDefault is what a flag holds when neither it nor its variable is
// given, as help would print it ("" for none).
func codeDefault(f *flag.Flag) string {
	v := f.Value.String()
	if d, ok := strings.CutSuffix(v, "m0s"); ok {
		v = d + "m"
	}
	return v
}

// TestReferenceDefaultsAreTheCodes: the default column of docs/reference.md
// and the "(default N)" of each flag's help are the values the code fills.
func TestReferenceDefaultsAreTheCodes(t *testing.T) {
	t.Parallel()
	var cfg config.Config
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	rows := refRows(t)
	helpDefault := regexp.MustCompile(`\(default:? ([0-9][0-9a-z]*)`)
	cli.FlagSet(cli.Find("review"), &cfg, nil).VisitAll(func(f *flag.Flag) {
		if f.Name == "v" {
			return
		}
		cell, ok := rows[f.Name]
		if !ok {
			t.Errorf("docs/reference.md has no row for --%s", f.Name)
			return
		}
		def := codeDefault(f)
		if def != "" && !strings.Contains(cell, def) {
			t.Errorf("docs/reference.md: --%s defaults to %q, the row says %q", f.Name, def, cell)
		}
		if m := helpDefault.FindStringSubmatch(f.Usage); m != nil && m[1] != def {
			t.Errorf("ocr review --help: --%s says default %s, the code fills %q", f.Name, m[1], def)
		}
	})
}

// TestZeroMeansTheDefaultInTheDocs: a number whose 0 means the default cap
// (--max-tokens-budget 0 is 5,000,000) is documented nowhere as "0 (none)".
func TestZeroMeansTheDefaultInTheDocs(t *testing.T) {
	t.Parallel()
	env := config.FlagEnv()
	docs, _ := filepath.Glob("../docs/*.md")
	docs = append(docs, "../README.md", "../gitlab/README.md")
	var fs flag.FlagSet
	new(config.Config).Bind(&fs)
	fs.VisitAll(func(f *flag.Flag) {
		var cfg config.Config
		one := flag.NewFlagSet("review", flag.ContinueOnError)
		one.SetOutput(io.Discard)
		cfg.Bind(one)
		if one.Parse([]string{"--" + f.Name, "0"}) != nil || cfg.Validate() != nil || one.Lookup(f.Name).Value.String() == "0" {
			return // 0 is refused, or means 0
		}
		names := []string{"`--" + f.Name + "`", "`" + env[f.Name] + "`", "| `" + f.Name + "` |"}
		for _, d := range docs {
			for _, line := range strings.Split(string(pkgRead(t, strings.TrimPrefix(d, "../"))), "\n") {
				if strings.Contains(line, "0 (none)") && slices.ContainsFunc(names, func(n string) bool { return strings.Contains(line, n) }) {
					t.Errorf("%s: %q documents 0 as none, but --%s 0 means the default (%s)", d, line, f.Name, one.Lookup(f.Name).Value)
				}
			}
		}
	})
}

// TestScanFlagsAreDocumented: the review flags `ocr scan` lacks are the
// ones docs/reference.md names in its scan paragraph, and scan's own are
// --ref and --worktree.
func TestScanFlagsAreDocumented(t *testing.T) {
	t.Parallel()
	ref := string(pkgRead(t, "docs/reference.md"))
	_, para, _ := strings.Cut(ref, "**`ocr scan`** takes the same flags and variables, except")
	para, _, _ = strings.Cut(para, "plus `--ref REF`")
	if para == "" {
		t.Fatal("docs/reference.md: the ocr scan paragraph moved; update this test")
	}
	var documented []string
	for _, m := range regexp.MustCompile("`--([a-z-]+)`").FindAllStringSubmatch(para, -1) {
		documented = append(documented, m[1])
	}
	var cfg config.Config
	scan := cli.FlagSet(cli.Find("scan"), &cfg, &cli.Scan{})
	var missing []string
	for name := range config.FlagEnv() {
		refused := slices.Contains([]string{"from", "to", "commit", "full"}, name)
		if scan.Lookup(name) == nil || refused {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	slices.Sort(documented)
	if !slices.Equal(missing, documented) {
		t.Errorf("ocr scan lacks or refuses %v; docs/reference.md says %v", missing, documented)
	}
	for _, own := range []string{"ref", "worktree"} {
		if scan.Lookup(own) == nil {
			t.Errorf("ocr scan has no --%s", own)
		}
	}
}

// TestCheckoutVersionIsOne: every page pins actions/checkout at the version
// the example workflows use (the `# vN` comment of a SHA pin counts).
func TestCheckoutVersionIsOne(t *testing.T) {
	t.Parallel()
	pin := regexp.MustCompile(`actions/checkout@([0-9a-f]{40})?(v[0-9][0-9.]*)?(?:\s*#\s*(v[0-9][0-9.]*))?`)
	version := func(m []string) string { return m[2] + m[3] }
	want := ""
	examples, _ := filepath.Glob("../docs/examples/*.yml")
	for _, f := range examples {
		for _, m := range pin.FindAllStringSubmatch(string(pkgRead(t, strings.TrimPrefix(f, "../"))), -1) {
			if want == "" {
				want = version(m)
			}
			if version(m) != want {
				t.Errorf("%s pins actions/checkout %s, another example %s", f, version(m), want)
			}
		}
	}
	pages, _ := filepath.Glob("../docs/*.md")
	for _, f := range append(pages, "../README.md", "../gitlab/README.md") {
		for _, m := range pin.FindAllStringSubmatch(string(pkgRead(t, strings.TrimPrefix(f, "../"))), -1) {
			if version(m) != "" && version(m) != want {
				t.Errorf("%s pins actions/checkout %s; the examples use %s", f, version(m), want)
			}
		}
	}
}
