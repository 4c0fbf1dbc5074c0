package runner

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// storeVersioned is main's store.go after it moved on: three lines
// inserted above Get, so every line of the pull request's change moves
// down by three while the change itself stays the same.
var storeVersioned = "package store\n\n// Version is the store's format.\nconst Version = 2\n" + storeBase[len("package store\n"):]

// rebaseOnto commits edit on main and rebases feature onto it, as a user
// does before a force-push.
func (p *prRepo) rebaseOnto(path, content string) {
	p.git("checkout", "-q", "main")
	p.write(path, content)
	p.git("add", path)
	p.git("commit", "-q", "-m", "main: "+path)
	p.base = p.git("rev-parse", "HEAD")
	p.git("checkout", "-q", "feature")
	p.git("rebase", "-q", "main")
	p.head = p.git("rev-parse", "HEAD")
}

// sarifJSON is a SARIF file's results, for comparing two runs.
func sarifJSON(t *testing.T, path string) string {
	t.Helper()
	var log struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF %s: %v", path, err)
	}
	return string(log.Runs[0].Results)
}

// sarifLines are the start lines of a SARIF file's results, sorted.
func sarifLines(t *testing.T, path string) []int {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					Physical struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF %s: %v", path, err)
	}
	var out []int
	for _, r := range log.Runs[0].Results {
		out = append(out, r.Locations[0].Physical.Region.StartLine)
	}
	sort.Ints(out)
	return out
}

// ocrRoots counts ocr's root review comments by body: each must be 1.
func ocrRoots(gh *githubfake.Server) map[string]int {
	n := map[string]int{}
	for _, c := range gh.Comments() {
		if c.InReplyTo == nil && c.User == githubfake.ActionsBot() {
			first, _, _ := strings.Cut(c.Body, "\n\n")
			n[c.Path+" "+first]++
		}
	}
	return n
}

func checkNoDuplicates(t *testing.T, roots map[string]int, want int) {
	t.Helper()
	for k, n := range roots {
		if n != 1 {
			t.Errorf("%d comments of ocr for %q, want 1", n, k)
		}
	}
	if len(roots) != want {
		t.Errorf("%d findings posted, want %d: %v", len(roots), want, roots)
	}
}

// TestE2EPayOnceGitHub (the low-severity finding stays in the summary:
// --post-min-severity medium): a pull request reviewed once costs nothing more
// when the job is re-run (the review is reused, every report the same),
// nothing when it is rebased onto a moved base without a change of its
// own (the findings are carried, re-anchored three lines down, and keep
// their threads though GitHub shows them outdated), and only the edited
// file when a rebase comes with an edit. --full still reviews everything.
// A rebase whose edit removes a finding's code resolves its thread, and a
// finding the fresh review of the edited file makes again keeps its own.
func TestE2EPayOnceGitHub(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
	store := storeScript(2)
	store.Answers = append(store.Answers, threadFindings(false, false, true))
	llm := llmtest.New(t, store)
	llm.Add(llmtest.Script{Name: "cache", Match: []string{"cache/cache.go"}, Answers: []llmtest.Answer{cacheComments()}})
	review := func(args ...string) (string, string) {
		t.Helper()
		env, dir := prEnv(t, p, gh.URL, "o/r", "tok")
		env.useLLM(llm)
		env.set("GITHUB_GRAPHQL_URL", gh.GraphQLURL())
		code, _, errs := env.run(t, append([]string{"review", "--repo", p.dir, "--no-filter"}, args...)...)
		if code != reporters.ExitOK {
			t.Fatalf("exit %d\nstderr:\n%s", code, errs)
		}
		return errs, filepath.Join(dir, "ocr.sarif")
	}
	_, firstSARIF := review()
	checkNoDuplicates(t, ocrRoots(gh), 2)

	t.Run("re-run", func(t *testing.T) {
		gh.ResetCalls()
		before := llm.Count()
		errs, sarif := review()
		if n := llm.Count() - before; n != 0 {
			t.Errorf("%d model request(s), want 0", n)
		}
		if got, want := sarifJSON(t, sarif), sarifJSON(t, firstSARIF); got != want {
			t.Errorf("the re-run's SARIF results differ from the review's:\n%s\nwant\n%s", got, want)
		}
		if w := fakes.Writes(gh.Calls()); w != 0 {
			t.Errorf("the re-run wrote to GitHub: %v", gh.Calls())
		}
		if !strings.Contains(errs, "its review is reused (3 finding(s)), no model request") {
			t.Errorf("stderr does not say the review is reused:\n%s", errs)
		}
	})
	t.Run("rebase onto a moved base", func(t *testing.T) {
		p.rebaseOnto("store/store.go", storeVersioned)
		gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
		before := llm.Count()
		errs, sarif := review()
		if n := llm.Count() - before; n != 0 {
			t.Errorf("%d model request(s) after a rebase without a change of its own, want 0", n)
		}
		if want := "rebased onto " + p.base[:12] + ": 1 of 1 files unchanged"; !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
		// A deleted line has no place in the new file: SARIF shows line 1.
		if got := sarifLines(t, sarif); len(got) != 3 || got[0] != 1 || got[1] != 6 || got[2] != 9 {
			t.Errorf("carried findings at lines %v, want 1 (the deleted check), 6 (the doc comment) and 9 (return *ptr): three lines down", got)
		}
		checkNoDuplicates(t, ocrRoots(gh), 2)
		if n := len(gh.Reviews()); n != 1 {
			t.Errorf("%d reviews, want the first only", n)
		}
		if s := gh.IssueComments()[0].Body; !strings.Contains(s, "head `"+p.head[:7]) || !strings.Contains(s, "| Critical | 1 |") {
			t.Errorf("the summary must show the rebased head and every carried finding:\n%s", s)
		}
	})
	t.Run("rebase plus a one-file edit", func(t *testing.T) {
		p.pushCache()
		p.rebaseOnto("README.md", "# store\n\nA map of pointers.\n")
		gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
		before := len(llm.Requests())
		errs, _ := review()
		checkOnlyCacheReviewed(t, llm.Requests()[before:])
		if want := "rebased onto " + p.base[:12] + ": 1 of 2 files unchanged"; !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
		checkNoDuplicates(t, ocrRoots(gh), 3)
	})
	t.Run("--full reviews everything again", func(t *testing.T) {
		before := len(llm.Requests())
		review("--full")
		var asked strings.Builder
		for _, r := range llm.Requests()[before:] {
			raw, _ := json.Marshal(r.Body.Messages)
			asked.Write(raw)
		}
		for _, f := range []string{"store/store.go", "cache/cache.go"} {
			if !strings.Contains(asked.String(), f) {
				t.Errorf("--full did not ask the model about %s", f)
			}
		}
	})
	t.Run("a rebase that removes a finding's code resolves its thread", func(t *testing.T) {
		deref, roots := ocrRoot(t, gh, "Dereferencing ptr"), len(gh.Comments())
		p.rebaseOnto("README.md", "# store\n\nA map of pointers, checked.\n")
		p.write("store/store.go", strings.Replace(storeFixed, "package store\n", "package store\n\n// Version is the store's format.\nconst Version = 2\n", 1))
		p.git("commit", "-q", "--amend", "--no-edit", "store/store.go")
		p.head = p.git("rev-parse", "HEAD")
		gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
		before := len(llm.Requests())
		errs, _ := review()
		for _, r := range llm.Requests()[before:] {
			if r.Script != "store" {
				t.Errorf("request %d is about %q, want store/store.go only", r.Seq, r.Script)
			}
		}
		if !gh.Resolved(deref.ID) || !strings.Contains(errs, "1 of 2 files unchanged") {
			t.Errorf("the thread of the finding whose code is gone: resolved=%v\n%s", gh.Resolved(deref.ID), errs)
		}
		if n := len(gh.Comments()); n != roots {
			t.Errorf("%d comments after the rebase, %d before: the finding found again has its thread", n, roots)
		}
	})
}

