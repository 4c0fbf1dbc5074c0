package reporters_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/fakes/gitlabfake"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

const glMR = "/api/v4/projects/42/merge_requests/5"

const (
	glList     = "GET " + glMR + "/discussions"
	glVersions = "GET " + glMR + "/versions"
	glCreate   = "POST " + glMR + "/discussions"
	glNote     = "POST " + glMR + "/notes"
	glUser     = "GET /api/v4/user"
)

// newGitLabFake serves merge request 42!5 with diff, token "tok".
func newGitLabFake(t testing.TB, diff string, tls bool) *gitlabfake.Server {
	return gitlabfake.New(t, gitlabfake.Config{Diff: diff, TLS: tls,
		Base: postBase, Start: "3333333333333333333333333333333333333333", Head: postHead})
}

func newGitLab(t testing.TB, f *gitlabfake.Server, diff string, rec *postRecorder) *reporters.GitLabDiscussion {
	return &reporters.GitLabDiscussion{BaseURL: f.URL + "/api/v4", Token: "tok", TokenSource: "OCR_GITLAB_TOKEN",
		HTTPClient: f.Client(), Project: "42", MR: 5, HeadSHA: postHead, Changes: postChangeSet(t, diff),
		ConfigHash: "cfg1", Fallback: rec, Logf: rec.Logf, Sleep: rec.Sleep}
}

// gitlabFindings covers every line kind: added range with a suggestion,
// deleted line, added line, context line (the degraded cross-hunk range),
// outside the diff, file-level, other file; then n more inline ones.
func gitlabFindings(n int) []review.Comment {
	var cs []review.Comment
	for k := kindRangeSuggest; k <= kindOtherFile; k++ {
		cs = append(cs, postFinding(k, 0, review.SeverityHigh))
	}
	ctx := postFinding(kindSingle, 0, review.SeverityLow)
	ctx.StartLine, ctx.EndLine, ctx.ExistingCode = 5, 7, "context range"
	ctx.Fingerprint = review.Fingerprint(ctx.Path, ctx.Category, ctx.ExistingCode)
	cs = append(cs, ctx)
	for i := 0; i < n; i++ {
		cs = append(cs, postFinding(i%3, 1+i/3, review.SeverityMedium))
	}
	return cs
}

func TestGitLabDiscussionFirstRunRerunAndResolve(t *testing.T) {
	diff := postDiff(5)
	f := newGitLabFake(t, diff, false)
	f.SetPerPage(5) // 14 discussions after the first run: three pages
	rec := &postRecorder{}
	g := newGitLab(t, f, diff, rec)
	cs := gitlabFindings(6)
	if err := g.Report(context.Background(), postReview(cs)); err != nil {
		t.Fatal(err)
	}
	// 13 findings: 11 positioned, 2 general notes (outside the diff,
	// file-level), 1 in the summary.
	postAssertCalls(t, f, map[string]int{glList: 1, glVersions: 1, glCreate: 13, glNote: 1})
	byFP := map[string]gitlabfake.DiscussionRequest{}
	for _, d := range f.Posted() {
		fp, _ := strings.CutPrefix(lastBodyLine(d.Body), "<!-- ocr:fp=")
		byFP[strings.TrimSuffix(fp, " -->")] = d
	}
	var first []gitlabfake.DiscussionRequest
	for _, k := range []int{kindRangeSuggest, kindDeleted, kindSingle, kindAcrossHunks, kindFileLevel, len(cs) - 7} {
		first = append(first, byFP[cs[k].Fingerprint])
	}
	js, _ := json.MarshalIndent(first, "", "  ")
	postGolden(t, "gitlab_first_discussions.golden", string(js)+"\n")
	postGolden(t, "gitlab_first_summary.golden", f.SummaryBody())

	f.ResetCalls()
	if err := g.Report(context.Background(), postReview(cs)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{glList: 3, glUser: 1}) // the markers found are judged by their author

	// A human replies to one thread; then both its finding and another
	// disappear: only the thread nobody answered is resolved.
	gone, answered := cs[kindDeleted], cs[kindSingle]
	var goneID, summaryID string
	for _, d := range f.Discussions() {
		switch {
		case strings.Contains(d.Notes[0].Body, answered.Fingerprint):
			f.Reply(d.ID, "alice", "I disagree")
		case strings.Contains(d.Notes[0].Body, gone.Fingerprint):
			goneID = d.ID
		case d.IndividualNote:
			summaryID = strconv.FormatInt(d.Notes[0].ID, 10)
		}
	}
	var rest []review.Comment
	for _, c := range cs {
		if c.Fingerprint != gone.Fingerprint && c.Fingerprint != answered.Fingerprint {
			rest = append(rest, c)
		}
	}
	f.ResetCalls()
	if err := g.Report(context.Background(), postReview(rest)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{glList: 3, "PUT " + glMR + "/discussions/" + goneID: 1, "PUT " + glMR + "/notes/" + summaryID: 1})
	if s := f.SummaryBody(); !strings.Contains(s, "Resolved since the last run (2)") {
		t.Errorf("summary does not list the resolved findings:\n%s", s)
	}
	if st, ok, err := g.LastState(context.Background()); err != nil || !ok || st.Head != postHead || st.Config != "cfg1" {
		t.Errorf("LastState = %+v, %v, %v", st, ok, err)
	}
}

