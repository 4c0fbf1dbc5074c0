package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
)

// history is what TestImportBuildsWhatCommitBuilds builds both ways: files
// of every mode and awkward names, a removal, a gitlink, a branch, a merge
// and tags.
var history = History{Checkout: true, Commits: []Change{
	{Message: "root", Files: map[string]string{"a.txt": "a\n", "dir/run.sh": "#!/bin/sh\n", "link": "->a.txt",
		"with space.txt": "s\n", `q"uote.txt`: "q\n", "é.txt": "e\n"}, Exec: []string{"dir/run.sh"}},
	{Message: "second", Files: map[string]string{"a.txt": "a\nb\n"}, Remove: []string{"with space.txt"},
		Gitlinks: map[string]string{"sub": "1111111111111111111111111111111111111111"}},
	{Branch: "topic", From: Mark(0), Message: "topic", Files: map[string]string{"t.txt": "t\n"}},
	{Message: "merge topic", Merge: []string{"topic"}, Files: map[string]string{"t.txt": "t\n"}, Tags: []string{"v1", "v1.0"}},
}}

// commitHistory builds history with the porcelain: add and commit per commit.
func commitHistory(t *testing.T) (string, []string) {
	dir := Init(t)
	var ids []string
	commit := func(msg string, stage ...string) {
		RunFixed(t, dir, "add", "-A")
		if stage != nil {
			RunFixed(t, dir, stage...)
		}
		RunFixed(t, dir, "commit", "-q", "-m", msg)
		ids = append(ids, RunFixed(t, dir, "rev-parse", "HEAD"))
	}
	WriteFiles(t, dir, history.Commits[0].Files)
	if err := os.Chmod(filepath.Join(dir, "dir", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	commit("root")
	WriteFiles(t, dir, history.Commits[1].Files)
	if err := os.Remove(filepath.Join(dir, "with space.txt")); err != nil {
		t.Fatal(err)
	}
	commit("second", "update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
	RunFixed(t, dir, "checkout", "-q", "-b", "topic", ids[0])
	WriteFiles(t, dir, history.Commits[2].Files)
	commit("topic")
	RunFixed(t, dir, "checkout", "-q", "main")
	RunFixed(t, dir, "merge", "-q", "--no-ff", "-m", "merge topic", "topic")
	ids = append(ids, RunFixed(t, dir, "rev-parse", "HEAD"))
	RunFixed(t, dir, "tag", "-a", "v1", "-m", "v1")
	RunFixed(t, dir, "tag", "-a", "v1.0", "-m", "v1.0")
	return dir, ids
}

// TestImportBuildsWhatCommitBuilds: the history Import writes with one
// fast-import is the one add and commit write: the same commit ids (so the
// same trees, parents, messages and identities), the same refs and tag,
// the same work tree, clean.
func TestImportBuildsWhatCommitBuilds(t *testing.T) {
	want, wantIDs := commitHistory(t)
	got := t.TempDir()
	ids := Import(t, got, history)
	for i := range wantIDs {
		if ids[i] != wantIDs[i] {
			t.Errorf("commit %d (%s): Import made %s, add and commit made %s", i, history.Commits[i].Message, ids[i], wantIDs[i])
		}
	}
	refs := []string{"for-each-ref", "--format=%(refname) %(objectname) %(*objectname)"}
	if g, w := Run(t, got, refs...), Run(t, want, refs...); g != w {
		t.Errorf("refs after Import:\n%s\nafter add and commit:\n%s", g, w)
	}
	if g, w := Run(t, got, "symbolic-ref", "HEAD"), Run(t, want, "symbolic-ref", "HEAD"); g != w {
		t.Errorf("HEAD is %s after Import, %s after add and commit", g, w)
	}
	if status := Run(t, got, "status", "--porcelain"); status != "" {
		t.Errorf("the imported work tree is not clean:\n%s", status)
	}
	for _, p := range []string{"a.txt", "dir/run.sh", "é.txt"} {
		if _, err := os.Stat(filepath.Join(got, p)); err != nil {
			t.Errorf("the checked-out work tree lacks %s: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(got, ".git", "ocr-import-marks")); err == nil {
		t.Error("Import left its marks file in .git")
	}
}

// TestImportHeadAndNoCheckout: Head moves HEAD to another branch, and
// without Checkout the work tree stays empty.
func TestImportHeadAndNoCheckout(t *testing.T) {
	dir := t.TempDir()
	ids := Import(t, dir, History{Head: "topic", Commits: []Change{
		{Message: "base", Files: map[string]string{"a.txt": "a\n"}},
		{Branch: "topic", From: "main", Message: "head", Files: map[string]string{"a.txt": "b\n"}},
	}})
	if got := Run(t, dir, "rev-parse", "HEAD", "HEAD~1"); got != ids[1]+"\n"+ids[0] {
		t.Errorf("HEAD and HEAD~1 are\n%s\nwant %v", got, ids[1:])
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("a.txt is in the work tree without Checkout")
	}
}

// TestHistoryTemplate: a copy of a HistoryTemplate holds the history, and
// IDs are its commits' ids.
func TestHistoryTemplate(t *testing.T) {
	tp := HistoryTemplate(History{Commits: []Change{
		{Message: "base", Files: map[string]string{"a.txt": "a\n"}}, {Message: "head", Files: map[string]string{"a.txt": "b\n"}}}})
	defer tp.Remove()
	dir := tp.Copy(t)
	ids := tp.IDs()
	if got := Run(t, dir, "rev-parse", "HEAD", "HEAD~1"); len(ids) != 2 || got != ids[1]+"\n"+ids[0] {
		t.Errorf("HEAD and HEAD~1 of the copy are\n%s\nIDs %v", got, ids)
	}
}
