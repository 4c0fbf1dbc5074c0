package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/ocr-ci/ocr/internal/testkit/golden"

	"github.com/tiktoken-go/tokenizer"
)

// maxRuleTokens is the prompt budget of one rule's text (cl100k).
const maxRuleTokens = 250

func TestCatalogue(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	ids := map[string]bool{}
	for _, e := range table() {
		used[e.file] = true
		if ids[e.id] || !strings.HasPrefix(e.id, "ocr/") {
			t.Errorf("rule id %q duplicated or without the ocr/ prefix", e.id)
		}
		ids[e.id] = true
		for _, p := range e.patterns {
			if p != strings.ToLower(p) || checkGlob(p) != nil {
				t.Errorf("%s: pattern %q must be a valid lowercase glob", e.id, p)
			}
		}
	}
	if last := table()[len(table())-1]; last.id != DefaultRuleID || last.patterns != nil {
		t.Errorf("the last entry must be the pattern-less default rule, got %s", last.id)
	}
	for _, r := range Catalogue() {
		n, err := enc.Count(r.Help)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-20s %3d tokens", r.ID, n)
		if n > maxRuleTokens {
			t.Errorf("%s: %d tokens, budget %d", r.ID, n, maxRuleTokens)
		}
		if !strings.Contains(r.Help, "Do not report:") || !strings.Contains(r.Help, "unchanged code") || !strings.Contains(r.Help, "speculation") {
			t.Errorf("%s: text lacks the do-not-report list", r.ID)
		}
		if r.Title == "" || r.Description == "" || !strings.HasSuffix(r.Description, ".") || !hasTag(r.Tags, "security") {
			t.Errorf("%s: needs title, one-sentence description and the security tag: %+v", r.ID, r)
		}
	}
	files, _ := fs.Glob(catalogueFS, "catalogue/*.md")
	for _, f := range files {
		if !used[filepath.Base(f)] {
			t.Errorf("%s is embedded but no table entry uses it", f)
		}
	}
}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// golden compares got with testdata/<name>.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.CheckString(t, filepath.Join("testdata", name+".golden"), got)
}

func TestWriteList(t *testing.T) {
	var b strings.Builder
	if err := WriteList(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "list", b.String())
}

func TestWriteCheck(t *testing.T) {
	flagFile, err := os.ReadFile("testdata/check.flag.json")
	if err != nil {
		t.Fatal(err)
	}
	repoFile, err := os.ReadFile("testdata/check.repo.json")
	if err != nil {
		t.Fatal(err)
	}
	s := mustLoad(t, Options{RuleFile: flagFile, RuleFileName: "review-rules.json",
		RepoReader: repo(map[string]string{".ocr/rule.json": string(repoFile)})})
	var b strings.Builder
	if err := WriteCheck(&b, s, "cmd/main.go", "web/App.tsx", "db/UserMapper.xml", "legacy/old.py", "notes.txt"); err != nil {
		t.Fatal(err)
	}
	golden(t, "check", b.String())
}
