package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileAttributes are .gitattributes a pull request adds to make its
// code look binary to git's diff and grep, so that it escapes review.
var hostileAttributes = []string{
	"*.go -diff\n",
	"* binary\n",
	"*.go binary\n",
	"evil.go -text -diff\n",
	"**/*.go diff=secret\n[attr]hide -diff\n*.go hide\n",
}

func TestDiffAndGrepIgnoreTheWorkTreesAttributes(t *testing.T) {
	t.Parallel()
	for _, attrs := range hostileAttributes {
		t.Run(strings.TrimSpace(attrs), func(t *testing.T) {
			dir := initRepo(t)
			base := commitFiles(t, dir, "base", map[string]string{"evil.go": "package evil\n"})
			head := commitFiles(t, dir, "pr", map[string]string{
				".gitattributes": attrs,
				"evil.go":        "package evil\n\nfunc Steal() { exfiltrate() }\n",
			})
			// In a worktree nested in the checkout too: its own git dir.
			r := openT(t, dir)
			ctx := context.Background()
			diff, err := r.DiffText(ctx, base, head)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(diff, "Binary files") || !strings.Contains(diff, "+func Steal() { exfiltrate() }") {
				t.Errorf("the PR's attributes hid the change:\n%s", diff)
			}
			out, err := r.Grep(ctx, GrepOptions{Pattern: "exfiltrate", Ref: head})
			if err != nil || !strings.Contains(string(out), "func Steal") {
				t.Errorf("code search at the head missed the line (err %v):\n%s", err, out)
			}
		})
	}
}

// The attributes of a linked work tree (git worktree add) are its own
// .gitattributes: the same rule holds there.
func TestDiffIgnoresAttributesInALinkedWorkTree(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	base := commitFiles(t, dir, "base", map[string]string{"evil.go": "package evil\n"})
	head := commitFiles(t, dir, "pr", map[string]string{".gitattributes": "* binary\n", "evil.go": "package evil\n\nvar X = 1\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	gitT(t, dir, "worktree", "add", "-q", wt, head)
	if err := os.WriteFile(filepath.Join(wt, ".gitattributes"), []byte("* -diff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	diff, err := openT(t, wt).DiffText(context.Background(), base, head)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(diff, "Binary files") || !strings.Contains(diff, "+var X = 1") {
		t.Errorf("the work tree's attributes hid the change:\n%s", diff)
	}
}
