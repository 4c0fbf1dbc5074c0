package incremental

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// fileN is the content of file i of the pull request's base, and
// fileNChanged its content on the feature branch.
func fileN(i int) string {
	return fmt.Sprintf("package p%d\n\nfunc F%d() int {\n\tx := %d\n\treturn x\n}\n", i, i, i)
}

func fileNChanged(i int) string {
	return fmt.Sprintf("package p%d\n\nfunc F%d() int {\n\tx := risky%d()\n\treturn x\n}\n", i, i, i)
}

// history is a pull request of three files (f0..f2.go) reviewed at last,
// with one finding per file.
type history struct {
	*testRepo
	base, last string
	findings   []review.Comment
}

// historyRepo is newHistory's repository, built once per test binary:
// base on main, then feature's commit on feature, checked out.
var historyRepo = gitrepo.HistoryTemplate(gitrepo.History{Head: "feature", Checkout: true, Commits: []gitrepo.Change{
	{Message: "base", Files: filesOf(fileN)},
	{Branch: "feature", From: "main", Message: "feature", Files: filesOf(fileNChanged)},
}})

// TestMain removes historyRepo after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	historyRepo.Remove()
	os.Exit(code)
}

// filesOf is f0.go..f2.go with content(i).
func filesOf(content func(int) string) map[string]string {
	files := map[string]string{}
	for i := range 3 {
		files[fmt.Sprintf("f%d.go", i)] = content(i)
	}
	return files
}

func newHistory(t *testing.T) *history {
	r := &testRepo{t: t, dir: historyRepo.Copy(t)}
	var fs []review.Comment
	for i := range 3 {
		code := fmt.Sprintf("x := risky%d()", i)
		fs = append(fs, review.Comment{Location: review.Location{Path: fmt.Sprintf("f%d.go", i), Side: review.SideNew, StartLine: 4, EndLine: 4},
			ExistingCode: code, Content: "risky", Category: review.CategoryBug, Severity: review.SeverityHigh,
			Fingerprint: review.Fingerprint(fmt.Sprintf("f%d.go", i), review.CategoryBug, code)})
	}
	ids := historyRepo.IDs()
	return &history{testRepo: r, base: ids[0], last: ids[1], findings: fs}
}

// moveMain commits on main a change that moves every line of f0.go and
// f1.go down by two, then rebases feature onto it; edit, when set, is
// then amended into feature's commit.
func (h *history) moveMain(edit func()) (base, head string) {
	h.git("checkout", "-q", "main")
	for i := range 2 {
		h.write(fmt.Sprintf("f%d.go", i), "// Moved.\n\n"+fileN(i))
	}
	base = h.commit("main moves")
	h.git("checkout", "-q", "feature")
	h.git("rebase", "-q", "main")
	if edit != nil {
		edit()
		h.git("add", "-A")
		h.git("commit", "-q", "--amend", "--no-edit")
	}
	return base, h.git("rev-parse", "HEAD")
}

// decideAt runs Decide for the pull request base..head in repo with the
// state of the last review, and returns the scope and the log.
func decideAt(t *testing.T, repo *git.Repo, base, head string, st posting.State) (Scope, *change.Change, preview.Preview, string) {
	t.Helper()
	ctx := context.Background()
	full, err := change.Load(ctx, repo, change.Request{Mode: "range", From: base, To: head})
	if err != nil {
		t.Fatal(err)
	}
	sel := func(_ context.Context, ch *change.Change) []review.FileCoverage {
		return selection.Files(ch.Files, ch.Diffs, selection.Options{MaxFileTokens: 1 << 20})
	}
	var log bytes.Buffer
	p := preview.New(full, sel(ctx, full))
	sc := Decide(ctx, Input{Repo: repo, Change: full, Preview: p, State: st, Found: true, Config: "c", Select: sel,
		Logf: func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }})
	return sc, full, p, sc.Why + "\n" + log.String()
}

func reviewedPaths(p preview.Preview) []string {
	var out []string
	for _, f := range p.Files {
		if f.Reviewed {
			out = append(out, f.Path)
		}
	}
	return out
}

