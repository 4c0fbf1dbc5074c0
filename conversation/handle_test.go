package conversation_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// A mention in ocr's thread is answered in the thread: the model gets the
// finding, the thread, the code at the head and the read tools, and its
// answer is posted escaped, with ocr's answer marker.
func TestThreadReplyIsAnsweredInThread(t *testing.T) {
	w := newWorld(t, llmtest.Script{Match: []string{systemMark, "is b ever zero"}, Answers: []llmtest.Answer{
		llmtest.Calls(llmtest.Tool("code_search", map[string]any{"search_text": "Div("})),
		llmtest.Text("Only `Div` itself is changed; no caller checks `b`, so a zero `b` still panics. <img src=x> @alice\n@ocr review"),
	}})
	asked := w.reply("@ocr is b ever zero here? callers check it.", "alice", "MEMBER")
	w.gh.Expect(w.gh.RepliesRoute(w.finding.ID))
	out := w.handler().Handle(context.Background(), w.event("review_comment_reply.json", asked.ID, w.finding.ID, nil))
	if out.Err != nil || out.Review || out.Usage.Requests != 2 {
		t.Fatalf("outcome %+v; log:\n%s", out, w.log.String())
	}
	t.Logf("log:\n%s", w.log.String())
	replies := w.gh.Replies(w.finding.ID)
	if len(replies) != 2 {
		t.Fatalf("%d replies in the thread, want the question and ocr's answer", len(replies))
	}
	got := replies[1]
	if got.User != githubfake.ActionsBot() || !strings.HasSuffix(got.Body, "<!-- ocr:answer -->") {
		t.Errorf("answer by %+v:\n%s", got.User, got.Body)
	}
	checkRendered(t, got.Body)
	if r := conversation.Parse(got.Body, "ocr"); r.Asks() {
		t.Errorf("ocr's answer would trigger ocr: %+v", r)
	}
	first := w.llm.Requests()[0].FirstUser()
	for _, want := range []string{"high · bug", "svc/calc.go line 5", "a zero `b` panics", "5: \treturn a / b",
		`<comment author="github-actions[bot]">`, `<question author="alice">`, "is b ever zero here?"} {
		if !strings.Contains(first, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "ocr:fp=") {
		t.Errorf("the prompt carries ocr's hidden marker:\n%s", first)
	}
}

// "@ocr <question>" on the pull request is answered as a comment quoting
// it; the model gets the title, the description, the files and ocr's
// findings so far.
func TestPRQuestionIsAnsweredQuoted(t *testing.T) {
	w := newWorld(t, llmtest.Script{Match: []string{systemMark, "<pull_request>"}, Answers: []llmtest.Answer{
		llmtest.Text("`Div` returns `a / b`; see svc/calc.go:5."),
	}})
	q := w.gh.AddIssueCommentAs(githubfake.User{Login: "alice", ID: 583231, Type: "User"}, "MEMBER", "@ocr why does Div not check b?")
	out := w.handler().Handle(context.Background(), w.event("issue_comment_question.json", q.ID, 0, nil))
	if out.Err != nil || out.Usage.Requests != 1 {
		t.Fatalf("outcome %+v; log:\n%s", out, w.log.String())
	}
	t.Logf("log:\n%s", w.log.String())
	cs := w.gh.IssueComments()
	if len(cs) != 2 {
		t.Fatalf("%d comments, want the question and the answer", len(cs))
	}
	body := cs[1].Body
	if !strings.HasPrefix(body, "> why does Div not check b?\n\n") || !strings.Contains(body, "svc/calc.go:5") {
		t.Errorf("answer:\n%s", body)
	}
	checkRendered(t, body)
	first := w.llm.Requests()[0].FirstUser()
	for _, want := range []string{"<title>Add Div</title>", "Adds Div.", "M svc/calc.go (+1/-1)",
		"high · bug · svc/calc.go line 5: Div divides by", "why does Div not check b?"} {
		if !strings.Contains(first, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, first)
		}
	}
}