// TestE2EPayOnceGitLab: on a merge request, a rebase without a change of
// its own asks the model nothing and posts nothing; a rebase with a new
// file posts that file's finding only.
func TestE2EPayOnceGitLab(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gl := gitlabfake.New(t, gitlabfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.root, Start: p.base, Head: p.head})
	llm := llmtest.New(t, storeScript(1))
	llm.Add(llmtest.Script{Name: "cache", Match: []string{"cache/cache.go"}, Answers: []llmtest.Answer{cacheComments()}})
	gitlabJob(t, p, gl)
	useLLM(t, llm)
	review := func() string {
		t.Helper()
		setVar(t, "CI_COMMIT_SHA", p.head)
		setVar(t, "CI_MERGE_REQUEST_DIFF_BASE_SHA", p.git("merge-base", p.base, p.head))
		code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
		if code != reporters.ExitOK {
			t.Fatalf("exit %d\nstderr:\n%s", code, errs)
		}
		return errs
	}
	review()
	if n := len(gl.Posted()); n != 3 {
		t.Fatalf("%d discussions posted by the first review, want 3", n)
	}
	p.rebaseOnto("store/store.go", storeVersioned)
	gl.Push(p.base, p.base, p.head, prDiff(p.testRepo, p.base, p.head))
	before := llm.Count()
	gl.ResetCalls()
	errs := review()
	if n := llm.Count() - before; n != 0 || len(gl.Posted()) != 3 {
		t.Errorf("after a rebase: %d model request(s), %d discussions; want 0 and still 3\n%s", n, len(gl.Posted()), errs)
	}
	if calls := gl.Calls(); calls["POST "+gl.MRPath()+"/discussions"] != 0 {
		t.Errorf("a rebase posted discussions again: %v", calls)
	}
	p.pushCache()
	p.rebaseOnto("README.md", "# store\n\nA map of pointers.\n")
	gl.Push(p.base, p.base, p.head, prDiff(p.testRepo, p.base, p.head))
	errs = review()
	posted := gl.Posted()
	if len(posted) != 4 || !strings.Contains(posted[3].Body, "negative size") {
		t.Errorf("after a rebase with a new file: %d discussions, want the cache finding added\n%s", len(posted), errs)
	}
}
