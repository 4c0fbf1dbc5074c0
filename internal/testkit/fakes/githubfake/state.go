package githubfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Client is an HTTP client for the fake.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Route is "METHOD /path" of the pull request's endpoint suffix, as
// Calls counts it: Route("POST", "reviews") → "POST /repos/o/r/pulls/7/reviews".
// Suffixes: "comments", "reviews" (pull request), "issue-comments" (the
// conversation), "" (the pull request itself).
func (s *Server) Route(method, suffix string) string {
	repo := fmt.Sprintf("/repos/%s/%s", s.cfg.Owner, s.cfg.Repo)
	switch suffix {
	case "issue-comments":
		return fmt.Sprintf("%s %s/issues/%d/comments", method, repo, s.cfg.PR)
	case "":
		return fmt.Sprintf("%s %s/pulls/%d", method, repo, s.cfg.PR)
	}
	return fmt.Sprintf("%s %s/pulls/%d/%s", method, repo, s.cfg.PR, suffix)
}

// IssueCommentRoute is the route that edits issue comment id.
func (s *Server) IssueCommentRoute(method string, id int64) string {
	return fmt.Sprintf("%s /repos/%s/%s/issues/comments/%d", method, s.cfg.Owner, s.cfg.Repo, id)
}

// Expect declares routes that must be requested before the test ends.
func (s *Server) Expect(routes ...string) { s.rec.Expect(routes...) }

// Calls returns the requests counted since the last ResetCalls.
func (s *Server) Calls() map[string]int { return s.rec.Snapshot() }

// ResetCalls clears the counts.
func (s *Server) ResetCalls() { s.rec.Reset() }

// SetPerPage caps the page size below GitHub's 100 to exercise pagination.
func (s *Server) SetPerPage(n int) { s.mu.Lock(); s.perPage = n; s.mu.Unlock() }

// SetReadOnly makes every write answer 403 like a fork's token.
func (s *Server) SetReadOnly(on bool) { s.mu.Lock(); s.readOnly = on; s.mu.Unlock() }

// SecondaryLimitOnce answers the next write with a secondary rate limit
// (403, Retry-After: 7).
func (s *Server) SecondaryLimitOnce() { s.mu.Lock(); s.secondaryOnce = true; s.mu.Unlock() }

// FailReviewOnce answers the next COMMENT review with status after
// creating it, as when GitHub times out mid-request.
func (s *Server) FailReviewOnce(status int) { s.mu.Lock(); s.failReviewOnce = status; s.mu.Unlock() }

// FailReviewUncreatedOnce answers the next COMMENT review with status
// without creating it, as when a gateway in front of GitHub fails.
func (s *Server) FailReviewUncreatedOnce(status int) {
	s.mu.Lock()
	s.failUncreatedOnce = status
	s.mu.Unlock()
}

// SetLatency adds d before every answer.
func (s *Server) SetLatency(d time.Duration) { s.mu.Lock(); s.latency = d; s.mu.Unlock() }

// Comments returns the review comments on the pull request.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Comment(nil), s.comments...)
}

// IssueComments returns the comments on the conversation (the sticky summary).
func (s *Server) IssueComments() []IssueComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]IssueComment(nil), s.issues...)
}

// Reviews returns the COMMENT reviews created, decoded.
func (s *Server) Reviews() []ReviewRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ReviewRequest, len(s.reviews))
	for i, raw := range s.reviews {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			s.t.Errorf("githubfake: stored review: %v", err)
		}
	}
	return out
}

// LastReview returns the last COMMENT review; none fails the test.
func (s *Server) LastReview() ReviewRequest {
	s.t.Helper()
	rs := s.Reviews()
	if len(rs) == 0 {
		s.t.Fatal("githubfake: no review was posted")
	}
	return rs[len(rs)-1]
}

// Pending is the number of pending (draft) reviews left.
func (s *Server) Pending() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.pending) }
