package gitlabfake

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// Note is a note as GitLab returns it.
type Note struct {
	ID         int64          `json:"id"`
	Type       *string        `json:"type"`
	Body       string         `json:"body"`
	System     bool           `json:"system"`
	Resolvable bool           `json:"resolvable"`
	Resolved   bool           `json:"resolved"`
	Position   map[string]any `json:"position,omitempty"`
	Author     map[string]any `json:"author"`
	// CreatedAt is ISO 8601 with milliseconds, as the API answers.
	CreatedAt string `json:"created_at"`
}

// Discussion is a thread of notes.
type Discussion struct {
	ID             string  `json:"id"`
	IndividualNote bool    `json:"individual_note"`
	Notes          []*Note `json:"notes"`
}

// LinePos is one end of a position's line_range.
type LinePos struct {
	LineCode string `json:"line_code"`
	Type     string `json:"type"`
	OldLine  *int   `json:"old_line"`
	NewLine  *int   `json:"new_line"`
}

// Position is a diff note's position.
// https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff
type Position struct {
	BaseSHA      string     `json:"base_sha"`
	StartSHA     string     `json:"start_sha"`
	HeadSHA      string     `json:"head_sha"`
	PositionType string     `json:"position_type"`
	OldPath      string     `json:"old_path"`
	NewPath      string     `json:"new_path"`
	OldLine      *int       `json:"old_line"`
	NewLine      *int       `json:"new_line"`
	LineRange    *LineRange `json:"line_range"`
}

// LineRange is a multi-line position's first and last line.
type LineRange struct {
	Start LinePos `json:"start"`
	End   LinePos `json:"end"`
}

// DiscussionRequest is the body of a create-discussion request.
type DiscussionRequest struct {
	Body     string    `json:"body"`
	Position *Position `json:"position"`
}

// LineCodeBlank is GitLab's answer to a position that names no diff line.
const LineCodeBlank = `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`

func (s *Server) createDiscussion(w http.ResponseWriter, r *http.Request) {
	var in DiscussionRequest
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "400 Bad request"})
		return
	}
	if in.Body == "" {
		fakes.WriteJSON(w, 400, map[string]string{"message": "400 Bad request - body is missing"})
		return
	}
	d, msg := s.addDiscussion(s.cfg.Bot, in)
	if msg != "" {
		fakes.WriteJSON(w, 400, map[string]string{"message": msg})
		return
	}
	s.posted = append(s.posted, in)
	fakes.WriteJSON(w, 201, d)
}

// addDiscussion stores a discussion by u, or returns GitLab's 400 message.
func (s *Server) addDiscussion(u User, in DiscussionRequest) (*Discussion, string) {
	note := &Note{ID: int64(s.newID()), Type: ptr("DiscussionNote"), Body: in.Body, Resolvable: true, Author: u.author(), CreatedAt: s.stamp()}
	if in.Position != nil {
		if msg := s.checkPosition(in.Position); msg != "" {
			return nil, msg
		}
		if s.undiffOne {
			s.undiffOne = false
		} else {
			note.Type = ptr("DiffNote")
			note.Position = answerPosition(in.Position)
		}
	}
	d := &Discussion{ID: fmt.Sprintf("%040x", s.newID()), Notes: []*Note{note}}
	s.discs = append(s.discs, d)
	return d, ""
}

// answerPosition is a diff note's position as GitLab answers it: the
// position's own lines are numbers (null for the side a line lacks), but
// line_range echoes parameters the API declares as String, so its line
// numbers are JSON strings ("new_line": "59") and old_line of an added
// line is null; a single-line note has "line_range": null.
// https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff
func answerPosition(p *Position) map[string]any {
	pos := map[string]any{"base_sha": p.BaseSHA, "start_sha": p.StartSHA, "head_sha": p.HeadSHA,
		"old_path": p.OldPath, "new_path": p.NewPath, "position_type": "text",
		"old_line": p.OldLine, "new_line": p.NewLine, "line_range": nil, "ignore_whitespace_change": false}
	if r := p.LineRange; r != nil {
		pos["line_range"] = map[string]any{"start": answerLinePos(r.Start), "end": answerLinePos(r.End)}
	}
	return pos
}

