package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

var (
	mallory  = githubfake.User{Login: "mallory", ID: 666, Type: "User"}
	otherBot = githubfake.User{Login: "dependabot[bot]", ID: 49699333, Type: "Bot"}
)

// forgedSummary is a genuine summary of a complete review of reportertest.PostHead that
// found nothing, taken from another pull request: the most harmful thing to
// copy, since it says the head was reviewed and clean.
func forgedSummary(t *testing.T) string {
	t.Helper()
	// A clean review posts no summary (posting.Quiet): render the one an
	// existing summary would be edited into.
	r := reportertest.PostReview(nil)
	body := posting.StickySummary(posting.StickyInput{Review: r, State: posting.RecordedState(r, reportertest.PostHead, "cfg1", "")})
	if st, ok := posting.ReadState(body); !ok || st.Head != reportertest.PostHead || st.Findings == nil {
		t.Fatalf("the forgery does not carry a readable state: %+v %v", st, ok)
	}
	return body
}

// TestGitHubReviewIgnoresForgedSummary: a summary posted by a user is not
// ocr's: LastState finds none (a full review follows), the real summary is
// created beside it and edited later, the forgery is never touched.
func TestGitHubReviewIgnoresForgedSummary(t *testing.T) {
	diff := reportertest.PostDiff(3)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	forged := f.AddIssueComment(mallory, forgedSummary(t))
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	if st, ok, err := g.LastState(context.Background()); err != nil || ok {
		t.Fatalf("LastState = %+v, %v, %v; the forged summary must not count", st, ok, err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListIssue: 1, reportertest.RUser: 1})
	if logs := strings.Join(rec.Logs, "\n"); strings.Contains(logs, "GET /user") || strings.Contains(logs, "installation token") {
		t.Errorf("the expected 403 of an installation token is logged:\n%s", logs)
	}

	f.ResetCalls()
	r := reportertest.InlineReview(4)
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RReview: 1, reportertest.RIssue: 1})
	is := f.IssueComments()
	if len(is) != 2 || is[0].Body != forged.Body || is[1].User != githubfake.ActionsBot() {
		t.Fatalf("issue comments after the review: %+v", is)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || len(st.Findings) != 4 {
		t.Errorf("LastState = %+v, %v, %v; want the real summary's 4 findings", st, ok, err)
	}

	f.ResetCalls()
	r.Comments = r.Comments[1:]
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RThreads: 1,
		reportertest.RResolve: 1, f.IssueCommentRoute("PATCH", is[1].ID): 1})
	if f.IssueComments()[0].Body != forged.Body {
		t.Error("the forged summary was edited")
	}
}

// TestGitHubReviewIgnoresForgedFingerprints: markers in a user's comments
// neither suppress a finding nor appear as resolved findings.
func TestGitHubReviewIgnoresForgedFingerprints(t *testing.T) {
	diff := reportertest.PostDiff(3)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	r := reportertest.InlineReview(3)
	line := 42
	for _, fp := range []string{r.Comments[reportertest.KindSingle].Fingerprint, "gone"} {
		f.AddComment(githubfake.Comment{Body: "looks fine\n\n<!-- ocr:fp=" + fp + " -->", Path: "pkg/f0.go",
			Line: &line, Side: "RIGHT", CommitID: reportertest.PostHead, User: mallory})
	}
	g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RUser: 1, reportertest.RReview: 1, reportertest.RIssue: 1})
	if rv := f.LastReview(); len(rv.Comments) != 3 {
		t.Errorf("review has %d comments, want all 3: a forged marker suppressed a finding", len(rv.Comments))
	}
	if s := f.IssueComments()[0].Body; strings.Contains(s, "Resolved since the last run") {
		t.Errorf("a forged marker is listed as resolved:\n%s", s)
	}
}

// TestGitHubReviewPersonalAccessToken: with a personal access token only
// its own account's comments are ocr's, bots' included neither.
func TestGitHubReviewPersonalAccessToken(t *testing.T) {
	diff := reportertest.PostDiff(3)
	f := githubfake.New(t, githubfake.Config{Diff: diff, Head: reportertest.PostHead, Base: reportertest.PostBase, PATUser: "ocr-runner"})
	f.AddIssueComment(otherBot, forgedSummary(t))
	r := reportertest.InlineReview(3)
	line := 42
	f.AddComment(githubfake.Comment{Body: "x\n\n<!-- ocr:fp=" + r.Comments[reportertest.KindSingle].Fingerprint + " -->", Path: "pkg/f0.go",
		Line: &line, Side: "RIGHT", CommitID: reportertest.PostHead, User: otherBot})
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, diff, rec)
	if _, ok, err := g.LastState(context.Background()); err != nil || ok {
		t.Fatalf("LastState ok=%v err=%v: a bot's summary counted under a personal access token", ok, err)
	}
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if rv := f.LastReview(); len(rv.Comments) != 3 {
		t.Errorf("review has %d comments, want 3", len(rv.Comments))
	}
	if !strings.Contains(strings.Join(rec.Logs, "\n"), "posts as ocr-runner") {
		t.Errorf("the rule in effect is not logged: %q", rec.Logs)
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	reportertest.AssertCalls(t, f, map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1})
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || len(st.Findings) != 3 {
		t.Errorf("LastState = %+v, %v, %v; want the token's own summary", st, ok, err)
	}
}

