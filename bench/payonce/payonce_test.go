package payonce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/runner"
)

// step is one run of the sequence and what it cost.
type step struct {
	name     string
	requests int
	prompt   int
	files    []string // the files the model was asked about
	findings int      // in the run's report
	log      string
}

// TestPayOnce runs the sequence twice in one process — as ocr reviews it
// and with --full on every run (what each run cost before ocr reused
// earlier reviews) — prints the table and checks the targets.
func TestPayOnce(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 10
	}
	// The two sequences share nothing (each has its repository and fakes):
	// they run side by side.
	var steps, before []step
	var dups, dupsBefore []string
	t.Run("sequences", func(t *testing.T) {
		t.Run("incremental", func(t *testing.T) {
			t.Parallel()
			steps, dups = sequence(t, n)
		})
		t.Run("full", func(t *testing.T) {
			t.Parallel()
			before, dupsBefore = sequence(t, n, "--full")
		})
	})
	if t.Failed() {
		t.FailNow()
	}
	report(t, steps, before, dups, dupsBefore)

	full := steps[0]
	if full.requests == 0 || len(full.files) != n {
		t.Fatalf("the full review asked about %d of %d files in %d requests", len(full.files), n, full.requests)
	}
	for _, s := range steps[1:] {
		if s.findings != n {
			t.Errorf("%s: %d findings reported, want the %d that still apply\n%s", s.name, s.findings, n, s.log)
		}
		switch s.name {
		case "re-run", "rebase onto a moved base":
			if s.requests != 0 {
				t.Errorf("%s: %d requests, target 0\n%s", s.name, s.requests, s.log)
			}
		default:
			if 10*s.prompt > full.prompt || len(s.files) != 1 {
				t.Errorf("%s: %d prompt tokens (%.1f%% of the full review's), files %v; target ≤ 10%%, one file\n%s",
					s.name, s.prompt, pct(s.prompt, full.prompt), s.files, s.log)
			}
		}
	}
	if len(dups) != 0 {
		t.Errorf("findings posted more than once: %v", dups)
	}
}

// sequence reviews a pull request of n files through its life: in full,
// then a one-file push, a rebase onto a moved base, a rebase with a
// one-file edit, a re-run and a merge of the base with a one-file edit,
// each with args. It returns each run's cost
// and the findings posted more than once.
func sequence(t *testing.T, n int, args ...string) ([]step, []string) {
	b := newBench(t, n)
	steps := []step{b.review("full review of the pull request", args...)}
	b.edit(0, "one-file push")
	steps = append(steps, b.review("one-file push", args...))
	b.rebase(nil)
	steps = append(steps, b.review("rebase onto a moved base", args...))
	b.rebase(func() { b.edit(n/2, "") })
	steps = append(steps, b.review("rebase + one-file edit", args...))
	steps = append(steps, b.review("re-run", args...))
	b.mergeBase(func() { b.edit(n-1, "") })
	steps = append(steps, b.review("merge of the base + one-file edit", args...))
	return steps, b.duplicates()
}

