package githubfake

import (
	"net/http"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// RouteUser is the route that tells who the token is, as Calls counts it.
const RouteUser = "GET /user"

// User is a comment's author as GitHub lists it.
type User struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"` // "User" or "Bot"
}

// ActionsBot is the account GITHUB_TOKEN posts as.
func ActionsBot() User { return User{Login: "github-actions[bot]", ID: 41898282, Type: "Bot"} }

// poster is the account the configured token posts as.
func (s *Server) poster() User {
	if s.cfg.PATUser != "" {
		return User{Login: s.cfg.PATUser, ID: 5000001, Type: "User"}
	}
	return ActionsBot()
}

// posterAssociation is the author_association of ocr's own comments: a
// personal access token is a collaborator's; GITHUB_TOKEN's bot has none.
func (s *Server) posterAssociation() string {
	if s.cfg.PATUser != "" {
		return "COLLABORATOR"
	}
	return "NONE"
}

// getUser answers GET /user: the account of a personal access token; 403
// for an installation token (GITHUB_TOKEN, GitHub Apps), which has none.
// https://docs.github.com/rest/users/users#get-the-authenticated-user
func (s *Server) getUser(w http.ResponseWriter) {
	switch {
	case s.userStatus != 0:
		fakes.WriteJSON(w, s.userStatus, map[string]string{"message": http.StatusText(s.userStatus)})
	case s.cfg.PATUser == "":
		fakes.WriteJSON(w, 403, map[string]string{"message": "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user", "status": "403"})
	default:
		u := s.poster()
		fakes.WriteJSON(w, 200, map[string]any{"login": u.Login, "id": u.ID, "type": u.Type, "site_admin": false})
	}
}

// SetUserStatus makes GET /user answer status (a 502, say); 0 restores
// the answer for the configured token.
func (s *Server) SetUserStatus(status int) { s.mu.Lock(); s.userStatus = status; s.mu.Unlock() }

// AddIssueComment posts body on the conversation as u, as anyone who can
// comment can (a forged summary, say).
func (s *Server) AddIssueComment(u User, body string) IssueComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := IssueComment{ID: s.id(), Body: body, User: u}
	s.issues = append(s.issues, c)
	return c
}

// AddComment adds a review comment as c.User (a forged finding, a reply);
// its ID and URL are assigned.
func (s *Server) AddComment(c Comment) Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.ID = s.id()
	c.HTMLURL = s.htmlURL(c.ID)
	if c.SubjectType == "" {
		c.SubjectType = "line"
	}
	s.comments = append(s.comments, c)
	return c
}

// EditIssueComment changes the body of comment id, as its author can at
// any time (GitHub keeps its id and created_at).
func (s *Server) EditIssueComment(id int64, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.issues {
		if s.issues[i].ID == id {
			s.issues[i].Body = body
		}
	}
}
