package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// storeFixed puts a nil check back into Get: the code of the findings on
// "ptr := m[k]" and "return *ptr" is gone.
const storeFixed = "package store\n\n// Get returns the value stored under k, or 0.\nfunc Get(m map[string]*int, k string) int {\n" +
	"\tif v := m[k]; v != nil {\n\t\treturn *v\n\t}\n\treturn 0\n}\n\n// Limit is the largest key length.\nconst Limit = 64\n"

// threadFindings are findings on store/store.go: on "return *ptr" (deref),
// on "ptr := m[k]" (lookup) and on the doc comment (doc), as chosen.
func threadFindings(deref, lookup, doc bool) llmtest.Answer {
	var cs []map[string]string
	if deref {
		cs = append(cs, map[string]string{"content": "Dereferencing ptr panics when k is missing.", "existing_code": "return *ptr",
			"category": "bug", "severity": "high"})
	}
	if lookup {
		cs = append(cs, map[string]string{"content": "The lookup ignores whether k is present.", "existing_code": "ptr := m[k]",
			"category": "bug", "severity": "medium"})
	}
	if doc {
		cs = append(cs, map[string]string{"content": "The comment still promises 0 for a missing key.",
			"existing_code": "// Get returns the value stored under k, or 0.", "category": "documentation", "severity": "low"})
	}
	if len(cs) == 0 {
		return llmtest.Calls(llmtest.Done())
	}
	return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": cs}), llmtest.Done())
}

// ocrRoot is ocr's root review comment whose body contains text.
func ocrRoot(t *testing.T, gh *githubfake.Server, text string) githubfake.Comment {
	t.Helper()
	for _, c := range gh.Comments() {
		if c.InReplyTo == nil && c.User == githubfake.ActionsBot() && strings.Contains(c.Body, text) {
			return c
		}
	}
	t.Fatalf("no comment of ocr contains %q", text)
	return githubfake.Comment{}
}

// TestE2EGitHubResolvesGoneThreads: a pull request is reviewed; a person
// answers one of ocr's threads and starts one of their own; a new commit
// removes the code of two findings. The next run resolves exactly ocr's
// unanswered thread through GraphQL; the answered thread and the person's
// stay open; a re-run reads the threads and writes nothing (the review of
// the head is reused: no model request).
func TestE2EGitHubResolvesGoneThreads(t *testing.T) {
	t.Parallel()
	p := newPRRepo(t)
	gh := githubfake.New(t, githubfake.Config{Diff: prDiff(p.testRepo, p.base, p.head), Base: p.base, Head: p.head})
	llm := llmtest.New(t, llmtest.Script{Name: "store", Match: []string{"store/store.go"},
		Answers: []llmtest.Answer{threadFindings(true, true, true), threadFindings(false, false, false)}})
	step := githubStep(t, p.testRepo, gh.URL, "github-pr", "event.json", "pull_request", p.shas())
	setVar(t, "GITHUB_GRAPHQL_URL", gh.GraphQLURL())
	useLLM(t, llm)
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("first review: exit %d\nstderr:\n%s", code, errs)
	}
	t.Logf("API calls of the first review: %v", gh.Calls())
	deref, lookup, doc := ocrRoot(t, gh, "Dereferencing ptr"), ocrRoot(t, gh, "The lookup ignores"), ocrRoot(t, gh, "still promises")
	alice := githubfake.User{Login: "alice", ID: 4242, Type: "User"}
	gh.AddComment(githubfake.Comment{Body: "k is always present here.", Path: lookup.Path, InReplyTo: &lookup.ID, User: alice})
	six := 6
	own := gh.AddComment(githubfake.Comment{Body: "Can this be nil?", Path: "store/store.go", Line: &six, Side: "RIGHT", User: alice})

	p.write("store/store.go", storeFixed)
	p.git("add", "store/store.go")
	p.git("commit", "-q", "-m", "store: check for nil again")
	p.head = p.git("rev-parse", "HEAD")
	gh.Push(p.head, prDiff(p.testRepo, p.base, p.head))
	writeEvent(t, e2ePath("github-pr", "event.json"), step.event, p.shas())
	gh.ResetCalls()
	code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter")
	if code != reporters.ExitOK {
		t.Fatalf("after the push: exit %d\nstderr:\n%s", code, errs)
	}
	calls := gh.Calls()
	t.Logf("API calls of the resolving run: %v", calls)
	if !strings.Contains(errs, "resolved 1 review thread(s) whose finding is gone (1 of them outdated by later commits)") {
		t.Errorf("stderr does not say what was resolved:\n%s", errs)
	}
	if calls[githubfake.QueryThreads] != 1 || calls[githubfake.MutationResolve] != 1 || calls[gh.Route("POST", "reviews")] != 0 {
		t.Errorf("after the push: calls %v, want the threads read once, one resolved, no new review", calls)
	}
	for _, c := range []struct {
		name string
		id   int64
		want bool
	}{{"ocr's thread on the removed deref", deref.ID, true}, {"ocr's thread alice answered", lookup.ID, false},
		{"ocr's thread on the unchanged doc comment", doc.ID, false}, {"alice's own thread", own.ID, false}} {
		if gh.Resolved(c.id) != c.want {
			t.Errorf("%s: resolved=%v, want %v", c.name, gh.Resolved(c.id), c.want)
		}
	}
	s := gh.IssueComments()[0].Body
	if !strings.Contains(s, "Resolved since the last run (2)") || !strings.Contains(s, "thread resolved") ||
		!strings.Contains(s, "thread left open: someone replied") {
		t.Errorf("sticky summary after the push:\n%s", s)
	}

	gh.ResetCalls()
	if code, _, errs := run(t, "review", "--repo", p.dir, "--no-filter"); code != reporters.ExitOK {
		t.Fatalf("re-run: exit %d\nstderr:\n%s", code, errs)
	}
	calls = gh.Calls()
	t.Logf("API calls of the re-run: %v", calls)
	if fakes.Writes(calls) != 0 || calls[githubfake.QueryThreads] != 1 {
		t.Errorf("re-run: calls %v, want the threads read and nothing written", calls)
	}
}
