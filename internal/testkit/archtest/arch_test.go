package archtest

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/ocr-ci/ocr"

// row is one line of the package table: the package and what it may import.
type row struct {
	allowed map[string]bool
}

var (
	tableRow = regexp.MustCompile("^\\| `([a-z0-9_/.-]+)` \\|[^|]+\\|([^|]*)\\|\\s*$")
	backtick = regexp.MustCompile("`([a-z0-9_/.-]+)`")
)

// readTable parses the "## Packages" table of docs/architecture.md.
func readTable(t *testing.T) map[string]row {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## Packages\n")
	if !ok {
		t.Fatal("docs/architecture.md has no ## Packages section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	rows := map[string]row{}
	for _, line := range strings.Split(sec, "\n") {
		m := tableRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		r := row{allowed: map[string]bool{}}
		for _, a := range backtick.FindAllStringSubmatch(m[2], -1) {
			r.allowed[a[1]] = true
		}
		rows[m[1]] = r
	}
	if len(rows) < 10 {
		t.Fatalf("docs/architecture.md: the package table has %d rows; want one per package", len(rows))
	}
	return rows
}

// pkg is what `go list -json` says about one package of the module.
type pkg struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// listPackages is what `go list -json ./...` says about the module, read
// once for the package's tests (goList).
func listPackages(t *testing.T) []pkg {
	t.Helper()
	pkgs, err := goList()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// goList runs `go list -json ./...` once: every test of the package reads
// the same module, and each run costs seconds on a loaded machine.
var goList = sync.OnceValues(func() ([]pkg, error) {
	cmd := exec.CommandContext(context.Background(), "go", "list", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..", "..")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
})

func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// TestImportsFollowTheMap fails on an import of a module package that the
// table in docs/architecture.md does not allow, in a package's code or in
// its tests (which may also import the test kits and the few listed under
// ## Layering), and on a package the table does not list.
func TestImportsFollowTheMap(t *testing.T) {
	rows, testImports := readTable(t), readTestImports(t)
	listed := map[string]bool{}
	for _, p := range listPackages(t) {
		name := rel(p.ImportPath)
		listed[name] = true
		r, ok := rows[name]
		if !ok {
			t.Errorf("package %s is not in the table of docs/architecture.md: add a row (purpose, may import)", name)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if dep := rel(imp); !r.allowed[dep] {
				t.Errorf("%s imports %s, which docs/architecture.md does not allow (may import: %s)", name, dep, keys(r.allowed))
			}
		}
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			dep := rel(imp)
			if !strings.HasPrefix(imp, module+"/") || dep == name || r.allowed[dep] || isTestKit(dep) || testImports[name][dep] {
				continue
			}
			t.Errorf("a test of %s imports %s, which docs/architecture.md does not allow: add it to the list of tests' imports under ## Layering, or import what the package may", name, dep)
		}
	}
	for name := range rows {
		if !listed[name] {
			t.Errorf("docs/architecture.md lists %s, which is not a package", name)
		}
	}
}

// publicPackages are the packages other modules may import: every
// package of the module outside an internal/ folder that is not a command.
func publicPackages(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range listPackages(t) {
		name := rel(p.ImportPath)
		if p.Name != "main" && !isInternal(name) {
			out = append(out, name)
		}
	}
	if len(out) < 10 {
		t.Fatalf("%d public packages found; go list changed?", len(out))
	}
	return out
}

// isInternal reports whether the module package name is under an
// internal/ folder.
func isInternal(name string) bool {
	return name == "internal" || strings.HasPrefix(name, "internal/") || strings.Contains(name, "/internal/") || strings.HasSuffix(name, "/internal")
}

// knownExposures are the exported names that still show an internal type,
// each with its way out (docs/architecture.md, "Layering"). The test fails
// when one is fixed, so the list shrinks with the code.
var knownExposures = map[string]bool{
	"tools RefSource exposes github.com/ocr-ci/ocr/internal/infra/git.Repo":  true,
	"tools WorkSource exposes github.com/ocr-ci/ocr/internal/infra/git.Repo": true,
}

// TestPublicAPIHasNoInternalTypes: an exported name of a public package
// mentions no type of an internal package (another module could not name
// it).
func TestPublicAPIHasNoInternalTypes(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range publicPackages(t) {
		dir := filepath.Join("..", "..", "..", name)
		for _, v := range internalInAPI(t, dir) {
			key := name + " " + v.name + " exposes " + v.pkg
			seen[key] = true
			if !knownExposures[key] {
				t.Errorf("%s: %s: %s exposes %s; export a type of the public package instead", name, v.pos, v.name, v.pkg)
			}
		}
	}
	for k := range knownExposures {
		if !seen[k] {
			t.Errorf("known exposure %q is gone: remove it from knownExposures", k)
		}
	}
}

// exposure is one exported name that shows an internal type.
type exposure struct{ pos, name, pkg string }

// internalInAPI lists the exported declarations of the package in dir whose
// signature, fields or type mention an internal package.
func internalInAPI(t *testing.T, dir string) []exposure {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []exposure
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		internal := internalImports(f)
		if len(internal) == 0 {
			continue
		}
		for _, d := range f.Decls {
			for _, where := range exportedExprs(d) {
				if pkg := mentions(where.expr, internal); pkg != "" {
					out = append(out, exposure{fset.Position(where.expr.Pos()).String(), where.name, pkg})
				}
			}
		}
	}
	return out
}

// internalImports maps a file's local import names to internal packages.
func internalImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(p, "/internal/") && !strings.HasSuffix(p, "/internal") {
			continue
		}
		local := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		m[local] = p
	}
	return m
}

type exposed struct {
	name string
	expr ast.Node
}

// exportedExprs returns the type expressions an exported declaration shows
// to other packages: signatures, exported fields, embedded types, aliases.
func exportedExprs(d ast.Decl) []exposed {
	var out []exposed
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() || (d.Recv != nil && !recvExported(d.Recv)) {
			return nil
		}
		out = append(out, exposed{d.Name.Name, d.Type})
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					out = append(out, typeExprs(s.Name.Name, s.Type)...)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() && s.Type != nil {
						out = append(out, exposed{n.Name, s.Type})
					}
				}
			}
		}
	}
	return out
}

// typeExprs keeps a struct's exported and embedded fields, an interface's
// methods and anything else whole.
func typeExprs(name string, e ast.Expr) []exposed {
	st, ok := e.(*ast.StructType)
	if !ok {
		return []exposed{{name, e}}
	}
	var out []exposed
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			out = append(out, exposed{name + " (embedded)", f.Type})
		}
		for _, n := range f.Names {
			if n.IsExported() {
				out = append(out, exposed{name + "." + n.Name, f.Type})
			}
		}
	}
	return out
}

func recvExported(r *ast.FieldList) bool {
	if len(r.List) == 0 {
		return false
	}
	e := r.List[0].Type
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// mentions returns the internal package a type expression refers to.
func mentions(n ast.Node, internal map[string]string) string {
	found := ""
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" && found == "" {
				found = internal[id.Name] + "." + sel.Sel.Name
			}
		}
		return found == ""
	})
	return found
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "nothing of the module"
	}
	return strings.Join(out, ", ")
}
