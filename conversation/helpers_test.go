package conversation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/githubchat"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

const (
	calcBase = "package svc\n\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a\n}\n"
	calcHead = "package svc\n\n// Div divides.\nfunc Div(a, b int) int {\n\treturn a / b\n}\n"
	// systemMark starts the answers' system prompt.
	systemMark = "You answer questions about a pull request as ocr"
	// findingFP is the fingerprint of ocr's finding in the fixture.
	findingFP = "3c1f0a9d8e7b6a5c4d3e"
)

// world is a pull request on the GitHub fake with ocr's finding on it, a
// real repository at its head, and a scripted model.
type world struct {
	t       *testing.T
	gh      *githubfake.Server
	llm     *llmtest.Server
	src     tools.Source
	diffs   map[string]string
	finding githubfake.Comment
	log     strings.Builder
	chat    conversation.Settings
}

// calcRepo is the repository every world reviews: calcBase, then
// calcHead, and the diff between them, built once per test binary and
// copied into each test.
var calcRepo = newCalcRepo()

// TestMain removes calcRepo after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	calcRepo.tp.Remove()
	os.Exit(code)
}

// calcTemplate is a template repository with its two commits and diff.
type calcTemplate struct {
	tp               *gitrepo.Template
	base, head, diff string
}

func newCalcRepo() *calcTemplate {
	c := &calcTemplate{}
	c.tp = gitrepo.NewTemplate(func(t testing.TB, dir string) {
		ids := gitrepo.Import(t, dir, gitrepo.History{Checkout: true, Commits: []gitrepo.Change{
			{Message: "c", Files: map[string]string{"svc/calc.go": calcBase}},
			{Message: "c", Files: map[string]string{"svc/calc.go": calcHead}}}})
		c.base, c.head = ids[0], ids[1]
		c.diff = gitrepo.Run(t, dir, "diff", c.base, c.head) + "\n"
	})
	return c
}

// copy returns a copy of the repository in a new t.TempDir(), opened.
func (c *calcTemplate) copy(t *testing.T) *git.Repo {
	t.Helper()
	dir := c.tp.Copy(t)
	repo, err := git.Open(context.Background(), dir, git.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = repo.Close() })
	return repo
}

func newWorld(t *testing.T, scripts ...llmtest.Script) *world {
	t.Helper()
	return newWorldAs(t, "", scripts...)
}

// newWorldAs is newWorld with ocr posting as pat's personal access token
// ("" : GITHUB_TOKEN's bot).
func newWorldAs(t *testing.T, pat string, scripts ...llmtest.Script) *world {
	t.Helper()
	repo := calcRepo.copy(t)
	base, head, diff := calcRepo.base, calcRepo.head, calcRepo.diff
	w := &world{t: t, src: tools.RefSource(repo, head), diffs: map[string]string{"svc/calc.go": diff}}
	w.gh = githubfake.New(t, githubfake.Config{Base: base, Head: head, Diff: diff, Title: "Add Div", Body: "Adds Div.",
		Author: githubfake.User{Login: "pr-author", ID: 777001, Type: "User"}, PATUser: pat})
	w.llm = llmtest.New(t, scripts...)
	line := 5
	w.finding = w.gh.AddComment(githubfake.Comment{Body: "**High** · bug\n\nDiv divides by `b` without checking it: a zero `b` panics.\n\n<!-- ocr:fp=" + findingFP + " -->",
		Path: "svc/calc.go", Line: &line, Side: "RIGHT", CommitID: head, User: githubfake.ActionsBot()})
	w.chat = conversation.Settings{Handle: "ocr", Trust: config.DefaultChatTrust, MaxRequests: 8, MaxTokens: 100_000}
	return w
}

func nosleep(context.Context, time.Duration) error { return nil }

// forge is the GitHub forge on the fake, ocr posting as GITHUB_TOKEN's bot.
func (w *world) forge() *githubchat.Forge {
	w.t.Helper()
	f, err := githubchat.New(githubchat.Options{Token: "tok", BaseURL: w.gh.URL, GraphQLURL: w.gh.GraphQLURL(), HTTPClient: w.gh.Client(),
		Owner: "o", Repo: "r", PR: 7, Sleep: nosleep})
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

// handler answers with the scripted model through the real agent.
func (w *world) handler() *conversation.Handler {
	return &conversation.Handler{Forge: w.forge(), Settings: w.chat, Logf: w.logf,
		Material: func(context.Context, bool) (*conversation.Material, error) {
			c, err := llm.New(w.llm.Config(), llm.Options{MaxAttempts: 1, Sleep: nosleep})
			if err != nil {
				return nil, err
			}
			a := agent.New(agent.Config{}, c, tools.Default())
			return &conversation.Material{Ask: a.Ask, Source: w.src, Diffs: w.diffs, Files: []string{"M svc/calc.go (+1/-1)"}}, nil
		}}
}

func (w *world) logf(format string, args ...any) {
	w.log.WriteString(fmt.Sprintf(format, args...) + "\n")
}

// event reads testdata/events/name, its comment ids set to id (and, for a
// reply, in_reply_to_id to root), as GitHub sends them.
func (w *world) event(name string, id, root int64, edit func(map[string]any)) conversation.Event {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "events", name))
	if err != nil {
		w.t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		w.t.Fatal(err)
	}
	c := p["comment"].(map[string]any)
	c["id"] = id
	if _, ok := c["in_reply_to_id"]; ok {
		c["in_reply_to_id"] = root
	}
	if edit != nil {
		edit(p)
	}
	data, _ = json.Marshal(p)
	kind := githubchat.EventIssueComment
	if strings.HasPrefix(name, "review_comment") {
		kind = githubchat.EventReviewComment
	}
	ev, err := githubchat.ParseEvent(kind, data)
	if err != nil {
		w.t.Fatal(err)
	}
	return ev
}

// reply posts a human's reply in ocr's thread on the fake, as the event
// that follows says it was.
func (w *world) reply(body, login, assoc string) githubfake.Comment {
	root := w.finding.ID
	return w.gh.AddComment(githubfake.Comment{Body: body, Path: "svc/calc.go", InReplyTo: &root,
		User: githubfake.User{Login: login, ID: 583231, Type: "User"}, AuthorAssociation: assoc})
}

// writes counts the fake's write requests.
func (w *world) writes() int {
	n := 0
	for k, v := range w.gh.Calls() {
		if !strings.HasPrefix(k, "GET ") && k != githubfake.QueryThreads {
			n += v
		}
	}
	return n
}
