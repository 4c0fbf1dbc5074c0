package gitlabfake

import (
	"fmt"
	"hash/fnv"
	"net/http"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// User is a note's author.
type User struct {
	ID       int64
	Username string
}

// Human is a person who can comment on the merge request; the ID is
// derived from the username.
func Human(username string) User {
	h := fnv.New32a()
	h.Write([]byte(username))
	return User{ID: 100000 + int64(h.Sum32()%900000), Username: username}
}

func (u User) author() map[string]any {
	return map[string]any{"id": u.ID, "username": u.Username, "name": u.Username, "state": "active"}
}

// currentUser answers GET /user: the token's user, a bot for project and
// group access tokens.
// https://docs.gitlab.com/api/users/#get-the-current-user
func (s *Server) currentUser(w http.ResponseWriter) {
	if s.userCode != 0 {
		fakes.WriteJSON(w, s.userCode, map[string]string{"message": fmt.Sprintf("%d %s", s.userCode, http.StatusText(s.userCode))})
		return
	}
	b := s.cfg.Bot
	fakes.WriteJSON(w, 200, map[string]any{"id": b.ID, "username": b.Username, "name": "ocr", "state": "active", "bot": true})
}

// SetUserStatus makes GET /user answer status; 0 restores the token's user.
func (s *Server) SetUserStatus(status int) { s.mu.Lock(); s.userCode = status; s.mu.Unlock() }

// UserRoute is GET /user as Calls counts it.
func (s *Server) UserRoute() string { return "GET /api/v4/user" }

// AddNote posts body as a general note by u, as anyone who can comment
// can (a forged summary or fingerprint, say); it returns the discussion ID.
func (s *Server) AddNote(u User, body string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := &Note{ID: int64(s.newID()), Body: body, Author: u.author(), CreatedAt: s.stamp()}
	d := &Discussion{ID: fmt.Sprintf("%040x", s.newID()), IndividualNote: true, Notes: []*Note{n}}
	s.discs = append(s.discs, d)
	return d.ID
}

// AddDiscussion starts a diff discussion by u at in.Position, as a person
// does in the web UI (a multi-line comment, say); GitLab stores and lists
// it exactly like one made through the API. A position GitLab would refuse
// fails the test. It returns the discussion ID.
func (s *Server) AddDiscussion(u User, in DiscussionRequest) string {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	d, msg := s.addDiscussion(u, in)
	if msg != "" {
		s.t.Fatalf("gitlabfake: AddDiscussion: GitLab would refuse this position: %s", msg)
	}
	return d.ID
}