// What costs nothing: no mention, an edit, an issue that is no pull
// request, a bot, ocr's own answer (which may say "@ocr"): no model call,
// no write, exit 0, one line saying why.
func TestNothingToDo(t *testing.T) {
	for _, c := range []struct {
		name, event, why string
		edit             func(map[string]any)
	}{
		{"no mention", "issue_comment_plain.json", "neither mentions @ocr", nil},
		{"edited", "issue_comment_edited.json", "was edited, not created", nil},
		{"issue", "issue_comment_on_issue.json", "not a pull request", nil},
		{"bot", "issue_comment_bot.json", "by a bot (dependabot[bot])", nil},
		{"reply without mention", "review_comment_nomention.json", "neither mentions", nil},
		{"ocr's answer", "issue_comment_question.json", "ocr's own", func(p map[string]any) {
			p["comment"].(map[string]any)["body"] = "> @ocr why?\n\nBecause. Ask @ocr again.\n\n<!-- ocr:answer -->"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.gh.ResetCalls()
			out := w.handler().Handle(context.Background(), w.event(c.event, 4242, w.finding.ID, c.edit))
			if out != (conversation.Outcome{}) || len(w.gh.Calls()) != 0 || w.llm.Count() != 0 {
				t.Errorf("outcome %+v, API calls %v, model requests %d", out, w.gh.Calls(), w.llm.Count())
			}
			if lines := strings.Split(strings.TrimSpace(w.log.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], c.why) {
				t.Errorf("log %q, want one line saying %q", w.log.String(), c.why)
			}
		})
	}
}

// ocr posting with a personal access token is a User with an association:
// a comment by that account is never answered, marker or not.
func TestOwnAccountIsNeverAnswered(t *testing.T) {
	w := newWorld(t)
	w.gh = githubfake.New(t, githubfake.Config{PATUser: "ocr-user", Head: "h", Diff: w.diffs["svc/calc.go"]})
	q := w.gh.AddIssueCommentAs(githubfake.User{Login: "ocr-user", ID: 5000001, Type: "User"}, "OWNER", "@ocr why?")
	out := w.handler().Handle(context.Background(), w.event("issue_comment_question.json", q.ID, 0, func(p map[string]any) {
		c := p["comment"].(map[string]any)
		c["body"], c["author_association"] = "@ocr why?", "OWNER"
		c["user"] = map[string]any{"login": "ocr-user", "id": 5000001, "type": "User"}
	}))
	if out.Err != nil || w.llm.Count() != 0 || w.writes() != 0 || !strings.Contains(w.log.String(), "ocr's own account") {
		t.Errorf("outcome %+v, %d model requests, %d writes; log %q", out, w.llm.Count(), w.writes(), w.log.String())
	}
}

// An untrusted mention costs no model call: a short fixed reply, or
// nothing with OCR_CHAT_UNTRUSTED=silent; the pull request's author may
// ask when OCR_CHAT_TRUST says author.
func TestUntrusted(t *testing.T) {
	w := newWorld(t)
	q := w.gh.AddIssueCommentAs(githubfake.User{Login: "stranger", ID: 990001, Type: "User"}, "NONE", "@ocr please approve this")
	ev := w.event("issue_comment_untrusted.json", q.ID, 0, nil)
	if out := w.handler().Handle(context.Background(), ev); out.Err != nil || w.llm.Count() != 0 {
		t.Fatalf("outcome %+v, %d model requests", out, w.llm.Count())
	}
	cs := w.gh.IssueComments()
	if len(cs) != 2 || !strings.Contains(cs[1].Body, "ocr answers only owner, member, collaborator") {
		t.Fatalf("comments %+v", cs)
	}
	w.gh.ResetCalls()
	w.chat.Silent = true
	if out := w.handler().Handle(context.Background(), ev); out.Err != nil || w.writes() != 0 {
		t.Errorf("silent: outcome %+v, %d writes", out, w.writes())
	}
	w.chat.Trust = []string{"OWNER", "author"}
	ev.Comment.Author.Login = "pr-author"
	w.llm.Add(llmtest.Script{Match: []string{systemMark}, Answers: []llmtest.Answer{llmtest.Text("No.")}})
	if out := w.handler().Handle(context.Background(), ev); out.Err != nil || w.llm.Count() != 1 {
		t.Errorf("the author was not answered: outcome %+v, %d requests; log:\n%s", out, w.llm.Count(), w.log.String())
	}
}

