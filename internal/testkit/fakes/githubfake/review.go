package githubfake

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// Comment is a pull request review comment as GitHub lists it.
// https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request
type Comment struct {
	ID        int64  `json:"id"`
	Body      string `json:"body"`
	Path      string `json:"path"`
	Line      *int   `json:"line"`
	StartLine *int   `json:"start_line"`
	Side      string `json:"side,omitempty"`
	StartSide string `json:"start_side,omitempty"`
	CommitID  string `json:"commit_id"`
	// OriginalCommitID is the commit the comment was created on; GitHub
	// moves CommitID along with the pull request, never this one.
	OriginalCommitID string `json:"original_commit_id"`
	InReplyTo        *int64 `json:"in_reply_to_id,omitempty"`
	SubjectType      string `json:"subject_type"`
	HTMLURL          string `json:"html_url"`
	ReviewID         int64  `json:"pull_request_review_id,omitempty"`
	User             User   `json:"user"`
	// AuthorAssociation is the author's relation to the repository
	// (OWNER, MEMBER, COLLABORATOR, NONE...); "" is sent as NONE.
	AuthorAssociation string `json:"author_association"`
	// Reactions are the counts GitHub lists with the comment (set when
	// listed; see React).
	Reactions *ReactionSummary `json:"reactions,omitempty"`
}

// IssueComment is a comment on the pull request's conversation.
type IssueComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
	User User   `json:"user"`
	// AuthorAssociation is as on Comment.
	AuthorAssociation string `json:"author_association"`
}

// Draft is one comment of a review request.
// https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request
type Draft struct {
	Path      string `json:"path"`
	Body      string `json:"body"`
	Line      *int   `json:"line"`
	Side      string `json:"side"`
	StartLine *int   `json:"start_line"`
	StartSide string `json:"start_side"`
}

// ReviewRequest is the body of a create-review request.
type ReviewRequest struct {
	CommitID string  `json:"commit_id"`
	Body     string  `json:"body"`
	Event    string  `json:"event"`
	Comments []Draft `json:"comments"`
}

// createReview validates like GitHub: all or nothing, 422 without saying
// which comment failed.
func (s *Server) createReview(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var in ReviewRequest
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if in.Event != "" && s.failUncreatedOnce != 0 {
		status := s.failUncreatedOnce
		s.failUncreatedOnce = 0
		fakes.WriteJSON(w, status, map[string]string{"message": "Server Error"})
		return
	}
	if in.CommitID != s.cfg.Head {
		s.unprocessable(w, "The commitOID is not part of the pull request")
		return
	}
	if in.Event != "" && in.Event != "COMMENT" {
		s.t.Errorf("githubfake: review event %q, want COMMENT", in.Event)
	}
	for _, c := range in.Comments {
		if msg := s.checkDraft(c); msg != "" {
			s.unprocessable(w, msg)
			return
		}
	}
	id := s.id()
	if in.Event == "" {
		s.pending[id] = true
		fakes.WriteJSON(w, 200, map[string]any{"id": id, "state": "PENDING", "commit_id": in.CommitID})
		return
	}
	s.reviews = append(s.reviews, raw)
	for _, c := range in.Comments {
		pc := Comment{ID: s.id(), Body: c.Body, Path: c.Path, Line: c.Line, StartLine: c.StartLine,
			Side: c.Side, StartSide: c.StartSide, CommitID: in.CommitID, OriginalCommitID: in.CommitID, SubjectType: "line", ReviewID: id, User: s.poster()}
		pc.HTMLURL = s.htmlURL(pc.ID)
		s.comments = append(s.comments, pc)
	}
	if s.failReviewOnce != 0 {
		status := s.failReviewOnce
		s.failReviewOnce = 0
		fakes.WriteJSON(w, status, map[string]string{"message": "Server Error"})
		return
	}
	fakes.WriteJSON(w, 200, map[string]any{"id": id, "state": "COMMENTED", "commit_id": in.CommitID})
}

func (s *Server) htmlURL(id int64) string {
	return fmt.Sprintf("https://github.com/%s/%s/pull/%d#discussion_r%d", s.cfg.Owner, s.cfg.Repo, s.cfg.PR, id)
}

