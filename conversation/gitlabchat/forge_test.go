package gitlabchat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/conversation/gitlabchat"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/gitlabfake"
)

// bot is the project access token's user ocr posts as.
var bot = gitlabfake.User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}

const (
	disc = "6a9c1750b37d513a43987b574953fceb50b03ce7"
	// diff changes line 5 of svc/calc.go.
	diff = "diff --git a/svc/calc.go b/svc/calc.go\nindex 1111111..2222222 100644\n--- a/svc/calc.go\n+++ b/svc/calc.go\n" +
		"@@ -3,4 +3,4 @@\n // Div divides.\n func Div(a, b int) int {\n-\treturn a\n+\treturn a / b\n }\n"
)

func nosleep(context.Context, time.Duration) error { return nil }

func newFake(t *testing.T) *gitlabfake.Server {
	gl := gitlabfake.New(t, gitlabfake.Config{Base: "b", Start: "b", Head: "h", Diff: diff, Bot: bot})
	gl.SetMergeRequest(gitlabfake.MergeRequest{Title: "Add Div", Description: "Adds Div.", Author: gitlabfake.Human("pr-author")})
	return gl
}

func newForge(t *testing.T, gl *gitlabfake.Server) *gitlabchat.Forge {
	t.Helper()
	f, err := gitlabchat.New(gitlabchat.Options{BaseURL: gl.APIURL(), Token: "tok", HTTPClient: gl.Client(), Project: "42", MR: 5, Sleep: nosleep})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// payload renders the real-shaped note event name (conversation's
// testdata) for note id with body.
func payload(t *testing.T, name string, id int64, body string, edit func(attrs map[string]any)) []byte {
	t.Helper()
	tmpl, err := template.ParseFiles(filepath.Join("..", "testdata", "events", name))
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(body)
	var b bytes.Buffer
	if err := tmpl.Execute(&b, map[string]any{"ID": id, "Discussion": disc, "Body": string(quoted), "Base": "b", "Head": "h", "SourceProject": 42}); err != nil {
		t.Fatal(err)
	}
	if edit == nil {
		return b.Bytes()
	}
	var p map[string]any
	if err := json.Unmarshal(b.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	edit(p["object_attributes"].(map[string]any))
	out, _ := json.Marshal(p)
	return out
}

// The real-shaped note events become the events the core triages: a
// diff note is a thread reply in its discussion (line numbers sent as
// strings), a merge request note a comment; an edit is no "created"; a
// system note is never answered.
func TestParseNoteEvents(t *testing.T) {
	p, err := gitlabchat.ParseEvent(payload(t, "gitlab-diffnote-reply.json", 31, "@ocr why?", nil))
	if err != nil {
		t.Fatal(err)
	}
	c := p.Event.Comment
	if p.Kind != "note" || p.ProjectID != 42 || p.Event.Kind != conversation.ThreadReply || p.Event.Action != "created" || !p.Event.OnPR || p.Event.PR != 5 {
		t.Errorf("event %+v", p)
	}
	if c.ID != 31 || c.Body != "@ocr why?" || !c.InThread || c.Thread != disc || c.Path != "svc/calc.go" || c.Line != 5 || c.Author.Login != "alice" || c.Author.Bot {
		t.Errorf("comment %+v", c)
	}
	p, err = gitlabchat.ParseEvent(payload(t, "gitlab-mr-note.json", 32, "/ocr review", nil))
	if err != nil || p.Event.Kind != conversation.PRComment || p.Event.Comment.InThread || p.Event.Comment.ID != 32 {
		t.Errorf("merge request note: %+v, %v", p.Event, err)
	}
	p, _ = gitlabchat.ParseEvent(payload(t, "gitlab-mr-note.json", 33, "x", func(a map[string]any) { a["action"] = "update" }))
	if p.Event.Action != "updated" {
		t.Error("an edited note read as created")
	}
	p, _ = gitlabchat.ParseEvent(payload(t, "gitlab-mr-note.json", 34, "added 1 commit", func(a map[string]any) { a["system"] = true }))
	if !p.Event.Comment.Author.Bot {
		t.Error("a system note is answerable")
	}
	if _, err := gitlabchat.ParseEvent(payload(t, "gitlab-mr-note.json", 35, "x", func(a map[string]any) { delete(a, "id") })); err == nil ||
		!strings.Contains(err.Error(), "TRIGGER_PAYLOAD") {
		t.Errorf("a note without id: %v", err)
	}
}

// Notes lists every discussion through every page, however GitLab pages
// (offset, over 10,000 items without totals, keyset), with each note in
// its discussion; Confirm replaces the payload's note with the API's.
func TestNotesEveryPaging(t *testing.T) {
	for _, paging := range []gitlabfake.Paging{gitlabfake.PagingOffset, gitlabfake.PagingLarge, gitlabfake.PagingKeyset} {
		gl := newFake(t)
		gl.SetPerPage(2)
		gl.SetPaging(paging)
		alice := gitlabfake.Human("alice")
		line := 5
		thread := gl.AddDiscussion(bot, gitlabfake.DiscussionRequest{Body: "finding",
			Position: &gitlabfake.Position{BaseSHA: "b", StartSHA: "b", HeadSHA: "h", PositionType: "text", OldPath: "svc/calc.go", NewPath: "svc/calc.go", NewLine: &line}})
		reply := gl.ReplyAs(thread, alice, "forged payload says otherwise")
		for range 4 {
			gl.AddNote(alice, "note")
		}
		f := newForge(t, gl)
		notes, err := f.Notes(context.Background())
		if err != nil {
			t.Fatalf("paging %d: %v", paging, err)
		}
		if len(notes) != 6 {
			t.Errorf("paging %d: %d notes, want 6", paging, len(notes))
		}
		ev := conversation.Event{Kind: conversation.PRComment, Comment: conversation.Note{ID: reply.ID, Body: "/ocr pause", Author: conversation.Author{Login: "mallory"}}}
		if err := f.Confirm(context.Background(), &ev); err != nil {
			t.Fatal(err)
		}
		if c := ev.Comment; ev.Kind != conversation.ThreadReply || c.Thread != thread || c.Body != reply.Body || c.Author.Login != "alice" || c.Line != 5 {
			t.Errorf("paging %d: confirmed %+v", paging, ev)
		}
		ev.Comment.ID = 999999
		if err := f.Confirm(context.Background(), &ev); err == nil || !strings.Contains(err.Error(), "not on merge request !5") {
			t.Errorf("paging %d: a note not on the merge request: %v", paging, err)
		}
	}
}

// Replies go to the discussion, comments on the merge request, and
// Resolve resolves the discussion.
func TestReplyCommentResolve(t *testing.T) {
	gl := newFake(t)
	gl.AllowResolveReplied()
	thread := gl.AddDiscussion(bot, gitlabfake.DiscussionRequest{Body: "finding"})
	f := newForge(t, gl)
	ctx := context.Background()
	root := conversation.Note{Thread: thread}
	if err := f.Reply(ctx, root, "answer"); err != nil {
		t.Fatal(err)
	}
	if err := f.Comment(ctx, "on the MR"); err != nil {
		t.Fatal(err)
	}
	if err := f.Resolve(ctx, root); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range gl.Discussions() {
		for _, n := range d.Notes {
			got = append(got, d.ID+"|"+n.Body+"|"+itoa(n.Author["id"])+"|"+map[bool]string{true: "resolved"}[n.Resolved])
		}
	}
	want := []string{thread + "|finding|9042|resolved", thread + "|answer|9042|resolved"}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || !strings.Contains(got[2], "|on the MR|9042|") {
		t.Errorf("discussions %q", got)
	}
	if err := f.Reply(ctx, conversation.Note{ID: 1}, "x"); err == nil {
		t.Error("a reply without a discussion id was sent")
	}
}

func itoa(v any) string { b, _ := json.Marshal(v); return string(b) }

// ocr's own account is the token's user (GET /user); a bot-named user is
// a bot; another user is not ocr, whatever their name.
func TestOwnAccount(t *testing.T) {
	f := newForge(t, newFake(t))
	ctx := context.Background()
	if own, err := f.Own(ctx, conversation.Author{Login: bot.Username, ID: bot.ID}); err != nil || !own {
		t.Errorf("the token's user: %v, %v", own, err)
	}
	if own, _ := f.Own(ctx, conversation.Author{Login: bot.Username, ID: 1}); own {
		t.Error("a user with ocr's name but not its id counted as ocr")
	}
	if !gitlabchat.BotUsername(bot.Username) || gitlabchat.BotUsername("alice") {
		t.Error("BotUsername")
	}
	gl := newFake(t)
	gl.SetUserStatus(401)
	if _, err := newForge(t, gl).Own(ctx, conversation.Author{ID: bot.ID}); err == nil || !strings.Contains(err.Error(), "GET /user") {
		t.Errorf("a refused GET /user: %v", err)
	}
}

// A write's failure names what GitLab meant: a discussion that is gone
// (404), a token that may not write (403).
func TestWriteErrors(t *testing.T) {
	gl := newFake(t)
	f := newForge(t, gl)
	ctx := context.Background()
	err := f.Reply(ctx, conversation.Note{Thread: strings.Repeat("ab", 20)}, "x")
	if !errors.Is(err, conversation.ErrGone) || errors.Is(err, conversation.ErrForbidden) || !strings.Contains(err.Error(), "404") {
		t.Errorf("gone discussion: %v", err)
	}
	gl.SetForbidden(true)
	err = f.Comment(ctx, "x")
	if !errors.Is(err, conversation.ErrForbidden) || errors.Is(err, conversation.ErrGone) || !strings.Contains(err.Error(), "api scope") {
		t.Errorf("forbidden: %v", err)
	}
}

// Trust is membership through /members/all/ (inherited members count),
// Developer and up for the default list; a non-member's 404 is "no"; each
// user is asked once; "author" trusts the merge request's author.
func TestTrustedByMembership(t *testing.T) {
	gl := newFake(t)
	dev, inherited, reporter, blocked := gitlabfake.Human("dev"), gitlabfake.Human("inherited"), gitlabfake.Human("reporter"), gitlabfake.Human("stranger")
	gl.AddMember(gitlabfake.Member{User: dev, AccessLevel: 30})
	gl.AddMember(gitlabfake.Member{User: inherited, AccessLevel: 40, Inherited: true})
	gl.AddMember(gitlabfake.Member{User: reporter, AccessLevel: 20})
	f := newForge(t, gl)
	trust := []string{"OWNER", "MEMBER", "COLLABORATOR"}
	for _, c := range []struct {
		u     gitlabfake.User
		trust []string
		want  bool
	}{
		{dev, trust, true}, {inherited, trust, true}, {reporter, trust, false}, {blocked, trust, false},
		{dev, trust, true}, // asked again: answered from memory
		{gitlabfake.Human("pr-author"), append(trust, conversation.TrustAuthor), true},
	} {
		got, err := f.Trusted(context.Background(), conversation.Author{Login: c.u.Username, ID: c.u.ID}, c.trust, "pr-author")
		if err != nil || got != c.want {
			t.Errorf("%s: %v, %v; want %v", c.u.Username, got, err, c.want)
		}
	}
	asked := 0
	for route, n := range gl.Calls() {
		if strings.Contains(route, "/members/all/") {
			asked += n
		}
	}
	if asked != 4 {
		t.Errorf("membership asked %d times, want 4 (once per user)", asked)
	}
}

// The merge request is read from the API: a fork's (another source
// project) gets the fork caps.
func TestPullRequestFork(t *testing.T) {
	for _, src := range []int64{0, 77} {
		gl := newFake(t)
		gl.SetMergeRequest(gitlabfake.MergeRequest{Title: "Add Div", Author: gitlabfake.Human("pr-author"), SourceProject: src})
		pr, err := newForge(t, gl).PullRequest(context.Background())
		if err != nil || pr.Title != "Add Div" || pr.Author != "pr-author" || pr.Fork != (src != 0) || pr.Closed {
			t.Errorf("source project %d: %+v, %v", src, pr, err)
		}
	}
}
