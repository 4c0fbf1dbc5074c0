package gitlabfake

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// award is one emoji reaction on a note.
type award struct {
	ID   int64
	Name string
	User User
}

var reAwards = regexp.MustCompile(`/notes/(\d+)/award_emoji$`)

// Award adds u's emoji reaction name ("thumbsdown", "thumbsup"...) to
// note id.
func (s *Server) Award(id int64, u User, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chat.awards == nil {
		s.chat.awards = map[int64][]award{}
	}
	s.chat.awards[id] = append(s.chat.awards[id], award{ID: int64(s.newID()), Name: name, User: u})
}

// routeAwards serves GET .../merge_requests/:iid/notes/:note_id/award_emoji.
func (s *Server) routeAwards(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if r.Method != http.MethodGet || len(p) <= len(s.mr) || p[:len(s.mr)] != s.mr || !reAwards.MatchString(p) {
		return false
	}
	id, _ := strconv.ParseInt(reAwards.FindStringSubmatch(p)[1], 10, 64)
	s.listAwards(w, id)
	return true
}

// listAwards answers like GitLab: 404 for a note the merge request does
// not have, else every reaction with its user (one page).
// https://docs.gitlab.com/api/emoji_reactions/#list-a-comments-emoji-reactions
func (s *Server) listAwards(w http.ResponseWriter, id int64) {
	if !s.hasNote(id) {
		fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
		return
	}
	out := []map[string]any{}
	for _, a := range s.chat.awards[id] {
		out = append(out, map[string]any{"id": a.ID, "name": a.Name, "user": a.User.author(),
			"awardable_id": id, "awardable_type": "Note"})
	}
	w.Header().Set("X-Page", "1")
	w.Header().Set("X-Next-Page", "")
	w.Header().Set("X-Total-Pages", "1")
	fakes.WriteJSON(w, 200, out)
}

func (s *Server) hasNote(id int64) bool {
	for _, d := range s.discs {
		for _, n := range d.Notes {
			if n.ID == id {
				return true
			}
		}
	}
	return false
}
