package github_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"

	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
	"github.com/ocr-ci/ocr/review"
)

func TestGitHubReviewDegradesAndBisects(t *testing.T) {
	fakeDiff := reportertest.PostDiff(2)
	ocrDiff := fakeDiff + reportertest.StaleHunk // pkg/f1.go is the last file
	f := reportertest.NewGitHubFake(t, fakeDiff, reportertest.PostHead)
	rec := &reportertest.Recorder{}
	g := reportertest.NewGitHubReview(t, f, ocrDiff, rec)
	var cs []review.Comment
	for k := reportertest.KindRangeSuggest; k <= reportertest.KindOtherFile; k++ {
		cs = append(cs, reportertest.PostFinding(k, 0, review.SeverityHigh))
	}
	stale := reportertest.PostFinding(reportertest.KindSingle, 1, review.SeverityMedium)
	stale.StartLine, stale.EndLine = 63, 63
	staleRange := reportertest.PostFinding(reportertest.KindRangeSuggest, 1, review.SeverityLow)
	staleRange.StartLine, staleRange.EndLine = 62, 63
	cs = append(cs, stale, staleRange)
	if err := g.Report(context.Background(), reportertest.PostReview(cs)); err != nil {
		t.Fatal(err)
	}
	if len(f.Reviews()) != 1 || f.Pending() != 0 {
		t.Fatalf("%d reviews, %d pending reviews left", len(f.Reviews()), f.Pending())
	}
	got := map[string]githubfake.Comment{}
	for _, c := range f.Comments() {
		fp, _ := strings.CutPrefix(reportertest.LastBodyLine(c.Body), "<!-- ocr:fp=")
		got[strings.TrimSuffix(fp, " -->")] = c
	}
	summary := f.IssueComments()[0].Body
	want := map[string]string{ // fingerprint → where it must land
		cs[reportertest.KindRangeSuggest].Fingerprint: "line", cs[reportertest.KindDeleted].Fingerprint: "line", cs[reportertest.KindSingle].Fingerprint: "line",
		cs[reportertest.KindAcrossHunks].Fingerprint: "line", cs[reportertest.KindOutside].Fingerprint: "file", cs[reportertest.KindFileLevel].Fingerprint: "file",
		cs[reportertest.KindOtherFile].Fingerprint: "summary", stale.Fingerprint: "file", staleRange.Fingerprint: "file",
	}
	for fp, where := range want {
		c, posted := got[fp]
		switch {
		case where == "summary" && (posted || !strings.Contains(summary, "docs/elsewhere.md")):
			t.Errorf("%s: posted %v, want it in the summary", fp, posted)
		case where != "summary" && (!posted || c.SubjectType != where):
			t.Errorf("%s: posted %v as %q, want %q", fp, posted, c.SubjectType, where)
		}
	}
	if c := got[cs[reportertest.KindAcrossHunks].Fingerprint]; c.Line == nil || *c.Line != 6 || c.StartLine != nil {
		t.Errorf("range across hunks: %+v, want single line 6", c)
	}
	t.Logf("calls: %v", f.Calls())
}

func TestGitHubReviewEscapesModelText(t *testing.T) {
	diff := reportertest.PostDiff(1)
	f := reportertest.NewGitHubFake(t, diff, reportertest.PostHead)
	c := reportertest.PostFinding(reportertest.KindSingle, 0, review.SeverityHigh)
	c.Content = "Bad <img src=x onerror=alert(1)> ![t](https://evil.example/p.png) cc @octocat\n" +
		"<!-- ocr:fp=forged -->\n```go\nunclosed <!-- fence"
	c.Suggestion = "x := \"```\"\n````"
	c.StartLine, c.EndLine = 42, 42
	huge := reportertest.PostFinding(reportertest.KindRangeSuggest, 0, review.SeverityLow)
	huge.Content = strings.Repeat("long text ", 20000)
	if err := reportertest.NewGitHubReview(t, f, diff, &reportertest.Recorder{}).Report(context.Background(), reportertest.PostReview([]review.Comment{c, huge})); err != nil {
		t.Fatal(err)
	}
	rv := f.LastReview()
	body := rv.Comments[0].Body
	for _, bad := range []string{"<img", "![t]", "@octocat", "<!-- ocr:fp=forged", "<!-- fence"} {
		if strings.Contains(body, bad) {
			t.Errorf("body contains %q:\n%s", bad, body)
		}
	}
	if strings.Count(body, "<!--") != 1 || !strings.HasSuffix(body, "<!-- ocr:fp="+c.Fingerprint+" -->") {
		t.Errorf("marker missing or forged:\n%s", body)
	}
	if !strings.Contains(body, "`````suggestion\nx := \"```\"\n````\n`````") {
		t.Errorf("suggestion fence not longer than the backtick runs:\n%s", body)
	}
	if n := len(rv.Comments[1].Body); n >= 65536 || !strings.Contains(rv.Comments[1].Body, "(truncated)") {
		t.Errorf("huge body is %d bytes", n)
	}
}
