package runner

import (
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// The pull request of most scenarios: feature rewrites store.Get, dropping
// its nil check; main moved on after feature branched (README.md), so the
// review range is merge-base(main, feature)..feature.
const (
	storeBase = "package store\n\n// Get returns the value stored under k, or 0.\nfunc Get(m map[string]*int, k string) int {\n" +
		"\tif v, ok := m[k]; ok && v != nil {\n\t\treturn *v\n\t}\n\treturn 0\n}\n\n// Limit is the largest key length.\nconst Limit = 64\n"
	storeHead = "package store\n\n// Get returns the value stored under k, or 0.\nfunc Get(m map[string]*int, k string) int {\n" +
		"\tptr := m[k]\n\treturn *ptr\n}\n\n// Limit is the largest key length.\nconst Limit = 64\n"
	cacheFile = "package cache\n\n// Size is the number of entries kept.\nvar Size = -1\n"
)

// prRepo is a repository with main and a feature branch.
type prRepo struct {
	*testRepo
	root, base, head string
}

// newPRRepo is a copy of prFixture, built once per test binary.
func newPRRepo(t *testing.T) prRepo {
	r, ids := prFixture.copy(t)
	return prRepo{testRepo: r, root: ids["root"], base: ids["base"], head: ids["head"]}
}

// prFixture is the repository of newPRRepo.
var prFixture = newFixture(func(r *testRepo) map[string]string {
	r.write("store/store.go", storeBase)
	root := r.commit("root")
	r.git("checkout", "-q", "-b", "feature")
	r.write("store/store.go", storeHead)
	head := r.commit("store: simplify Get")
	r.git("checkout", "-q", "main")
	r.write("README.md", "# store\n")
	base := r.commit("readme")
	r.git("checkout", "-q", "feature")
	return map[string]string{"root": root, "base": base, "head": head}
})

// pushCache adds a commit to feature: a new file, cache/cache.go. Only
// that file is committed: the reports of earlier runs lie in the workspace.
func (p *prRepo) pushCache() {
	p.write("cache/cache.go", cacheFile)
	p.git("add", "cache/cache.go")
	p.git("commit", "-q", "-m", "cache: add Size")
	p.head = p.git("rev-parse", "HEAD")
}

// adversarial is model text that tries to inject workflow commands and
// Markdown/HTML: it must reach every report as inert text.
const adversarial = "Dereferencing ptr panics when k is missing.\n::error file=evil.go,line=1::pwned\n" +
	"::set-output name=status::complete %0A::warning::also pwned <img src=x onerror=alert(1)>"

// storeComments are the model's findings on store/store.go: an added line
// (RIGHT 6), a deleted line (LEFT 5) and an unchanged line (RIGHT 3).
func storeComments() llmtest.Answer {
	return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
		{"content": adversarial, "existing_code": "return *ptr", "category": "bug", "severity": "critical"},
		{"content": "The nil check was removed: a stored nil pointer now panics.",
			"existing_code": "if v, ok := m[k]; ok && v != nil {", "category": "bug", "severity": "medium"},
		{"content": "The comment still promises 0 for a missing key.",
			"existing_code": "// Get returns the value stored under k, or 0.", "category": "documentation", "severity": "low"},
	}}), llmtest.Done())
}

// cacheComments is the model's finding on cache/cache.go (added line 4).
func cacheComments() llmtest.Answer {
	return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
		{"content": "A negative size disables the cache silently.", "existing_code": "var Size = -1",
			"category": "bug", "severity": "high"},
	}}), llmtest.Done())
}

// storeScript answers n reviews of store/store.go.
func storeScript(n int) llmtest.Script {
	sc := llmtest.Script{Name: "store", Match: []string{"store/store.go"}}
	for i := 0; i < n; i++ {
		sc.Answers = append(sc.Answers, storeComments())
	}
	return sc
}

// shas are the event template's fields.
func (p *prRepo) shas() map[string]string { return map[string]string{"Base": p.base, "Head": p.head} }
