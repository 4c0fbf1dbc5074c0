package reporters_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

type fakeDraft struct {
	Path      string `json:"path"`
	Body      string `json:"body"`
	Line      *int   `json:"line"`
	Side      string `json:"side"`
	StartLine *int   `json:"start_line"`
	StartSide string `json:"start_side"`
}

type fakeReviewReq struct {
	CommitID string      `json:"commit_id"`
	Body     string      `json:"body"`
	Event    string      `json:"event"`
	Comments []fakeDraft `json:"comments"`
}

// createReview validates like GitHub: all or nothing, 422 without saying
// which comment failed.
func (f *githubFake) createReview(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var in fakeReviewReq
	if !fakeDecode(f.t, r, &in) {
		return
	}
	if in.CommitID != f.head {
		f.unprocessable(w, "The commitOID is not part of the pull request")
		return
	}
	if in.Event != "" && in.Event != "COMMENT" {
		f.t.Errorf("review event %q, want COMMENT", in.Event)
	}
	for _, c := range in.Comments {
		if msg := f.checkDraft(c); msg != "" {
			f.unprocessable(w, msg)
			return
		}
	}
	id := f.id()
	if in.Event == "" {
		f.pending[id] = true
		fakeJSON(w, 200, map[string]any{"id": id, "state": "PENDING", "commit_id": in.CommitID})
		return
	}
	f.reviews = append(f.reviews, raw)
	for _, c := range in.Comments {
		pc := fakePRComment{ID: f.id(), Body: c.Body, Path: c.Path, Line: c.Line, StartLine: c.StartLine,
			Side: c.Side, StartSide: c.StartSide, CommitID: in.CommitID, SubjectType: "line", ReviewID: id}
		pc.HTMLURL = fmt.Sprintf("https://github.com/o/r/pull/7#discussion_r%d", pc.ID)
		pc.User.Login = "github-actions[bot]"
		f.comments = append(f.comments, pc)
	}
	if f.failReviewOnce != 0 {
		status := f.failReviewOnce
		f.failReviewOnce = 0
		fakeJSON(w, status, map[string]string{"message": "Server Error"})
		return
	}
	fakeJSON(w, 200, map[string]any{"id": id, "state": "COMMENTED", "commit_id": in.CommitID})
}

// checkDraft returns GitHub's 422 message for a comment it would refuse.
func (f *githubFake) checkDraft(c fakeDraft) string {
	lines, ok := f.lines[c.Path]
	switch {
	case !ok:
		return "Pull request review thread path is invalid"
	case c.Line == nil:
		return "Pull request review thread line must be part of the diff"
	case len(c.Body) >= 65536:
		return "Body is too long (maximum is 65536 characters)"
	}
	if c.Side == "LEFT" && strings.Contains(c.Body, "```suggestion") {
		f.t.Errorf("suggestion block on the LEFT side: %s:%d", c.Path, *c.Line)
	}
	end, ok := lines[c.Side+":"+strconv.Itoa(*c.Line)]
	if !ok {
		return "Pull request review thread line must be part of the diff"
	}
	if c.StartLine == nil {
		return ""
	}
	if c.StartSide != c.Side {
		f.t.Errorf("start_side %q with side %q", c.StartSide, c.Side)
	}
	start, ok := lines[c.StartSide+":"+strconv.Itoa(*c.StartLine)]
	if !ok || start != end || *c.StartLine >= *c.Line {
		return "Pull request review thread start line must be part of the same hunk as the line."
	}
	return ""
}

func (f *githubFake) deletePending(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(reReview.FindStringSubmatch(r.URL.Path)[1], 10, 64)
	if !f.pending[id] {
		f.t.Errorf("DELETE of review %d, which is not pending", id)
		f.unprocessable(w, "Can not delete a non-pending pull request review")
		return
	}
	delete(f.pending, id)
	fakeJSON(w, 200, map[string]any{"id": id, "state": "PENDING"})
}

func (f *githubFake) createFileComment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body        string `json:"body"`
		CommitID    string `json:"commit_id"`
		Path        string `json:"path"`
		SubjectType string `json:"subject_type"`
	}
	if !fakeDecode(f.t, r, &in) {
		return
	}
	if in.SubjectType != "file" || in.CommitID != f.head {
		f.t.Errorf("file comment: subject_type %q commit %q", in.SubjectType, in.CommitID)
	}
	if _, ok := f.lines[in.Path]; !ok {
		f.unprocessable(w, "Pull request review thread path is invalid")
		return
	}
	pc := fakePRComment{ID: f.id(), Body: in.Body, Path: in.Path, CommitID: in.CommitID, SubjectType: "file"}
	pc.HTMLURL = fmt.Sprintf("https://github.com/o/r/pull/7#discussion_r%d", pc.ID)
	f.comments = append(f.comments, pc)
	fakeJSON(w, 201, pc)
}

// lastReview decodes the last COMMENT review request.
func (f *githubFake) lastReview() fakeReviewReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out fakeReviewReq
	if len(f.reviews) == 0 {
		f.t.Fatal("no review was posted")
	}
	json.Unmarshal(f.reviews[len(f.reviews)-1], &out)
	return out
}