// report prints the table (go test -v shows it): each run's cost, and the
// same run's with --full, as ratios of the full review's prompt tokens.
func report(t *testing.T, steps, before []step, dups, dupsBefore []string) {
	var out bytes.Buffer
	w := tabwriter.NewWriter(&out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "run\trequests\tprompt tokens\tof full\tfiles asked\tfindings\twith --full: requests\tprompt tokens\t")
	for i, s := range steps {
		fmt.Fprintf(w, "%s\t%d\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t\n", s.name, s.requests, s.prompt, pct(s.prompt, steps[0].prompt),
			len(s.files), s.findings, before[i].requests, before[i].prompt)
	}
	_ = w.Flush()
	fmt.Fprintf(&out, "duplicate comments across the sequence: %d (with --full on every run: %d)\n", len(dups), len(dupsBefore))
	t.Logf("\n%s", out.String())
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// bench is the pull request, its fakes and the scripted model.
type bench struct {
	t          *testing.T
	dir        string
	n          int
	base, head string
	gh         *githubfake.Server
	llm        *llmtest.Server
	edits      map[int]int
	moves      int
}

func newBench(t *testing.T, n int) *bench {
	b := &bench{t: t, dir: t.TempDir(), n: n, edits: map[int]int{}}
	baseFiles, featureFiles := map[string]string{"README.md": "# the project\n"}, map[string]string{}
	for i := range n {
		baseFiles[path(i)], featureFiles[path(i)] = base(i), feature(i, 0)
	}
	ids := gitrepo.Import(t, b.dir, gitrepo.History{Head: "feature", Checkout: true, Commits: []gitrepo.Change{
		{Message: "base", Files: baseFiles},
		{Branch: "feature", From: "main", Message: "feature: every file", Files: featureFiles},
	}})
	b.base, b.head = ids[0], ids[1]
	b.gh = githubfake.New(t, githubfake.Config{Diff: b.diff(), Base: b.base, Head: b.head})
	b.llm = llmtest.New(t)
	for i := range n {
		b.llm.Add(llmtest.Script{Name: path(i), Match: []string{`<file path="` + path(i) + `">`}, Repeat: true,
			Answers: []llmtest.Answer{llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{
				{"content": "risky" + num(i) + " can fail and its error is dropped.", "existing_code": "x := risky" + num(i) + "()",
					"category": "bug", "severity": "high"}}}), llmtest.Done())}})
	}
	return b
}

func num(i int) string  { return fmt.Sprintf("%02d", i) }
func path(i int) string { return "pkg" + num(i) + "/f.go" }

// base is file i on main: a function of some thirty lines.
func base(i int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "package pkg%s\n\n// F%s computes a value.\nfunc F%s() int {\n\tx := 0\n", num(i), num(i), num(i))
	for k := range 30 {
		fmt.Fprintf(&s, "\tx += %d // step %d of the computation\n", k*i, k)
	}
	s.WriteString("\treturn x\n}\n")
	return s.String()
}

// feature is file i on the branch after edits edits of its own, each a
// line below the one the finding quotes.
func feature(i, edits int) string {
	risky := "\tx := risky" + num(i) + "()\n"
	s := strings.Replace(base(i), "\tx := 0\n", risky, 1)
	for e := range edits {
		s = strings.Replace(s, risky, risky+fmt.Sprintf("\tx = clamp(x, %d)\n", e), 1)
	}
	return s
}

// edit changes file i on the branch; a message commits it.
func (b *bench) edit(i int, msg string) {
	b.edits[i]++
	b.write(i, feature(i, b.edits[i]))
	if msg != "" {
		b.head = b.commit(msg)
	}
}

// rebase moves main (the first half of the files get a header, so their
// lines move down; a new file) and rebases the branch onto it; amend,
// when set, changes the branch before it is force-pushed.
func (b *bench) rebase(amend func()) {
	b.moveMain()
	b.git("checkout", "-q", "feature")
	b.git("rebase", "-q", "main")
	if amend != nil {
		amend()
		b.git("add", "-A")
		b.git("commit", "-q", "--amend", "--no-edit")
	}
	b.head = b.rev("HEAD")
}

// mergeBase moves main as rebase does and merges it into the branch
// ("Update branch"), then edit changes the branch in a commit of its own.
func (b *bench) mergeBase(edit func()) {
	b.moveMain()
	b.git("checkout", "-q", "feature")
	b.git("merge", "-q", "--no-edit", "main")
	edit()
	b.head = b.commit("an edit after the merge")
}

// moveMain commits on main: a header on the first half of the files (on
// main, their lines move down) and a new file.
func (b *bench) moveMain() {
	b.git("checkout", "-q", "main")
	b.moves++
	for i := range b.n / 2 {
		b.writeAt(path(i), fmt.Sprintf("// Copyright the authors (%d).\n// Licensed under the MIT licence.\n\n", b.moves)+readAt(b.t, filepath.Join(b.dir, path(i))))
	}
	b.writeAt(fmt.Sprintf("moved/m%d.go", b.moves), "package moved\n")
	b.base = b.commit("main moves on")
}