// TestRebaseReviewsOnlyWhatChanged: after a rebase onto a moved base, no
// file is reviewed again and every finding is carried, three of them
// re-anchored two lines down; after a rebase with an edit of one file,
// that file only is reviewed and its earlier finding is not carried (the
// fresh review decides); the others are.
func TestRebaseReviewsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	st := posting.State{Head: h.last, Config: "c", Findings: h.findings}
	base, head := h.moveMain(nil)
	repo := h.open()
	sc, full, p, log := decideAt(t, repo, base, head, st)
	if sc.Kind != Rebase || len(reviewedPaths(sc.Preview)) != 0 || len(sc.Change.Files) != 0 {
		t.Fatalf("rebase without a change of its own: kind %d, reviews %v\n%s", sc.Kind, reviewedPaths(sc.Preview), log)
	}
	if want := "rebased onto " + preview.Short(base) + ": 3 of 3 files unchanged"; !strings.Contains(log, want) {
		t.Errorf("log lacks %q:\n%s", want, log)
	}
	rv := &review.Review{Status: review.StatusComplete}
	carried := sc.Merge(context.Background(), full, p, rv)
	lines := map[string]int{}
	for _, c := range carried {
		lines[c.Path] = c.StartLine
		if !c.Carried || !c.InHunk || c.Fingerprint != review.Fingerprint(c.Path, c.Category, c.ExistingCode) {
			t.Errorf("carried %+v: want Carried, in the diff, its fingerprint kept", c)
		}
	}
	if lines["f0.go"] != 6 || lines["f1.go"] != 6 || lines["f2.go"] != 4 {
		t.Errorf("carried at %v, want f0.go and f1.go two lines down (6), f2.go where it was (4)", lines)
	}
	if len(rv.Files) != 3 || !strings.Contains(rv.Files[0].Detail, "the same change as at "+preview.Short(h.last)) {
		t.Errorf("coverage %+v", rv.Files)
	}

	h2 := newHistory(t)
	st2 := posting.State{Head: h2.last, Config: "c", Findings: h2.findings}
	base2, head2 := h2.moveMain(func() { h2.write("f1.go", strings.Replace(fileNChanged(1), "risky1()", "safer1()", 1)) })
	sc2, full2, p2, log2 := decideAt(t, h2.open(), base2, head2, st2)
	if got := reviewedPaths(sc2.Preview); sc2.Kind != Rebase || len(got) != 1 || got[0] != "f1.go" {
		t.Fatalf("rebase with an edit of f1.go reviews %v (kind %d), want f1.go only\n%s", got, sc2.Kind, log2)
	}
	if !strings.Contains(log2, "2 of 3 files unchanged") || !strings.Contains(log2, "1 reviewed") {
		t.Errorf("log:\n%s", log2)
	}
	carried2 := sc2.Merge(context.Background(), full2, p2, &review.Review{})
	if len(carried2) != 2 || carried2[0].Path != "f0.go" || carried2[1].Path != "f2.go" {
		t.Errorf("carried %+v, want the findings of f0.go and f2.go only", carried2)
	}
}

// TestForcePushOfOtherCodeReviewsIt: a force-push that replaces a file's
// change (same base) reviews that file; one that changes nothing reviews
// nothing. The patch is compared, not the commit.
func TestForcePushOfOtherCodeReviewsIt(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	st := posting.State{Head: h.last, Config: "c", Findings: h.findings}
	h.git("commit", "-q", "--amend", "-m", "reworded")
	reworded := h.git("rev-parse", "HEAD")
	sc, _, _, log := decideAt(t, h.open(), h.base, reworded, st)
	if sc.Kind != Rebase || len(sc.Change.Files) != 0 || !strings.Contains(log, "force-pushed onto the same base") {
		t.Errorf("an amended message: kind %d, files %d\n%s", sc.Kind, len(sc.Change.Files), log)
	}
	h.write("f2.go", "package p2\n\nfunc F2() int { return 0 }\n")
	h.git("commit", "-q", "-a", "--amend", "-m", "other code")
	sc, _, _, log = decideAt(t, h.open(), h.base, h.git("rev-parse", "HEAD"), st)
	if got := reviewedPaths(sc.Preview); len(got) != 1 || got[0] != "f2.go" {
		t.Errorf("other code in f2.go: reviews %v\n%s", got, log)
	}
}

