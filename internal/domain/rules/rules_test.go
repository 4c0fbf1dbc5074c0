package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func mustLoad(t *testing.T, opt Options) *Set {
	t.Helper()
	s, err := Load(opt)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}

// repo returns a RepoReader over an in-memory file map.
func repo(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
	}
}

func TestBuiltinMatch(t *testing.T) {
	s := mustLoad(t, Options{})
	cases := map[string]string{
		"main.go":                            "ocr/go",
		"internal/infra/git/repo.go":         "ocr/go",
		"src/main/java/App.java":             "ocr/java",
		"app/src/Main.kt":                    "ocr/kotlin",
		"build.gradle.kts":                   "ocr/manifest",
		"scripts/x.kts":                      "ocr/kotlin",
		"web/index.js":                       "ocr/javascript",
		"web/lib/util.ts":                    "ocr/javascript",
		"web/server.mjs":                     "ocr/javascript",
		"web/components/App.tsx":             "ocr/react",
		"web/components/Button.jsx":          "ocr/react",
		"tool/cli.py":                        "ocr/python",
		"src/lib.rs":                         "ocr/rust",
		"src/buf.c":                          "ocr/c",
		"include/buf.h":                      "ocr/c",
		"src/engine.cpp":                     "ocr/cpp",
		"src/engine.hpp":                     "ocr/cpp",
		"src/engine.cc":                      "ocr/cpp",
		"Api/Controller.cs":                  "ocr/csharp",
		"public/index.php":                   "ocr/php",
		"app/models/user.rb":                 "ocr/ruby",
		"Rakefile":                           "ocr/ruby",
		"Sources/App/View.swift":             "ocr/swift",
		"db/migrate/001_init.sql":            "ocr/sql",
		"src/main/resources/UserMapper.xml":  "ocr/mybatis",
		"dao/OrderDao.xml":                   "ocr/mybatis",
		"scripts/deploy.sh":                  "ocr/shell",
		"Dockerfile":                         "ocr/dockerfile",
		"build/Dockerfile.prod":              "ocr/dockerfile",
		"infra/main.tf":                      "ocr/terraform",
		"infra/prod.tfvars":                  "ocr/terraform",
		"k8s/deployment.yaml":                "ocr/kubernetes",
		"charts/app/values.yml":              "ocr/kubernetes",
		".github/workflows/ci.yml":           "ocr/github-actions",
		".github/workflows/sub/release.yaml": "ocr/github-actions",
		"action.yml":                         "ocr/github-actions",
		"package.json":                       "ocr/manifest",
		"web/package.json":                   "ocr/manifest",
		"pom.xml":                            "ocr/manifest",
		"go.mod":                             "ocr/manifest",
		"Cargo.toml":                         "ocr/manifest",
		"src/main/resources/application.properties": "ocr/config",
		"config/settings.ini":                       "ocr/config",
		".env":                                      "ocr/config",
		"tsconfig.json":                             "ocr/config",
		"README.md":                                 DefaultRuleID,
		"LICENSE":                                   DefaultRuleID,
		"web/style.css":                             DefaultRuleID,
	}
	for path, want := range cases {
		t.Run(path, func(t *testing.T) {
			m := s.Match(path)
			if m.RuleID != want || m.Source != SourceBuiltin {
				t.Errorf("Match(%q) = %s from %s (pattern %q), want %s from builtin", path, m.RuleID, m.Source, m.Pattern, want)
			}
			if m.Text == "" || m.Title == "" {
				t.Errorf("Match(%q) has empty text or title", path)
			}
			if (want == DefaultRuleID) != (m.Pattern == "") {
				t.Errorf("Match(%q) pattern %q: only the default rule has no pattern", path, m.Pattern)
			}
		})
	}
}

func TestLayers(t *testing.T) {
	flag := `{"rules": [{"path": "**/*.go", "rule": "flag go rule"}]}`
	repoFiles := map[string]string{
		".ocr/rule.json":            `{"rules": [{"path": "**/*.go", "rule": "repo go rule"}, {"path": "src/**", "rule": "repo src rule"}, {"path": "**/*.PY", "rule": "extra py", "merge_system_rule": true}]}`,
		".opencodereview/rule.json": `{"rules": [{"path": "**", "rule": "ignored: .ocr wins"}]}`,
	}
	s := mustLoad(t, Options{RuleFile: []byte(flag), RuleFileName: "review.json", RepoReader: repo(repoFiles)})
	cases := []struct {
		path, source, file, pattern, id, text string
	}{
		{"a/b.go", SourceFlag, "review.json", "**/*.go", CustomRuleID, "flag go rule"},
		{"src/x.java", SourceRepo, ".ocr/rule.json", "src/**", CustomRuleID, "repo src rule"},
		{"Tool/Main.py", SourceRepo, ".ocr/rule.json", "**/*.PY", "ocr/python", "Python."},
		{"lib/x.rs", SourceBuiltin, "", "**/*.rs", "ocr/rust", "Rust."},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			m := s.Match(c.path)
			if m.Source != c.source || m.File != c.file || m.Pattern != c.pattern || m.RuleID != c.id || !strings.HasPrefix(m.Text, c.text) {
				t.Errorf("Match(%q) = %+v, want source %s file %s pattern %s id %s text prefix %q", c.path, m, c.source, c.file, c.pattern, c.id, c.text)
			}
		})
	}
}

