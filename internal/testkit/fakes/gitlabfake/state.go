package gitlabfake

import (
	"net/http"
	"time"
)

// Client is an HTTP client for the fake (it trusts the TLS certificate).
func (s *Server) Client() *http.Client { return s.srv.Client() }

// APIURL is the API base to give the client (CI_API_V4_URL).
func (s *Server) APIURL() string { return s.URL + "/api/v4" }

// MRPath is the merge request's API path, for building routes:
// "POST " + MRPath() + "/discussions".
func (s *Server) MRPath() string { return s.mr }

// Expect declares routes that must be requested before the test ends.
func (s *Server) Expect(routes ...string) { s.rec.Expect(routes...) }

// Calls returns the requests counted since the last ResetCalls.
func (s *Server) Calls() map[string]int { return s.rec.Snapshot() }

// ResetCalls clears the counts.
func (s *Server) ResetCalls() { s.rec.Reset() }

// SetPerPage sets the discussions' page size (default 100).
func (s *Server) SetPerPage(n int) { s.mu.Lock(); s.perPage = n; s.mu.Unlock() }

// Paging is how the fake pages a listing, as GitLab does.
type Paging int

// How GitLab pages. https://docs.gitlab.com/api/rest/#pagination
const (
	// PagingOffset: X-Page, X-Next-Page, X-Total, X-Total-Pages, and Link
	// with rel next, first and last.
	PagingOffset Paging = iota
	// PagingLarge is offset pagination over more than 10,000 items:
	// GitLab leaves out X-Total, X-Total-Pages and rel="last".
	PagingLarge
	// PagingKeyset: no X-* header at all, only a Link rel="next" whose
	// cursor parameter the next request must send.
	PagingKeyset
)

// SetPaging sets how listings are paged (default PagingOffset).
func (s *Server) SetPaging(p Paging) { s.mu.Lock(); s.paging = p; s.mu.Unlock() }

// SetForbidden makes every write answer 403.
func (s *Server) SetForbidden(on bool) { s.mu.Lock(); s.forbidden = on; s.mu.Unlock() }

// RefuseReads answers every read (GET) with status (401: a token GitLab
// does not know, 403: one without read access) and GitLab's message, as
// in {"message":"401 Unauthorized"}; 0 stops.
func (s *Server) RefuseReads(status int) { s.mu.Lock(); s.refuseReads = status; s.mu.Unlock() }

// TooManyRequestsOnce answers the next write with 429 (Retry-After: 2).
func (s *Server) TooManyRequestsOnce() { s.mu.Lock(); s.once429 = true; s.mu.Unlock() }

// UndiffOnce creates the next positioned discussion as a plain note, as
// GitLab does when it silently loses a position.
func (s *Server) UndiffOnce() { s.mu.Lock(); s.undiffOne = true; s.mu.Unlock() }

// SetLatency adds d before every answer.
func (s *Server) SetLatency(d time.Duration) { s.mu.Lock(); s.latency = d; s.mu.Unlock() }

// Posted returns the create-discussion requests that were accepted.
func (s *Server) Posted() []DiscussionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]DiscussionRequest(nil), s.posted...)
}

// Discussions returns copies of the merge request's discussions.
func (s *Server) Discussions() []Discussion {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Discussion, len(s.discs))
	for i, d := range s.discs {
		out[i] = Discussion{ID: d.ID, IndividualNote: d.IndividualNote}
		for _, n := range d.Notes {
			c := *n
			out[i].Notes = append(out[i].Notes, &c)
		}
	}
	return out
}

// Reply adds a human's note to discussion id.
func (s *Server) Reply(id, author, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.discs {
		if d.ID == id {
			d.Notes = append(d.Notes, &Note{ID: int64(s.newID()) + 100000, Body: body, Author: Human(author).author(), CreatedAt: s.stamp()})
			return
		}
	}
	s.t.Errorf("gitlabfake: Reply to unknown discussion %s", id)
}

// SummaryBody returns the body of the token's first general note (the
// sticky summary); none fails the test.
func (s *Server) SummaryBody() string {
	s.t.Helper()
	for _, d := range s.Discussions() {
		if d.IndividualNote && d.Notes[0].Author["id"] == s.cfg.Bot.ID {
			return d.Notes[0].Body
		}
	}
	s.t.Fatal("gitlabfake: no summary note")
	return ""
}

// Push makes a new version of the merge request, as a push (a rebase, a
// force-push) does: diff_refs base, start and head, and the diff positions
// are checked against. Discussions stay as they were, on the version they
// were started on, as on GitLab.
func (s *Server) Push(base, start, head, diff string) {
	s.t.Helper()
	if err := s.setDiff(diff); err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Base, s.cfg.Start, s.cfg.Head, s.cfg.Diff = base, start, head, diff
}
