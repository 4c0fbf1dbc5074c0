package githubfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// The conversation side of the fake: replies in review threads, and the
// created_at and author_association GitHub sends with every comment.
// https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment

// epoch dates the fake's comments: the comment with ID n was created n
// seconds after it, so the fake's creation order is the dates' order.
var epoch = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func created(id int64) string { return epoch.Add(time.Duration(id) * time.Second).Format(time.RFC3339) }

func association(a string) string {
	if a == "" {
		return "NONE"
	}
	return a
}

// MarshalJSON adds created_at and answers an empty association as NONE.
func (c Comment) MarshalJSON() ([]byte, error) {
	type plain Comment
	p := plain(c)
	p.AuthorAssociation = association(c.AuthorAssociation)
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"created_at"`
	}{p, created(c.ID)})
}

// MarshalJSON adds created_at and answers an empty association as NONE.
func (c IssueComment) MarshalJSON() ([]byte, error) {
	type plain IssueComment
	p := plain(c)
	p.AuthorAssociation = association(c.AuthorAssociation)
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"created_at"`
	}{p, created(c.ID)})
}

// reReplies is POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies.
var reReplies = regexp.MustCompile(`^/repos/[^/]+/[^/]+/pulls/(\d+)/comments/(\d+)/replies$`)

// RepliesRoute is the route that replies in the thread of review comment id.
func (s *Server) RepliesRoute(id int64) string {
	return fmt.Sprintf("POST /repos/%s/%s/pulls/%d/comments/%d/replies", s.cfg.Owner, s.cfg.Repo, s.cfg.PR, id)
}

// routeConversation answers the conversation's routes; false leaves the
// request to the caller (an unexpected route).
func (s *Server) routeConversation(w http.ResponseWriter, r *http.Request) bool {
	m := reReplies.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil || m[1] != strconv.Itoa(s.cfg.PR) ||
		r.URL.Path != fmt.Sprintf("/repos/%s/%s/pulls/%s/comments/%s/replies", s.cfg.Owner, s.cfg.Repo, m[1], m[2]) {
		return false
	}
	id, _ := strconv.ParseInt(m[2], 10, 64)
	s.reply(w, r, id)
	return true
}

// reply creates a reply like GitHub: 404 for a comment that does not
// exist (or was deleted), 422 for a reply to a reply ("replies to replies
// are not supported") and for a body over the limit.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, id int64) {
	body, ok := s.decodeBody(w, r)
	if !ok {
		return
	}
	i := s.commentIndex(id)
	switch {
	case s.writeFault(w, s.replyFault):
		return
	case i < 0 || s.deleted[id]:
		fakes.WriteJSON(w, 404, map[string]string{"message": "Not Found",
			"documentation_url": "https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment", "status": "404"})
		return
	case s.comments[i].InReplyTo != nil:
		s.unprocessable(w, "in_reply_to_id is a reply: replies to replies are not supported")
		return
	case len(body) >= 65536:
		s.unprocessable(w, "Body is too long (maximum is 65536 characters)")
		return
	}
	root := s.comments[i]
	c := Comment{ID: s.id(), Body: body, Path: root.Path, Line: root.Line, StartLine: root.StartLine, Side: root.Side,
		StartSide: root.StartSide, CommitID: root.CommitID, OriginalCommitID: root.CommitID, InReplyTo: &root.ID, SubjectType: root.SubjectType,
		User: s.poster(), AuthorAssociation: s.posterAssociation()}
	c.HTMLURL = s.htmlURL(c.ID)
	s.comments = append(s.comments, c)
	fakes.WriteJSON(w, 201, c)
}

func (s *Server) commentIndex(id int64) int {
	for i, c := range s.comments {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// DeleteComment deletes review comment id as its author could: it leaves
// the lists, and a reply to it answers 404.
func (s *Server) DeleteComment(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted == nil {
		s.deleted = map[int64]bool{}
	}
	s.deleted[id] = true
	if i := s.commentIndex(id); i >= 0 {
		s.comments = append(s.comments[:i], s.comments[i+1:]...)
	}
}

// AddIssueCommentAs posts body on the conversation as u with an author
// association (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE).
func (s *Server) AddIssueCommentAs(u User, assoc, body string) IssueComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := IssueComment{ID: s.id(), Body: body, User: u, AuthorAssociation: assoc}
	s.issues = append(s.issues, c)
	return c
}

// Replies returns the replies in the thread of root comment id, in order.
func (s *Server) Replies(id int64) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.InReplyTo != nil && *c.InReplyTo == id {
			out = append(out, c)
		}
	}
	return out
}

// Fault is an answer GitHub gives a write: a status, its message and
// headers (a rate limit's X-RateLimit-Remaining: 0, say).
type Fault struct {
	Status  int
	Message string
	Header  map[string]string
}

// Locked is GitHub's answer to a comment on a locked conversation.
// https://docs.github.com/communities/moderating-comments-and-conversations/locking-conversations
var Locked = Fault{Status: 403, Message: "Unable to create comment because issue is locked."}

// RateLimited is GitHub's answer once the token's primary rate limit is
// spent.
var RateLimited = Fault{Status: 403, Message: "API rate limit exceeded for installation ID 1.",
	Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5000", "X-RateLimit-Reset": "4102444800"}}

// FailReplies makes every thread reply answer f (a zero Fault restores
// them).
func (s *Server) FailReplies(f Fault) { s.mu.Lock(); s.replyFault = f; s.mu.Unlock() }

// FailComments makes every comment on the pull request's conversation
// answer f (a zero Fault restores them).
func (s *Server) FailComments(f Fault) { s.mu.Lock(); s.commentFault = f; s.mu.Unlock() }

// writeFault answers f when it is set.
func (s *Server) writeFault(w http.ResponseWriter, f Fault) bool {
	if f.Status == 0 {
		return false
	}
	for k, v := range f.Header {
		w.Header().Set(k, v)
	}
	fakes.WriteJSON(w, f.Status, map[string]string{"message": f.Message,
		"documentation_url": "https://docs.github.com/rest", "status": strconv.Itoa(f.Status)})
	return true
}
