package runner

import (
	"context"
	"testing"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/git"
	"github.com/ocr-ci/ocr/review"
)

func TestCarryForward(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package a\n\nfunc A() int {\n\treturn 1\n}\n")
	r.write("b.go", "package b\n\nfunc B() int {\n\treturn 2\n}\n")
	base := r.commit("base")
	r.write("a.go", "package a\n\nfunc A() int {\n\tx := risky()\n\treturn x\n}\n")
	r.write("b.go", "package b\n\nfunc B() int {\n\ty := alsoRisky()\n\treturn y\n}\n")
	first := r.commit("first")
	r.write("b.go", "package b\n\n// B is fixed now.\nfunc B() int {\n\ty := safe()\n\treturn y\n}\n")
	r.write("a.go", "package a\n\n// A moved down a line.\n\nfunc A() int {\n\tx := risky()\n\treturn x\n}\n")
	head := r.commit("second")

	ctx := context.Background()
	repo, err := git.Open(ctx, r.dir, git.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeRepo(repo)
	full, inc := &Change{}, &Change{}
	if err := full.loadRange(ctx, repo, base, head); err != nil {
		t.Fatal(err)
	}
	if err := inc.loadRange(ctx, repo, first, head); err != nil {
		t.Fatal(err)
	}
	earlier := []review.Comment{
		{Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 4, EndLine: 4}, ExistingCode: "x := risky()", Content: "still applies"},
		{Location: review.Location{Path: "b.go", Side: review.SideNew, StartLine: 4, EndLine: 4}, ExistingCode: "y := alsoRisky()", Content: "fixed since"},
		{Location: review.Location{Path: "gone.go", Side: review.SideNew, StartLine: 1, EndLine: 1}, ExistingCode: "x", Content: "file left the PR"},
	}
	got := carryForward(ctx, earlier, inc, anchor.NewChangeSet(full.Files))
	if len(got) != 1 || got[0].Content != "still applies" {
		t.Fatalf("carried %+v, want only the finding whose code is still in the pull request", got)
	}
	if got[0].StartLine != 6 || got[0].Side != review.SideNew || !got[0].InHunk {
		t.Errorf("the carried finding must be re-anchored to a.go:6 (new side, in the diff), got %+v", got[0].Location)
	}
}
