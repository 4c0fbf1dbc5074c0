package rules

import (
	"embed"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
)

//go:embed catalogue/*.md
var catalogueFS embed.FS

// entry is one built-in rule: metadata, the globs that select it and the
// Markdown file that holds its text.
type entry struct {
	id, title, description, file string
	tags                         []string
	patterns                     []string
}

// CustomRuleID is the rule id of comments on files whose rule text came
// wholly from a rule.json (merge_system_rule false).
const CustomRuleID = "ocr/custom"

// DefaultRuleID is the id of the rule used when no pattern matches.
const DefaultRuleID = "ocr/default"

// table is the built-in catalogue in match order: the first entry with a
// matching pattern wins, so specific files (manifests, workflows, mapper XML)
// come before the generic extensions that would also match them. Patterns
// are lowercase because paths are lowercased before matching.
func table() []entry {
	sec := "security"
	return []entry{
		{"ocr/github-actions", "GitHub Actions workflows", "Workflow injection, pull_request_target misuse, unpinned actions and excessive permissions.", "github-actions.md",
			[]string{"github-actions", sec}, []string{".github/workflows/**/*.{yml,yaml}", "**/action.{yml,yaml}"}},
		{"ocr/manifest", "Package manifests", "Dependency pinning, supply-chain risks and scope mistakes in package manifests and build files.", "manifest.md",
			[]string{"dependencies", sec}, []string{"**/package.json", "**/pom.xml", "**/build.gradle", "**/build.gradle.kts", "**/go.mod", "**/cargo.toml",
				"**/pyproject.toml", "**/requirements*.txt", "**/gemfile", "**/composer.json", "**/*.csproj"}},
		{"ocr/mybatis", "MyBatis mapper XML", "SQL injection through ${} and logic errors in MyBatis mapper and DAO XML.", "mybatis.md",
			[]string{"sql", sec}, []string{"**/*{mapper,dao}*.xml"}},
		{"ocr/config", "Configuration files", "Committed secrets, insecure settings and silent misconfiguration in properties and config files.", "config.md",
			[]string{"config", sec}, []string{"**/*.properties", "**/*.{ini,cfg,conf,toml,env,json,json5}", "**/.env", "**/.env.*"}},
		{"ocr/dockerfile", "Dockerfile", "Supply-chain, secret and privilege problems in container builds.", "dockerfile.md",
			[]string{"docker", sec}, []string{"**/dockerfile", "**/dockerfile.*", "**/*.dockerfile", "**/containerfile"}},
		{"ocr/terraform", "Terraform and HCL", "Public exposure, broad IAM, secrets and destructive changes in infrastructure code.", "terraform.md",
			[]string{"terraform", sec}, []string{"**/*.{tf,tfvars,hcl}"}},
		{"ocr/kubernetes", "Kubernetes and YAML", "Privileged workloads, RBAC, secrets and structural mistakes in Kubernetes, Helm and other YAML.", "kubernetes.md",
			[]string{"kubernetes", "yaml", sec}, []string{"**/*.{yml,yaml}"}},
		{"ocr/sql", "SQL", "Logic, data-safety and performance defects in SQL and migrations.", "sql.md",
			[]string{"sql", sec}, []string{"**/*.sql"}},
		{"ocr/shell", "Shell scripts", "Quoting, error handling, injection and secret leaks in shell scripts.", "shell.md",
			[]string{"shell", sec}, []string{"**/*.{sh,bash,zsh,ksh,bats}"}},
		{"ocr/go", "Go", "Errors, nil, concurrency, resource and injection defects in Go.", "go.md",
			[]string{"go", sec}, []string{"**/*.go"}},
		{"ocr/java", "Java", "NPEs, concurrency, resource leaks, injection and N+1 queries in Java.", "java.md",
			[]string{"java", sec}, []string{"**/*.java"}},
		{"ocr/kotlin", "Kotlin", "Null safety, coroutine, resource and injection defects in Kotlin.", "kotlin.md",
			[]string{"kotlin", sec}, []string{"**/*.{kt,kts}"}},
		{"ocr/react", "React", "Hook, state, async and XSS defects in React components.", "react.md",
			[]string{"javascript", "typescript", "react", sec}, []string{"**/*.{jsx,tsx}"}},
		{"ocr/javascript", "JavaScript and TypeScript", "Null, async, XSS, injection and prototype-pollution defects in JavaScript and TypeScript.", "javascript.md",
			[]string{"javascript", "typescript", sec}, []string{"**/*.{js,mjs,cjs,ts,mts,cts,vue,svelte}"}},
		{"ocr/python", "Python", "None, error handling, concurrency, resource and injection defects in Python.", "python.md",
			[]string{"python", sec}, []string{"**/*.{py,pyi}"}},
		{"ocr/rust", "Rust", "Panics, unsound unsafe, async locking and injection defects in Rust.", "rust.md",
			[]string{"rust", sec}, []string{"**/*.rs"}},
		{"ocr/c", "C", "Memory safety, bounds, undefined behaviour and format-string defects in C.", "c.md",
			[]string{"c", sec}, []string{"**/*.{c,h}"}},
		{"ocr/cpp", "C++", "Lifetime, ownership, bounds and undefined-behaviour defects in C++.", "cpp.md",
			[]string{"c++", sec}, []string{"**/*.{cc,cpp,cxx,c++,hh,hpp,hxx,ipp,inl}"}},
		{"ocr/csharp", "C#", "Null, async, disposal, injection and N+1 defects in C#.", "csharp.md",
			[]string{"csharp", sec}, []string{"**/*.{cs,csx}"}},
		{"ocr/php", "PHP", "Loose comparisons, injection, XSS, deserialization and N+1 defects in PHP.", "php.md",
			[]string{"php", sec}, []string{"**/*.{php,phtml}"}},
		{"ocr/ruby", "Ruby", "Nil, injection, mass-assignment and N+1 defects in Ruby and Rails.", "ruby.md",
			[]string{"ruby", sec}, []string{"**/*.{rb,rake,gemspec}", "**/rakefile"}},
		{"ocr/swift", "Swift", "Optional unwrapping, retain cycles, concurrency and secret-storage defects in Swift.", "swift.md",
			[]string{"swift", sec}, []string{"**/*.swift"}},
		{DefaultRuleID, "General review", "Correctness, concurrency, resource, security and performance defects in any file.", "default.md",
			[]string{sec}, nil},
	}
}