func TestGitLabDiscussionDegradesRejectedPositions(t *testing.T) {
	fakeDiff := postDiff(2)
	f := newGitLabFake(t, fakeDiff, false)
	f.UndiffOnce()
	g := newGitLab(t, f, fakeDiff+staleHunk, &postRecorder{})
	g.Concurrency = 1 // undiffOne must hit the first finding
	stale := postFinding(kindSingle, 1, review.SeverityMedium)
	stale.StartLine, stale.EndLine = 63, 63
	first := postFinding(kindSingle, 0, review.SeverityHigh)
	if err := g.Report(context.Background(), postReview([]review.Comment{first, stale})); err != nil {
		t.Fatal(err)
	}
	// first: created as a plain note, then rewritten to say where it
	// belongs; stale: 400, then a general note.
	postAssertCalls(t, f, map[string]int{glList: 1, glVersions: 1, glCreate: 3, glNote: 1,
		"PUT " + glMR + "/discussions/" + f.Discussions()[0].ID + "/notes/1": 1})
	if posted := f.Posted(); len(posted) != 2 || posted[1].Position != nil || !strings.HasPrefix(posted[1].Body, "On `pkg/f1.go` line 63:") {
		t.Fatalf("posted: %+v", posted)
	}
	var edited bool
	for _, d := range f.Discussions() {
		edited = edited || strings.HasPrefix(d.Notes[0].Body, "On `pkg/f0.go` line 42:")
	}
	if !edited {
		t.Error("the unanchored note was not rewritten with its location")
	}
}

func TestGitLabDiscussionHonours429(t *testing.T) {
	diff := postDiff(2)
	f := newGitLabFake(t, diff, false)
	f.TooManyRequestsOnce()
	rec := &postRecorder{}
	g := newGitLab(t, f, diff, rec)
	g.Concurrency = 1
	if err := g.Report(context.Background(), postReview([]review.Comment{postFinding(kindSingle, 0, review.SeverityHigh)})); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{glList: 1, glVersions: 1, glCreate: 2, glNote: 1})
	if d := cmp.Diff([]time.Duration{2 * time.Second}, rec.sleeps); d != "" {
		t.Errorf("sleeps (-want +got):\n%s", d)
	}
}

func TestGitLabDiscussionTokenErrorsArePlain(t *testing.T) {
	diff := postDiff(1)
	f := newGitLabFake(t, diff, false)
	rec := &postRecorder{}
	g := newGitLab(t, f, diff, rec)
	g.TokenSource = "CI_JOB_TOKEN"
	err := g.Report(context.Background(), postReview([]review.Comment{postFinding(kindSingle, 0, review.SeverityHigh)}))
	if !errors.Is(err, reporters.ErrNoWriteAccess) || !strings.Contains(err.Error(), "CI_JOB_TOKEN cannot create") {
		t.Errorf("job token: %v", err)
	}
	postAssertCalls(t, f, map[string]int{})

	f.SetForbidden(true)
	g.TokenSource = "GITLAB_TOKEN"
	err = g.Report(context.Background(), postReview([]review.Comment{postFinding(kindSingle, 0, review.SeverityHigh)}))
	if !errors.Is(err, reporters.ErrNoWriteAccess) || !strings.Contains(err.Error(), "answered 403") || !strings.Contains(err.Error(), "api scope") {
		t.Errorf("403: %v", err)
	}
	if rec.reports != 2 {
		t.Errorf("fallback ran %d times, want 2", rec.reports)
	}
}

func TestGitLabDiscussionTrustsCAFile(t *testing.T) {
	diff := postDiff(1)
	f := newGitLabFake(t, diff, true)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	cert := f.Certificate()
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	g := newGitLab(t, f, diff, &postRecorder{})
	g.HTTPClient, g.CAFile = nil, ca
	if err := g.Report(context.Background(), postReview(nil)); err != nil {
		t.Fatal(err)
	}
	postAssertCalls(t, f, map[string]int{glList: 1, glNote: 1})
}