// checkDraft returns GitHub's 422 message for a comment it would refuse.
func (s *Server) checkDraft(c Draft) string {
	lines, ok := s.lines[c.Path]
	switch {
	case !ok:
		return "Pull request review thread path is invalid"
	case c.Line == nil:
		return "Pull request review thread line must be part of the diff"
	case len(c.Body) >= 65536:
		return "Body is too long (maximum is 65536 characters)"
	}
	if c.Side == "LEFT" && strings.Contains(c.Body, "```suggestion") {
		s.t.Errorf("githubfake: suggestion block on the LEFT side: %s:%d", c.Path, *c.Line)
	}
	end, ok := lines[c.Side+":"+strconv.Itoa(*c.Line)]
	if !ok {
		return "Pull request review thread line must be part of the diff"
	}
	if c.StartLine == nil {
		return ""
	}
	if c.StartSide != c.Side {
		s.t.Errorf("githubfake: start_side %q with side %q", c.StartSide, c.Side)
	}
	start, ok := lines[c.StartSide+":"+strconv.Itoa(*c.StartLine)]
	if !ok || start != end || *c.StartLine >= *c.Line {
		return "Pull request review thread start line must be part of the same hunk as the line."
	}
	return ""
}

func (s *Server) deletePending(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(s.reReview.FindStringSubmatch(r.URL.Path)[1], 10, 64)
	if !s.pending[id] {
		s.t.Errorf("githubfake: DELETE of review %d, which is not pending", id)
		s.unprocessable(w, "Can not delete a non-pending pull request review")
		return
	}
	delete(s.pending, id)
	fakes.WriteJSON(w, 200, map[string]any{"id": id, "state": "PENDING"})
}

// createFileComment answers a file-level review comment.
// https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request
func (s *Server) createFileComment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body        string `json:"body"`
		CommitID    string `json:"commit_id"`
		Path        string `json:"path"`
		SubjectType string `json:"subject_type"`
	}
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	if in.SubjectType != "file" || in.CommitID != s.cfg.Head {
		s.t.Errorf("githubfake: file comment: subject_type %q commit %q", in.SubjectType, in.CommitID)
	}
	if _, ok := s.lines[in.Path]; !ok {
		s.unprocessable(w, "Pull request review thread path is invalid")
		return
	}
	pc := Comment{ID: s.id(), Body: in.Body, Path: in.Path, CommitID: in.CommitID, OriginalCommitID: in.CommitID, SubjectType: "file", User: s.poster()}
	pc.HTMLURL = s.htmlURL(pc.ID)
	s.comments = append(s.comments, pc)
	fakes.WriteJSON(w, 201, pc)
}

// decodeBody reads an issue comment's {"body"}; a bad one is answered
// with 400 and ok false.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request) (body string, ok bool) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "Problems parsing JSON"})
		return "", false
	}
	return in.Body, true
}

func (s *Server) createIssueComment(w http.ResponseWriter, r *http.Request) {
	body, ok := s.decodeBody(w, r)
	if !ok {
		return
	}
	if s.writeFault(w, s.commentFault) {
		return
	}
	if len(body) >= 65536 {
		s.unprocessable(w, "Body is too long (maximum is 65536 characters)")
		return
	}
	c := IssueComment{ID: s.id(), Body: body, User: s.poster(), AuthorAssociation: s.posterAssociation()}
	s.issues = append(s.issues, c)
	fakes.WriteJSON(w, 201, c)
}

func (s *Server) editIssueComment(w http.ResponseWriter, r *http.Request) {
	body, ok := s.decodeBody(w, r)
	if !ok {
		return
	}
	id, _ := strconv.ParseInt(s.reIssueComment.FindStringSubmatch(r.URL.Path)[1], 10, 64)
	for i := range s.issues {
		if s.issues[i].ID == id {
			s.issues[i].Body = body
			fakes.WriteJSON(w, 200, s.issues[i])
			return
		}
	}
	s.t.Errorf("githubfake: PATCH of unknown issue comment %d", id)
	fakes.WriteJSON(w, 404, map[string]string{"message": "Not Found"})
}