// builtin is a catalogue entry with its text loaded.
type builtin struct {
	entry
	text string
}

// loadCatalogue reads every rule's Markdown text from the embedded files.
func loadCatalogue() ([]builtin, error) {
	var out []builtin
	for _, e := range table() {
		b, err := e.load()
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// load reads the entry's Markdown text.
func (e entry) load() (builtin, error) {
	b, err := catalogueFS.ReadFile("catalogue/" + e.file)
	if err != nil {
		return builtin{}, fmt.Errorf("built-in rule %s: missing text %s: %w", e.id, e.file, err)
	}
	return builtin{entry: e, text: strings.TrimSpace(string(b))}, nil
}

// rule converts a catalogue entry to the reporters' vocabulary.
func (b builtin) rule() review.Rule {
	return review.Rule{ID: b.id, Title: b.title, Description: b.description,
		Help: b.text, Tags: append([]string(nil), b.tags...)}
}

// Catalogue returns the built-in rules in match order, the default rule
// last, for SARIF rule metadata and `ocr rules list`.
func Catalogue() []review.Rule {
	cat, err := loadCatalogue()
	if err != nil {
		panic(err) // the catalogue is embedded; TestCatalogue guards every file
	}
	out := make([]review.Rule, 0, len(cat))
	for _, b := range cat {
		out = append(out, b.rule())
	}
	return out
}

// CatalogueID returns a func that names the built-in rule of a path (the
// first catalogue entry whose pattern matches, else DefaultRuleID) without
// reading any rule's text: file ranking asks it of every file of a scan.
func CatalogueID() func(path string) string {
	t := table()
	return func(path string) string {
		p := strings.ToLower(strings.TrimPrefix(path, "./"))
		for _, e := range t {
			for _, pat := range e.patterns {
				if matchGlob(pat, p) {
					return e.id
				}
			}
		}
		return DefaultRuleID
	}
}
