package githubfake

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// ReactionSummary is the "reactions" object GitHub sends with every review
// comment it lists: counts per content, no users.
// https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request
type ReactionSummary struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Hooray     int    `json:"hooray"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Rocket     int    `json:"rocket"`
	Eyes       int    `json:"eyes"`
}

// reaction is one stored reaction.
type reaction struct {
	ID      int64  `json:"id"`
	User    User   `json:"user"`
	Content string `json:"content"`
}

var (
	reReactions  = regexp.MustCompile(`^/repos/[^/]+/[^/]+/pulls/comments/(\d+)/reactions$`)
	rePermission = regexp.MustCompile(`^/repos/[^/]+/[^/]+/collaborators/([^/]+)/permission$`)
)

// React adds u's reaction ("+1", "-1", "heart"...) to review comment id.
func (s *Server) React(id int64, u User, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reactions == nil {
		s.reactions = map[int64][]reaction{}
	}
	s.reactions[id] = append(s.reactions[id], reaction{ID: s.id(), User: u, Content: content})
}

// SetPermission gives login a repository permission ("admin", "write",
// "read", "none"); a login without one answers "read", as GitHub does for
// anyone on a public repository. forbidden makes the endpoint answer 403,
// as for a token without push access.
func (s *Server) SetPermission(login, permission string, forbidden bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.permissions == nil {
		s.permissions = map[string]string{}
	}
	s.permissions[login] = permission
	s.permForbidden = forbidden
}

// withReactions is c as GitHub lists it, with its reaction counts.
func (s *Server) withReactions(c Comment) Comment {
	sum := ReactionSummary{URL: fmt.Sprintf("%s/repos/%s/%s/pulls/comments/%d/reactions", s.URL, s.cfg.Owner, s.cfg.Repo, c.ID)}
	for _, r := range s.reactions[c.ID] {
		sum.TotalCount++
		switch r.Content {
		case "+1":
			sum.PlusOne++
		case "-1":
			sum.MinusOne++
		case "heart":
			sum.Heart++
		}
	}
	c.Reactions = &sum
	return c
}

// routeReactions serves the reactions of a review comment (with the
// content filter) and a collaborator's permission.
func (s *Server) routeReactions(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	if m := reReactions.FindStringSubmatch(r.URL.Path); m != nil {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		s.listReactions(w, r, id)
		return true
	}
	if m := rePermission.FindStringSubmatch(r.URL.Path); m != nil {
		s.permission(w, m[1])
		return true
	}
	return false
}

// listReactions answers like GitHub: 404 for an unknown comment, the
// reactions of one content when content= is given.
// https://docs.github.com/rest/reactions/reactions#list-reactions-for-a-pull-request-review-comment
func (s *Server) listReactions(w http.ResponseWriter, r *http.Request, id int64) {
	if s.commentIndex(id) < 0 {
		fakes.WriteJSON(w, 404, map[string]string{"message": "Not Found", "status": "404"})
		return
	}
	var rs []reaction
	for _, x := range s.reactions[id] {
		if c := r.URL.Query().Get("content"); c == "" || c == x.Content {
			rs = append(rs, x)
		}
	}
	s.page(w, r, len(rs), func(i int) any { return rs[i] })
}

// permission answers GET .../collaborators/{login}/permission.
// https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
func (s *Server) permission(w http.ResponseWriter, login string) {
	if s.permForbidden {
		fakes.WriteJSON(w, 403, map[string]string{"message": "Must have push access to view collaborator permission.",
			"documentation_url": "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user", "status": "403"})
		return
	}
	p, ok := s.permissions[login]
	if !ok {
		p = "read"
	}
	fakes.WriteJSON(w, 200, map[string]any{"permission": p, "role_name": p, "user": map[string]any{"login": login, "type": "User"}})
}