func answerLinePos(l LinePos) map[string]any {
	str := func(n *int) any {
		if n == nil {
			return nil
		}
		return strconv.Itoa(*n)
	}
	return map[string]any{"line_code": l.LineCode, "type": l.Type, "old_line": str(l.OldLine), "new_line": str(l.NewLine)}
}

func ptr[T any](v T) *T { return &v }

// checkPosition validates like GitLab: the version's SHAs, both paths, and
// new_line/old_line naming one diff line of the right kind.
func (s *Server) checkPosition(p *Position) string {
	if p.PositionType != "text" || p.BaseSHA != s.cfg.Base || p.StartSHA != s.cfg.Start || p.HeadSHA != s.cfg.Head {
		s.t.Errorf("gitlabfake: position type/SHAs %s %s %s %s, want text %s %s %s",
			p.PositionType, p.BaseSHA, p.StartSHA, p.HeadSHA, s.cfg.Base, s.cfg.Start, s.cfg.Head)
		return LineCodeBlank
	}
	if p.OldPath == "" || p.NewPath == "" {
		return `400 Bad request - position[old_path], position[new_path] are missing`
	}
	lines := s.lines[p.NewPath]
	l, ok := lineAt(lines, p.OldLine, p.NewLine)
	if !ok {
		return LineCodeBlank
	}
	if p.LineRange != nil {
		for _, e := range []LinePos{p.LineRange.Start, p.LineRange.End} {
			rl, ok := lineAt(lines, e.OldLine, e.NewLine)
			want := "old"
			if rl.kind == udiff.Added {
				want = "new"
			}
			if !ok || e.LineCode != rl.code || e.Type != want {
				return `400 Bad request - Note {:line_code=>["must be a valid line code"]}`
			}
		}
		if p.LineRange.End.LineCode != l.code {
			s.t.Errorf("gitlabfake: line_range end %s is not the position's line %s", p.LineRange.End.LineCode, l.code)
		}
	}
	return ""
}

// lineAt finds the line named by oldLine/newLine: added → new only,
// deleted → old only, context → both.
func lineAt(lines map[string]line, oldLine, newLine *int) (line, bool) {
	switch {
	case oldLine != nil && newLine != nil:
		l, ok := lines["new:"+strconv.Itoa(*newLine)]
		return l, ok && l.kind == udiff.Context && l.old == *oldLine
	case newLine != nil:
		l, ok := lines["new:"+strconv.Itoa(*newLine)]
		return l, ok && l.kind == udiff.Added
	case oldLine != nil:
		l, ok := lines["old:"+strconv.Itoa(*oldLine)]
		return l, ok && l.kind == udiff.Deleted
	}
	return line{}, false
}

func (s *Server) resolve(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Resolved bool `json:"resolved"`
	}
	// GitLab reads resolved from the query or the body.
	if in.Resolved = r.URL.Query().Get("resolved") == "true"; !in.Resolved && (!fakes.Decode(s.t, r, &in) || !in.Resolved) {
		s.t.Errorf("gitlabfake: resolve %s: resolved=%v", id, in.Resolved)
	}
	for _, d := range s.discs {
		if d.ID == id {
			if len(d.Notes) > 1 && !s.chat.resolveReplied {
				s.t.Errorf("gitlabfake: resolved discussion %s, which someone replied to", id)
			}
			for _, n := range d.Notes {
				n.Resolved = true
			}
			fakes.WriteJSON(w, 200, d)
			return
		}
	}
	s.t.Errorf("gitlabfake: resolve of unknown discussion %s", id)
	fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
}

func (s *Server) createNote(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "400 Bad request"})
		return
	}
	n := &Note{ID: int64(s.newID()), Body: in.Body, Author: s.cfg.Bot.author(), CreatedAt: s.stamp()}
	s.discs = append(s.discs, &Discussion{ID: fmt.Sprintf("%040x", s.newID()), IndividualNote: true, Notes: []*Note{n}})
	fakes.WriteJSON(w, 201, n)
}

func (s *Server) editNote(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "400 Bad request"})
		return
	}
	for _, d := range s.discs {
		for _, n := range d.Notes {
			if strconv.FormatInt(n.ID, 10) == id {
				n.Body = in.Body
				fakes.WriteJSON(w, 200, n)
				return
			}
		}
	}
	s.t.Errorf("gitlabfake: edit of unknown note %s", id)
	fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
}