// review runs ocr on the pull request as a GitHub Actions step would.
func (b *bench) review(name string, args ...string) step {
	b.t.Helper()
	b.gh.Push(b.head, b.diff())
	before := len(b.llm.Requests())
	dir := b.t.TempDir()
	event := filepath.Join(dir, "event.json")
	payload := fmt.Sprintf(`{"number":7,"pull_request":{"number":7,"base":{"sha":%q,"repo":{"full_name":"o/r"}},`+
		`"head":{"sha":%q,"repo":{"full_name":"o/r"}}},"repository":{"full_name":"o/r","default_branch":"main"}}`, b.base, b.head)
	if err := os.WriteFile(event, []byte(payload), 0o600); err != nil {
		b.t.Fatal(err)
	}
	jsonPath := filepath.Join(dir, "ocr.json")
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": b.gh.URL, "GITHUB_GRAPHQL_URL": b.gh.GraphQLURL(),
		"GITHUB_SERVER_URL": "https://github.example", "GITHUB_TOKEN": "tok", "GITHUB_SHA": b.head,
		"OCR_LLM_URL": b.llm.URL, "OCR_LLM_TOKEN": llmtest.Token, "OCR_LLM_MODEL": llmtest.Model}
	var out, errs bytes.Buffer
	c := &runner.Command{Stdout: &out, Stderr: &errs, LookupEnv: config.MapLookup(env)}
	code := c.Main(context.Background(), append([]string{"ocr", "review", "--repo", b.dir, "--no-filter",
		"--report", "github-review", "--report", "json=" + jsonPath}, args...))
	if code != 0 {
		b.t.Fatalf("%s: exit %d\n%s", name, code, errs.String())
	}
	var rv struct {
		Usage    review.Usage      `json:"usage"`
		Comments []json.RawMessage `json:"comments"`
	}
	if err := json.Unmarshal([]byte(readAt(b.t, jsonPath)), &rv); err != nil {
		b.t.Fatal(err)
	}
	s := step{name: name, requests: rv.Usage.Requests, prompt: rv.Usage.PromptTokens, findings: len(rv.Comments), log: errs.String()}
	asked := map[string]bool{}
	for _, r := range b.llm.Requests()[before:] {
		asked[r.Script] = true
	}
	for f := range asked {
		s.files = append(s.files, f)
	}
	if s.requests != len(b.llm.Requests())-before {
		b.t.Errorf("%s: the report counts %d requests, the model served %d", name, s.requests, len(b.llm.Requests())-before)
	}
	return s
}

// duplicates lists the findings ocr posted more than once on the pull
// request (by path and first line of the comment).
func (b *bench) duplicates() []string {
	seen := map[string]int{}
	for _, c := range b.gh.Comments() {
		if c.InReplyTo == nil {
			first, _, _ := strings.Cut(c.Body, "\n\n")
			seen[c.Path+" "+first]++
		}
	}
	var out []string
	for k, n := range seen {
		if n > 1 {
			out = append(out, fmt.Sprintf("%s (%d times)", k, n))
		}
	}
	return out
}

func (b *bench) diff() string {
	mb := b.git("merge-base", b.base, b.head)
	return b.git("diff", "--no-color", "--no-ext-diff", "-U3", "--find-renames", mb, b.head) + "\n"
}

func (b *bench) rev(ref string) string { return b.git("rev-parse", ref) }

func (b *bench) write(i int, content string) {
	if i < 0 {
		b.writeAt("README.md", content)
		return
	}
	b.writeAt(path(i), content)
}

func (b *bench) writeAt(rel, content string) {
	gitrepo.WriteFiles(b.t, b.dir, map[string]string{rel: content})
}

// commit commits the work tree and returns the commit's id.
func (b *bench) commit(msg string) string {
	b.t.Helper()
	return gitrepo.Commit(b.t, b.dir, msg)
}

func (b *bench) git(args ...string) string {
	b.t.Helper()
	return gitrepo.Run(b.t, b.dir, args...)
}

func readAt(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
