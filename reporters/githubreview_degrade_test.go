package reporters_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/fakes/githubfake"
	"github.com/ocr-ci/ocr/review"
)

// staleHunk is a third hunk for pkg/f1.go that only ocr's diff has: GitHub
// (the fake) rejects comments on it with 422, as when the diff ocr reviewed
// is not the pull request's.
const staleHunk = "@@ -60,3 +62,4 @@\n // e1\n+// e2\n // e3\n // e4\n"

func TestGitHubReviewDegradesAndBisects(t *testing.T) {
	fakeDiff := postDiff(2)
	ocrDiff := fakeDiff + staleHunk // pkg/f1.go is the last file
	f := newGitHubFake(t, fakeDiff, postHead)
	rec := &postRecorder{}
	g := newGitHubReview(t, f, ocrDiff, rec)
	var cs []review.Comment
	for k := kindRangeSuggest; k <= kindOtherFile; k++ {
		cs = append(cs, postFinding(k, 0, review.SeverityHigh))
	}
	stale := postFinding(kindSingle, 1, review.SeverityMedium)
	stale.StartLine, stale.EndLine = 63, 63
	staleRange := postFinding(kindRangeSuggest, 1, review.SeverityLow)
	staleRange.StartLine, staleRange.EndLine = 62, 63
	cs = append(cs, stale, staleRange)
	if err := g.Report(context.Background(), postReview(cs)); err != nil {
		t.Fatal(err)
	}
	if len(f.Reviews()) != 1 || f.Pending() != 0 {
		t.Fatalf("%d reviews, %d pending reviews left", len(f.Reviews()), f.Pending())
	}
	got := map[string]githubfake.Comment{}
	for _, c := range f.Comments() {
		fp, _ := strings.CutPrefix(lastBodyLine(c.Body), "<!-- ocr:fp=")
		got[strings.TrimSuffix(fp, " -->")] = c
	}
	summary := f.IssueComments()[0].Body
	want := map[string]string{ // fingerprint → where it must land
		cs[kindRangeSuggest].Fingerprint: "line", cs[kindDeleted].Fingerprint: "line", cs[kindSingle].Fingerprint: "line",
		cs[kindAcrossHunks].Fingerprint: "line", cs[kindOutside].Fingerprint: "file", cs[kindFileLevel].Fingerprint: "file",
		cs[kindOtherFile].Fingerprint: "summary", stale.Fingerprint: "file", staleRange.Fingerprint: "file",
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
	if c := got[cs[kindAcrossHunks].Fingerprint]; c.Line == nil || *c.Line != 6 || c.StartLine != nil {
		t.Errorf("range across hunks: %+v, want single line 6", c)
	}
	t.Logf("calls: %v", f.Calls())
}

func lastBodyLine(s string) string {
	return s[strings.LastIndexByte(s, '\n')+1:]
}

func TestGitHubReviewEscapesModelText(t *testing.T) {
	diff := postDiff(1)
	f := newGitHubFake(t, diff, postHead)
	c := postFinding(kindSingle, 0, review.SeverityHigh)
	c.Content = "Bad <img src=x onerror=alert(1)> ![t](https://evil.example/p.png) cc @octocat\n" +
		"<!-- ocr:fp=forged -->\n```go\nunclosed <!-- fence"
	c.Suggestion = "x := \"```\"\n````"
	c.StartLine, c.EndLine = 42, 42
	huge := postFinding(kindRangeSuggest, 0, review.SeverityLow)
	huge.Content = strings.Repeat("long text ", 20000)
	if err := newGitHubReview(t, f, diff, &postRecorder{}).Report(context.Background(), postReview([]review.Comment{c, huge})); err != nil {
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
