package gitlabfake

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// MergeRequest is what GET /projects/:id/merge_requests/:iid answers of
// the merge request (the conversation reads it).
type MergeRequest struct {
	Title, Description string
	Author             User
	// SourceProject is the fork's project ID; 0 means the project itself.
	SourceProject int64
}

// Member is a project member: AccessLevel 10 Guest, 20 Reporter, 30
// Developer, 40 Maintainer, 50 Owner; Inherited from a group.
type Member struct {
	User
	AccessLevel int
	Inherited   bool
}

// chatState is what the conversation's endpoints serve.
type chatState struct {
	mr             MergeRequest
	members        map[int64]Member
	resolveReplied bool
	clock          time.Time
	awards         map[int64][]award // by note ID (awards.go)
}

var (
	reMember     = regexp.MustCompile(`^/api/v4/projects/([^/]+)/members/(all/)?(\d+)$`)
	reThreadNote = regexp.MustCompile(`/discussions/([0-9a-f]+)/notes$`)
)

// SetMergeRequest sets what the merge request's own endpoint answers.
func (s *Server) SetMergeRequest(m MergeRequest) { s.mu.Lock(); s.chat.mr = m; s.mu.Unlock() }

// AddMember makes u a member of the project.
func (s *Server) AddMember(m Member) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chat.members == nil {
		s.chat.members = map[int64]Member{}
	}
	s.chat.members[m.ID] = m
}

// AllowResolveReplied lets a discussion someone replied to be resolved
// (the conversation's ignore does; the poster never does).
func (s *Server) AllowResolveReplied() { s.mu.Lock(); s.chat.resolveReplied = true; s.mu.Unlock() }

// stamp is a note's created_at: one second after the previous note's.
func (s *Server) stamp() string {
	if s.chat.clock.IsZero() {
		s.chat.clock = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	}
	s.chat.clock = s.chat.clock.Add(time.Second)
	return s.chat.clock.Format("2006-01-02T15:04:05.000Z")
}

// routeChat serves the conversation's routes; false for any other.
func (s *Server) routeChat(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && p == s.mr:
		s.mergeRequest(w)
	case r.Method == http.MethodGet && reMember.MatchString(p):
		m := reMember.FindStringSubmatch(p)
		s.member(w, m[1], m[2] != "", m[3])
	case r.Method == http.MethodPost && len(p) > len(s.mr) && p[:len(s.mr)] == s.mr && reThreadNote.MatchString(p):
		s.threadNote(w, r, reThreadNote.FindStringSubmatch(p)[1])
	case s.routeAwards(w, r):
	default:
		return false
	}
	return true
}

// mergeRequest answers the merge request as the API does (a subset).
// https://docs.gitlab.com/api/merge_requests/#get-single-mr
func (s *Server) mergeRequest(w http.ResponseWriter) {
	m, c := s.chat.mr, s.cfg
	project, _ := strconv.ParseInt(c.Project, 10, 64)
	source := project
	if m.SourceProject != 0 {
		source = m.SourceProject
	}
	fakes.WriteJSON(w, 200, map[string]any{"id": 9000 + c.MR, "iid": c.MR, "project_id": project, "title": m.Title,
		"description": m.Description, "state": "opened", "author": m.Author.author(), "source_project_id": source,
		"target_project_id": project, "source_branch": "feature", "target_branch": "main", "sha": c.Head,
		"diff_refs": map[string]string{"base_sha": c.Base, "start_sha": c.Start, "head_sha": c.Head}})
}

// member answers GET /projects/:id/members/all/:user_id (inherited members
// included) and /members/:user_id (direct members only: 404 for a member
// inherited from a group); a non-member is 404 {"message":"404 Not found"}.
// https://docs.gitlab.com/api/members/#get-a-member-of-a-group-or-project-including-inherited-and-invited-members
func (s *Server) member(w http.ResponseWriter, project string, all bool, id string) {
	uid, _ := strconv.ParseInt(id, 10, 64)
	m, ok := s.chat.members[uid]
	if project != s.cfg.Project || !ok || (m.Inherited && !all) {
		fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
		return
	}
	fakes.WriteJSON(w, 200, map[string]any{"id": m.ID, "username": m.Username, "name": m.Username, "state": "active",
		"access_level": m.AccessLevel, "created_at": "2024-01-01T00:00:00.000Z", "expires_at": nil})
}

// threadNote adds the token's note to a discussion; an unknown discussion
// is 404 like GitLab's.
// https://docs.gitlab.com/api/discussions/#add-note-to-existing-merge-request-thread
func (s *Server) threadNote(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakes.Decode(s.t, r, &in) || in.Body == "" {
		fakes.WriteJSON(w, 400, map[string]string{"message": "400 Bad request - body is missing"})
		return
	}
	for _, d := range s.discs {
		if d.ID == id {
			n := &Note{ID: int64(s.newID()), Type: ptr("DiscussionNote"), Body: in.Body, Resolvable: !d.IndividualNote,
				Author: s.cfg.Bot.author(), CreatedAt: s.stamp()}
			d.Notes = append(d.Notes, n)
			d.IndividualNote = false
			fakes.WriteJSON(w, 201, n)
			return
		}
	}
	fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
}

// ReplyAs adds u's note to discussion id, as a person replying in GitLab,
// and returns it; an unknown discussion fails the test.
func (s *Server) ReplyAs(id string, u User, body string) Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.discs {
		if d.ID == id {
			n := &Note{ID: int64(s.newID()), Type: ptr("DiscussionNote"), Body: body, Resolvable: true, Author: u.author(), CreatedAt: s.stamp()}
			d.Notes = append(d.Notes, n)
			d.IndividualNote = false
			return *n
		}
	}
	s.t.Errorf("gitlabfake: ReplyAs to unknown discussion %s", id)
	return Note{}
}

// AddSystemNote adds a note GitLab writes itself ("added 1 commit"): by
// the merge request's author, system true.
func (s *Server) AddSystemNote(body string) Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := &Note{ID: int64(s.newID()), Body: body, System: true, Author: s.chat.mr.Author.author(), CreatedAt: s.stamp()}
	s.discs = append(s.discs, &Discussion{ID: fmt.Sprintf("%040x", s.newID()), IndividualNote: true, Notes: []*Note{n}})
	return *n
}
