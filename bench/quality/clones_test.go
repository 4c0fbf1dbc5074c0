package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// TestCheckClonesNamesOnlyWhatIsMissing: a commit of the clone passes, a
// commit it lacks, a tree id and a clone that does not exist are each
// named with the command that fetches them.
func TestCheckClonesNamesOnlyWhatIsMissing(t *testing.T) {
	t.Parallel()
	repos := t.TempDir()
	dir := filepath.Join(repos, "o", "r")
	ids := gitrepo.Import(t, dir, gitrepo.History{Commits: []gitrepo.Change{
		{Message: "base", Files: map[string]string{"a.txt": "a\n"}}, {Message: "head", Files: map[string]string{"a.txt": "b\n"}}}})
	tree := gitrepo.Run(t, dir, "rev-parse", ids[1]+"^{tree}")
	absent := strings.Repeat("1", 40)
	changes := []change{
		{Repo: "o/r", Dir: dir, Source: ids[0], Target: ids[1]},
		{Repo: "o/r", Dir: dir, Source: ids[0], Target: absent},
		{Repo: "o/r", Dir: dir, Source: tree, Target: ids[1]},
		{Repo: "o/gone", Dir: filepath.Join(repos, "o", "gone"), Source: ids[0], Target: ids[1]},
	}
	err := checkClones(context.Background(), changes)
	if err == nil {
		t.Fatal("checkClones found every commit")
	}
	if !strings.HasPrefix(err.Error(), "4 commit(s) missing") {
		t.Errorf("error %q, want 4 missing commits (the absent one, the tree, both in the missing clone)", err)
	}
	for _, want := range []string{"o/r: commit " + absent[:10], "o/r: commit " + tree[:10], "o/gone: commit " + ids[0][:10], "o/gone: commit " + ids[1][:10]} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %q:\n%v", want, err)
		}
	}
	if err := checkClones(context.Background(), changes[:1]); err != nil {
		t.Errorf("the clone's own commits: %v", err)
	}
}