func TestMergeSystemRule(t *testing.T) {
	s := mustLoad(t, Options{RuleFile: []byte(`{"rules": [{"path": "**/*.go", "rule": "Always check ctx.", "merge_system_rule": true}]}`)})
	m := s.Match("x.go")
	builtin := mustLoad(t, Options{}).Match("x.go").Text
	if want := builtin + "\n\nProject rules:\nAlways check ctx."; m.Text != want {
		t.Errorf("merged text = %q, want %q", m.Text, want)
	}
	if m.RuleID != "ocr/go" || m.Source != SourceFlag {
		t.Errorf("merged match = %s from %s, want ocr/go from flag", m.RuleID, m.Source)
	}
}

func TestOpenCodeReviewFallback(t *testing.T) {
	s := mustLoad(t, Options{RepoReader: repo(map[string]string{".opencodereview/rule.json": `{"rules": [{"path": "**", "rule": "ocr compat"}]}`})})
	if m := s.Match("x.go"); m.File != ".opencodereview/rule.json" || m.Text != "ocr compat" {
		t.Errorf("Match = %+v, want the .opencodereview layer", m)
	}
}

func TestRepoReaderNilMeansMissing(t *testing.T) {
	s := mustLoad(t, Options{RepoReader: func(string) ([]byte, error) { return nil, nil }})
	if m := s.Match("x.go"); m.Source != SourceBuiltin {
		t.Errorf("Match = %+v, want builtin", m)
	}
}

func TestRepoReaderError(t *testing.T) {
	boom := errors.New("cat-file died")
	_, err := Load(Options{RepoReader: func(string) ([]byte, error) { return nil, boom }})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), ".ocr/rule.json") {
		t.Errorf("Load error = %v, want it to wrap the reader error and name the file", err)
	}
}

func TestIncludeExclude(t *testing.T) {
	s := mustLoad(t, Options{
		RuleFile:   []byte(`{"exclude": ["**/*_test.go"]}`),
		RepoReader: repo(map[string]string{".ocr/rule.json": `{"include": ["src/**", "cmd/**"], "exclude": ["src/gen/**"]}`}),
	})
	if got := strings.Join(s.Include(), ","); got != "src/**,cmd/**" {
		t.Errorf("Include = %s", got)
	}
	if got := strings.Join(s.Exclude(), ","); got != "**/*_test.go,src/gen/**" {
		t.Errorf("Exclude = %s", got)
	}
	for path, want := range map[string]bool{"src/a.go": true, "cmd/ocr/main.go": true, "src/a_test.go": false,
		"src/gen/x.go": false, "docs/x.md": false, "SRC/B.go": true} {
		if ok, reason := s.Selects(path); ok != want || (!ok && reason != "user_exclude") {
			t.Errorf("Selects(%q) = %v %q, want %v", path, ok, reason, want)
		}
	}
	if ok, _ := mustLoad(t, Options{}).Selects("anything"); !ok {
		t.Error("no rule files must select everything")
	}
}

func TestMatchRule(t *testing.T) {
	s := mustLoad(t, Options{RuleFile: []byte(`{"rules": [{"path": "docs/**", "rule": "Check links."}]}`)})
	if r := s.Match("a.go").Rule(); r.ID != "ocr/go" || r.Title != "Go" || !hasTag(r.Tags, "go") || r.Help == "" {
		t.Errorf("Rule() for a.go = %+v", r)
	}
	if r := s.Match("docs/x.md").Rule(); r.ID != CustomRuleID || r.Help != "Check links." || r.Description == "" {
		t.Errorf("Rule() for docs/x.md = %+v", r)
	}
}

func TestMatchRuleEqualsCatalogue(t *testing.T) {
	s := mustLoad(t, Options{RuleFile: []byte(`{"rules": [{"path": "**/*.rs", "rule": "extra", "merge_system_rule": true}]}`)})
	cat := map[string]string{}
	for _, r := range Catalogue() {
		cat[r.ID] = r.Help
	}
	for _, p := range []string{"a.go", "b.rs", "c.unknown", ".github/workflows/x.yml"} {
		r := s.Match(p).Rule()
		if help, ok := cat[r.ID]; !ok || help != r.Help {
			t.Errorf("Match(%q).Rule() = %s with help %.40q, want the catalogue entry", p, r.ID, r.Help)
		}
	}
}
