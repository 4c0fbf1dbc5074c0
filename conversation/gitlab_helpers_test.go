package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"text/template"

	"github.com/ocr-ci/ocr/agent"
	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/infra/llm"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/tools"
)

// glBot is the project access token's user ocr posts as.
var glBot = gitlabfake.User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}

// glWorld is a merge request on the GitLab fake with ocr's finding in a
// diff discussion, a real repository at its head, and a scripted model.
type glWorld struct {
	*world
	gl         *gitlabfake.Server
	base, head string
	discussion string
	fork       bool
}

func newGLWorld(t *testing.T, scripts ...llmtest.Script) *glWorld {
	t.Helper()
	w := &glWorld{world: &world{t: t}}
	repo := calcRepo.copy(t)
	w.base, w.head = calcRepo.base, calcRepo.head
	diff := calcRepo.diff
	w.src, w.diffs = tools.RefSource(repo, w.head), map[string]string{"svc/calc.go": diff}
	w.gl = gitlabfake.New(t, gitlabfake.Config{Base: w.base, Start: w.base, Head: w.head, Diff: diff, Bot: glBot})
	w.gl.SetMergeRequest(gitlabfake.MergeRequest{Title: "Add Div", Description: "Adds Div.", Author: gitlabfake.Human("pr-author")})
	w.llm = llmtest.New(t, scripts...)
	line := 5
	w.discussion = w.gl.AddDiscussion(glBot, gitlabfake.DiscussionRequest{
		Body: "**High** · bug\n\nDiv divides by `b` without checking it: a zero `b` panics.\n\n<!-- ocr:fp=" + findingFP + " -->",
		Position: &gitlabfake.Position{BaseSHA: w.base, StartSHA: w.base, HeadSHA: w.head, PositionType: "text",
			OldPath: "svc/calc.go", NewPath: "svc/calc.go", NewLine: &line}})
	w.chat = conversation.Settings{Handle: "ocr", Trust: config.DefaultChatTrust, MaxRequests: 8, MaxTokens: 100_000}
	return w
}

// glForge is the GitLab forge on the fake, as the runner wires it.
func (w *glWorld) glForge() *gitlabchat.Forge {
	w.t.Helper()
	f, err := gitlabchat.New(gitlabchat.Options{BaseURL: w.gl.APIURL(), Token: "tok", HTTPClient: w.gl.Client(), Project: "42", MR: 5, Sleep: nosleep})
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

// glHandle runs one note event as the runner does: parse the payload,
// triage, confirm the note through the API, handle.
func (w *glWorld) glHandle(payload []byte) (conversation.Outcome, *gitlabchat.Forge) {
	w.t.Helper()
	p, err := gitlabchat.ParseEvent(payload)
	if err != nil {
		w.t.Fatal(err)
	}
	f := w.glForge()
	if _, why := conversation.Triage(p.Event, w.chat); why != "" {
		w.logf("nothing to do: %s", why)
		return conversation.Outcome{}, f
	}
	ev := p.Event
	if err := f.Confirm(context.Background(), &ev); err != nil {
		w.t.Fatal(err)
	}
	h := &conversation.Handler{Forge: f, Settings: w.chat, ForkSettings: w.chat, Logf: w.logf,
		Material: func(context.Context, bool) (*conversation.Material, error) {
			c, err := llm.New(w.llm.Config(), llm.Options{MaxAttempts: 1, Sleep: nosleep})
			if err != nil {
				return nil, err
			}
			a := agent.New(agent.Config{}, c, tools.Default())
			return &conversation.Material{Ask: a.Ask, Source: w.src, Diffs: w.diffs, Files: []string{"M svc/calc.go (+1/-1)"}}, nil
		}}
	if w.fork {
		h.ForkSettings.MaxRequests = 1
	}
	return h.Handle(context.Background(), ev), f
}

// payload renders testdata/events/name for note n in discussion disc.
func (w *glWorld) payload(name string, n gitlabfake.Note, disc string, edit func(map[string]any)) []byte {
	w.t.Helper()
	tmpl, err := template.ParseFiles(filepath.Join("testdata", "events", name))
	if err != nil {
		w.t.Fatal(err)
	}
	body, _ := json.Marshal(n.Body)
	source := 42
	if w.fork {
		source = 77
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, map[string]any{"ID": n.ID, "Discussion": disc, "Body": string(body), "Base": w.base,
		"Head": w.head, "SourceProject": source}); err != nil {
		w.t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b.Bytes(), &p); err != nil {
		w.t.Fatalf("%s does not render to JSON: %v", name, err)
	}
	p["user"].(map[string]any)["id"], p["user"].(map[string]any)["username"] = n.Author["id"], n.Author["username"]
	if edit != nil {
		edit(p)
	}
	out, _ := json.Marshal(p)
	return out
}

// replyInThread is u's reply in ocr's discussion and its note event.
func (w *glWorld) replyInThread(u gitlabfake.User, body string) []byte {
	n := w.gl.ReplyAs(w.discussion, u, body)
	return w.payload("gitlab-diffnote-reply.json", n, w.discussion, nil)
}

// mrNote is u's note on the merge request and its note event.
func (w *glWorld) mrNote(u gitlabfake.User, body string) []byte {
	disc := w.gl.AddNote(u, body)
	for _, d := range w.gl.Discussions() {
		if d.ID == disc {
			return w.payload("gitlab-mr-note.json", *d.Notes[0], disc, nil)
		}
	}
	w.t.Fatal("the note is not on the fake")
	return nil
}

// thread is the notes of ocr's discussion.
func (w *glWorld) thread() []*gitlabfake.Note {
	for _, d := range w.gl.Discussions() {
		if d.ID == w.discussion {
			return d.Notes
		}
	}
	return nil
}

// member makes u a member at level.
func (w *glWorld) member(u gitlabfake.User, level int, inherited bool) gitlabfake.User {
	w.gl.AddMember(gitlabfake.Member{User: u, AccessLevel: level, Inherited: inherited})
	return u
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