// A provider failure is an honest exit 3 with a short reply, never
// silence and never the provider's message in the thread.
func TestProviderFailure(t *testing.T) {
	w := newWorld(t, llmtest.Script{Match: []string{systemMark}, Answers: []llmtest.Answer{
		{Status: 401, Message: "Incorrect API key provided: sk-secret"},
	}})
	asked := w.reply("@ocr is b ever zero here? callers check it.", "alice", "MEMBER")
	out := w.handler().Handle(context.Background(), w.event("review_comment_reply.json", asked.ID, w.finding.ID, nil))
	if out.Err == nil {
		t.Fatalf("outcome %+v", out)
	}
	replies := w.gh.Replies(w.finding.ID)
	body := replies[len(replies)-1].Body
	if !strings.Contains(body, "could not produce an answer this time (provider_error)") || strings.Contains(body, "sk-secret") {
		t.Errorf("reply:\n%s", body)
	}
}

// With OCR_CHAT_REPLIES=all a trusted reply in ocr's thread is answered
// without a mention; in a thread ocr did not open it is not.
func TestAllReplies(t *testing.T) {
	w := newWorld(t, llmtest.Script{Match: []string{systemMark}, Answers: []llmtest.Answer{llmtest.Text("Then it is fine.")}})
	w.chat.AllReplies = true
	asked := w.reply("callers check b, so this is fine", "alice", "MEMBER")
	if out := w.handler().Handle(context.Background(), w.event("review_comment_nomention.json", asked.ID, w.finding.ID, nil)); out.Err != nil || w.llm.Count() != 1 {
		t.Fatalf("outcome %+v, %d requests; log:\n%s", out, w.llm.Count(), w.log.String())
	}
	line := 5
	human := w.gh.AddComment(githubfake.Comment{Body: "nit: rename", Path: "svc/calc.go", Line: &line, Side: "RIGHT",
		User: githubfake.User{Login: "bob", ID: 3, Type: "User"}, AuthorAssociation: "MEMBER"})
	root := human.ID
	other := w.gh.AddComment(githubfake.Comment{Body: "agreed", Path: "svc/calc.go", InReplyTo: &root,
		User: githubfake.User{Login: "alice", ID: 583231, Type: "User"}, AuthorAssociation: "MEMBER"})
	w.gh.ResetCalls()
	out := w.handler().Handle(context.Background(), w.event("review_comment_nomention.json", other.ID, human.ID, nil))
	if out.Err != nil || w.llm.Count() != 1 || w.writes() != 0 || !strings.Contains(w.log.String(), "thread ocr did not open") {
		t.Errorf("outcome %+v, %d requests, %d writes; log:\n%s", out, w.llm.Count(), w.writes(), w.log.String())
	}
}

// A reply whose thread was deleted meanwhile: GitHub answers 404, the run
// says so and exits 3.
func TestDeletedThread(t *testing.T) {
	w := newWorld(t)
	asked := w.reply("/ocr help", "alice", "MEMBER")
	w.gh.DeleteComment(w.finding.ID)
	out := w.handler().Handle(context.Background(), w.event("review_comment_reply.json", asked.ID, w.finding.ID, func(p map[string]any) {
		p["comment"].(map[string]any)["body"] = "/ocr help"
	}))
	if out.Err == nil || !strings.Contains(w.log.String(), "404") {
		t.Errorf("outcome %+v; log:\n%s", out, w.log.String())
	}
}

// A fork's pull request gets the fork caps: here one request, which
// offers no tool, so the model answers at once.
func TestForkCaps(t *testing.T) {
	w := newWorld(t, llmtest.Script{Match: []string{systemMark}, Answers: []llmtest.Answer{llmtest.Text("Short answer.")}})
	w.gh = githubfake.New(t, githubfake.Config{HeadRepo: "fork/r", Head: "h", Diff: w.diffs["svc/calc.go"], Title: "t"})
	h := w.handler()
	h.ForkSettings = h.Settings
	h.ForkSettings.MaxRequests = 1
	out := h.Handle(context.Background(), w.prComment("@ocr why?", "MEMBER"))
	reqs := w.llm.Requests()
	if out.Err != nil || len(reqs) != 1 || len(reqs[0].ToolNames()) != 0 {
		t.Errorf("outcome %+v, %d requests, tools %v", out, len(reqs), reqs[0].ToolNames())
	}
}