// TestRerunReusesTheReview: the head was reviewed: nothing is reviewed,
// every finding comes back where it was.
func TestRerunReusesTheReview(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	st := posting.State{Head: h.last, Config: "c", Findings: h.findings}
	sc, full, p, log := decideAt(t, h.open(), h.base, h.last, st)
	if sc.Kind != Rerun || !strings.Contains(log, "its review is reused (3 finding(s)), no model request") {
		t.Fatalf("kind %d\n%s", sc.Kind, log)
	}
	rv := &review.Review{}
	carried := sc.Merge(context.Background(), full, p, rv)
	if len(carried) != 3 || len(rv.Files) != 3 {
		t.Fatalf("carried %d findings, %d files", len(carried), len(rv.Files))
	}
	for i, c := range carried {
		if l := c.Location; l.Path != h.findings[i].Path || l.Side != review.SideNew || l.StartLine != 4 || l.EndLine != 4 || !l.InHunk {
			t.Errorf("finding %d at %+v", i, c.Location)
		}
	}
	st.Cut = true
	if sc, _, _, log := decideAt(t, h.open(), h.base, h.last, st); sc.Kind != Full || !strings.Contains(log, "could not record every finding") {
		t.Errorf("a summary that could not record every finding: kind %d\n%s", sc.Kind, log)
	}
	st.Cut, st.Config = false, "other"
	if sc, _, _, log := decideAt(t, h.open(), h.base, h.last, st); sc.Kind != Full || !strings.Contains(log, "configuration changed") {
		t.Errorf("another configuration: kind %d\n%s", sc.Kind, log)
	}
	st.Config, st.Findings = "c", nil
	if sc, _, _, log := decideAt(t, h.open(), h.base, h.last, st); sc.Kind != Full || !strings.Contains(log, "findings could not be read") {
		t.Errorf("unknown findings: kind %d\n%s", sc.Kind, log)
	}
}

// TestRebaseInAShallowClone: in a clone of depth 1, the last reviewed
// head is fetched by SHA when the remote still has it, and the rebase is
// matched; when the remote no longer has it (a force-push left it on no
// ref and it was pruned), the review is full and the log says why.
func TestRebaseInAShallowClone(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	st := posting.State{Head: h.last, Config: "c", Findings: h.findings}
	h.git("tag", "reviewed", h.last) // the remote still has it
	base, head := h.moveMain(nil)
	clone := h.shallowClone(t)
	sc, _, _, log := decideAt(t, clone, base, head, st)
	if sc.Kind != Rebase || len(sc.Change.Files) != 0 {
		t.Errorf("shallow clone, last head on the remote: kind %d\n%s", sc.Kind, log)
	}

	h2 := newHistory(t)
	st2 := posting.State{Head: h2.last, Config: "c", Findings: h2.findings}
	base2, head2 := h2.moveMain(nil)
	h2.git("reflog", "expire", "--expire=now", "--all") // the remote pruned it
	h2.git("gc", "-q", "--prune=now")
	sc2, _, _, log2 := decideAt(t, h2.shallowClone(t), base2, head2, st2)
	if sc2.Kind != Full || !strings.Contains(log2, "full review: the last reviewed head "+preview.Short(h2.last)+" is not in this clone and could not be fetched") {
		t.Errorf("shallow clone, last head gone: kind %d\n%s", sc2.Kind, log2)
	}
}

// shallowClone clones main and feature at depth 1 and opens the clone.
func (r *testRepo) shallowClone(t *testing.T) *git.Repo {
	t.Helper()
	dir := t.TempDir()
	r.git("clone", "-q", "--depth", "1", "--no-single-branch", "file://"+r.dir, dir)
	c := &testRepo{t: t, dir: dir}
	c.git("fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
	return c.open()
}

// TestMergeOfTheBaseBranch: "Update branch" merges the moved base into the
// pull request. The new head descends from the reviewed one, but the
// commits since bring the base's changes, which are not the pull
// request's: they are not reviewed. Files are matched as after a rebase;
// with one file edited too, that file only is reviewed.
func TestMergeOfTheBaseBranch(t *testing.T) {
	t.Parallel()
	h := newHistory(t)
	st := posting.State{Head: h.last, Config: "c", Findings: h.findings}
	h.git("checkout", "-q", "main")
	h.write("other.go", "package other\n\nfunc Other() { panic(\"on main\") }\n")
	for i := range 2 {
		h.write(fmt.Sprintf("f%d.go", i), "// Moved.\n\n"+fileN(i))
	}
	base := h.commit("main moves")
	h.git("checkout", "-q", "feature")
	h.git("merge", "-q", "--no-edit", "main")
	h.write("f2.go", strings.Replace(fileNChanged(2), "risky2()", "safer2()", 1))
	head := h.commit("an edit after the merge")
	sc, full, p, log := decideAt(t, h.open(), base, head, st)
	if got := reviewedPaths(sc.Preview); sc.Kind != Rebase || len(got) != 1 || got[0] != "f2.go" {
		t.Fatalf("after a merge of the base branch and an edit of f2.go: kind %d, reviews %v, want f2.go only\n%s", sc.Kind, got, log)
	}
	if !strings.Contains(log, "the base branch merged in ("+preview.Short(base)+"): 2 of 3 files unchanged") {
		t.Errorf("log:\n%s", log)
	}
	if carried := sc.Merge(context.Background(), full, p, &review.Review{}); len(carried) != 2 {
		t.Errorf("carried %d findings, want those of f0.go and f1.go", len(carried))
	}
}
