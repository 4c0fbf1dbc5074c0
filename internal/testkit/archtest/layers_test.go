package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readSection returns the text of the "## name" section of
// docs/architecture.md, up to the next "## " heading.
func readSection(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## "+name+"\n")
	if !ok {
		t.Fatalf("docs/architecture.md has no ## %s section", name)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

var layerItem = regexp.MustCompile(`(?m)^(\d+)\. `)

// readLayers maps each package named in the numbered list of "## Layering"
// to its layer; a package named twice is an error.
func readLayers(t *testing.T, known map[string]bool) map[string]int {
	t.Helper()
	sec := readSection(t, "Layering")
	list, _, _ := strings.Cut(sec, "\n\n"+"In words")
	layers := map[string]int{}
	starts := layerItem.FindAllStringSubmatchIndex(list, -1)
	if len(starts) < 3 {
		t.Fatalf("docs/architecture.md: ## Layering has %d numbered layers; want the list", len(starts))
	}
	for i, m := range starts {
		end := len(list)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		n, _ := strconv.Atoi(list[m[2]:m[3]])
		for _, b := range backtick.FindAllStringSubmatch(list[m[1]:end], -1) {
			name := b[1]
			if !known[name] {
				continue
			}
			if prev, dup := layers[name]; dup && prev != n {
				t.Errorf("docs/architecture.md: %s is in layers %d and %d; name it once", name, prev, n)
			}
			layers[name] = n
		}
	}
	return layers
}

// TestLayersPointDown: every package is in one layer of the list, and no
// package imports one of a higher layer.
func TestLayersPointDown(t *testing.T) {
	pkgs := listPackages(t)
	known := map[string]bool{}
	for _, p := range pkgs {
		known[rel(p.ImportPath)] = true
	}
	layers := readLayers(t, known)
	for _, p := range pkgs {
		name := rel(p.ImportPath)
		l, ok := layers[name]
		if !ok {
			t.Errorf("package %s is in no layer of docs/architecture.md (## Layering): add it to one", name)
			continue
		}
		for _, imp := range p.Imports {
			dep := rel(imp)
			if dl, ok := layers[dep]; ok && dl > l {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow runs back up; move the code down or the package up", name, l, dep, dl)
			}
		}
	}
}

// isTestKit reports whether the module package name is test support.
func isTestKit(name string) bool {
	return strings.HasPrefix(name, "internal/testkit/") || name == "reporters/internal/reportertest"
}

// TestNoProductCodeImportsATestKit: only tests and other test kits import
// the fakes and helpers of internal/testkit.
func TestNoProductCodeImportsATestKit(t *testing.T) {
	for _, p := range listPackages(t) {
		name := rel(p.ImportPath)
		if isTestKit(name) {
			continue
		}
		for _, imp := range p.Imports {
			if dep := rel(imp); isTestKit(dep) {
				t.Errorf("%s imports the test kit %s outside its tests: move what it needs out of the kit", name, dep)
			}
		}
	}
}

var testRule = regexp.MustCompile("(?m)^- `([a-z0-9_/.-]+)` tests: (.*)$")

// readTestImports reads the list of what tests import beyond their
// package's row (## Layering).
func readTestImports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, m := range testRule.FindAllStringSubmatch(readSection(t, "Layering"), -1) {
		out[m[1]] = map[string]bool{}
		for _, b := range backtick.FindAllStringSubmatch(m[2], -1) {
			out[m[1]][b[1]] = true
		}
	}
	return out
}