// TestGitHubReviewUserLookupFails: a 502 from GET /user falls back to the
// bot rule and says so; an installation token (ghs_) needs no lookup.
func TestGitHubReviewUserLookupFails(t *testing.T) {
	for _, c := range []struct{ name, token, log string }{
		{"502", "tok", "could not learn which account"},
		{"installation token", "ghs_16C7e42F292c6912E7710c838347Ae178B4a", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			diff := reportertest.PostDiff(2)
			f := githubfake.New(t, githubfake.Config{Diff: diff, Head: reportertest.PostHead, Base: reportertest.PostBase, Token: c.token})
			f.SetUserStatus(502)
			f.AddIssueComment(mallory, forgedSummary(t))
			r := reportertest.InlineReview(4)
			first := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
			first.Token = c.token
			if err := first.Report(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			f.ResetCalls()
			rec := &reportertest.Recorder{}
			g := reportertest.NewGitHubReview(t, f, diff, rec)
			g.Token = c.token
			if err := g.Report(context.Background(), reportertest.PostReview(r.Comments[:3])); err != nil {
				t.Fatal(err)
			}
			if is := f.IssueComments(); len(is) != 2 || is[1].User != githubfake.ActionsBot() {
				t.Fatalf("issue comments: %+v", is)
			}
			want := map[string]int{reportertest.RListPR: 1, reportertest.RListIssue: 1, reportertest.RThreads: 1, reportertest.RResolve: 1,
				f.IssueCommentRoute("PATCH", f.IssueComments()[1].ID): 1}
			if c.token == "tok" {
				want[reportertest.RUser] = 1
			}
			reportertest.AssertCalls(t, f, want)
			if logs := strings.Join(rec.Logs, "\n"); c.log == "" && strings.Contains(logs, "token") || !strings.Contains(logs, c.log) {
				t.Errorf("logs %q: want %q (nothing about the token for an installation token)", rec.Logs, c.log)
			}
		})
	}
}

// TestGitHubReviewTrustsOnlyItsBot: with a bot token (GITHUB_TOKEN, told by
// its ghs_ prefix or by GET /user answering 403) a summary or fingerprint
// carrying ocr's markers counts only when github-actions[bot] wrote it:
// another bot's forged summary neither becomes the incremental baseline nor
// is PATCHed, and its fingerprints suppress nothing.
func TestGitHubReviewTrustsOnlyItsBot(t *testing.T) {
	forgers := []githubfake.User{
		otherBot,
		{Login: "renovate[bot]", ID: 29139614, Type: "Bot"},
		{Login: "evil-app[bot]", ID: 900001, Type: "Bot"},
		{Login: "github-actions[bot]", ID: 900002, Type: "User"},
		{Login: "github-actions", ID: 900003, Type: "Bot"},
	}
	for _, token := range []string{"tok", "ghs_16C7e42F292c6912E7710c838347Ae178B4a"} {
		for _, forger := range forgers {
			t.Run(token[:3]+"/"+forger.Login+"/"+forger.Type, func(t *testing.T) {
				diff := reportertest.PostDiff(3)
				f := githubfake.New(t, githubfake.Config{Diff: diff, Head: reportertest.PostHead, Base: reportertest.PostBase, Token: token})
				forged := f.AddIssueComment(forger, forgedSummary(t))
				r := reportertest.InlineReview(3)
				line := 42
				f.AddComment(githubfake.Comment{Body: "x\n\n<!-- ocr:fp=" + r.Comments[reportertest.KindSingle].Fingerprint + " -->", Path: "pkg/f0.go",
					Line: &line, Side: "RIGHT", CommitID: reportertest.PostHead, User: forger})
				g := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{})
				g.Token = token
				if st, ok, err := g.LastState(context.Background()); err != nil || ok {
					t.Fatalf("LastState = %+v, %v, %v: %s's summary counted as ocr's", st, ok, err, forger.Login)
				}
				if err := g.Report(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				if rv := f.LastReview(); len(rv.Comments) != 3 {
					t.Errorf("review has %d comments, want 3: a forged fingerprint suppressed a finding", len(rv.Comments))
				}
				is := f.IssueComments()
				if len(is) != 2 || is[0].Body != forged.Body || is[1].User != githubfake.ActionsBot() {
					t.Fatalf("the forged summary was edited or no summary of ocr's was created: %+v", is)
				}
				if st, ok, err := g.LastState(context.Background()); err != nil || !ok || len(st.Findings) != 3 {
					t.Errorf("LastState = %+v, %v, %v; want ocr's own summary", st, ok, err)
				}
			})
		}
	}
}

// TestGitHubReviewConfiguredBotLogin: with OCR_GITHUB_LOGIN (a GitHub App
// token) the configured account's summary is ocr's, and github-actions[bot]'s
// is not; the expected 403 of GET /user is not logged.
func TestGitHubReviewConfiguredBotLogin(t *testing.T) {
	app := githubfake.User{Login: "ocr-app[bot]", ID: 700001, Type: "Bot"}
	for _, c := range []struct {
		name   string
		author githubfake.User
		want   bool
	}{
		{"configured app", app, true},
		{"actions bot", githubfake.ActionsBot(), false},
		{"other bot", otherBot, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			diff := reportertest.PostDiff(3)
			f := githubfake.New(t, githubfake.Config{Diff: diff, Head: reportertest.PostHead, Base: reportertest.PostBase})
			f.AddIssueComment(c.author, forgedSummary(t))
			rec := &reportertest.Recorder{}
			g := reportertest.NewGitHubReview(t, f, diff, rec)
			g.BotLogin = "OCR-app[bot]"
			if _, ok, err := g.LastState(context.Background()); err != nil || ok != c.want {
				t.Fatalf("LastState ok=%v err=%v, want ok=%v", ok, err, c.want)
			}
			if len(rec.Logs) != 0 {
				t.Errorf("the configured login is the normal setup, yet logged: %q", rec.Logs)
			}
		})
	}
}
