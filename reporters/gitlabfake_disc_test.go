package reporters_test

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/ocr-ci/ocr/anchor"
)

type fakeLinePos struct {
	LineCode string `json:"line_code"`
	Type     string `json:"type"`
	OldLine  *int   `json:"old_line"`
	NewLine  *int   `json:"new_line"`
}

type fakePosition struct {
	BaseSHA      string `json:"base_sha"`
	StartSHA     string `json:"start_sha"`
	HeadSHA      string `json:"head_sha"`
	PositionType string `json:"position_type"`
	OldPath      string `json:"old_path"`
	NewPath      string `json:"new_path"`
	OldLine      *int   `json:"old_line"`
	NewLine      *int   `json:"new_line"`
	LineRange    *struct {
		Start fakeLinePos `json:"start"`
		End   fakeLinePos `json:"end"`
	} `json:"line_range"`
}

type fakeDiscReq struct {
	Body     string        `json:"body"`
	Position *fakePosition `json:"position"`
}

// lineCodeBlank is GitLab's answer to a position that names no diff line.
const lineCodeBlank = `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`

func (f *gitlabFake) createDiscussion(w http.ResponseWriter, r *http.Request) {
	var in fakeDiscReq
	if !fakeDecode(f.t, r, &in) {
		return
	}
	if in.Body == "" {
		fakeJSON(w, 400, map[string]string{"message": "400 Bad request - body is missing"})
		return
	}
	note := &fakeNote{ID: int64(f.newID()), Body: in.Body, Resolvable: true, Author: map[string]any{"username": "project_42_bot"}}
	if in.Position != nil {
		if msg := f.checkPosition(in.Position); msg != "" {
			fakeJSON(w, 400, map[string]string{"message": msg})
			return
		}
		if f.undiffOne {
			f.undiffOne = false
		} else {
			note.Type = ptr("DiffNote")
			note.Position = map[string]any{"new_path": in.Position.NewPath, "old_path": in.Position.OldPath,
				"new_line": in.Position.NewLine, "old_line": in.Position.OldLine, "position_type": "text"}
		}
	}
	f.posted = append(f.posted, in)
	d := &fakeDiscussion{ID: fmt.Sprintf("%040x", f.newID()), Notes: []*fakeNote{note}}
	f.discs = append(f.discs, d)
	fakeJSON(w, 201, d)
}

func ptr[T any](v T) *T { return &v }

// checkPosition validates like GitLab: the version's SHAs, both paths, and
// new_line/old_line naming one diff line of the right kind.
func (f *gitlabFake) checkPosition(p *fakePosition) string {
	if p.PositionType != "text" || p.BaseSHA != f.refs[0] || p.StartSHA != f.refs[1] || p.HeadSHA != f.refs[2] {
		f.t.Errorf("position type/SHAs: %+v", p)
		return lineCodeBlank
	}
	if p.OldPath == "" || p.NewPath == "" {
		return `400 Bad request - position[old_path], position[new_path] are missing`
	}
	lines := f.lines[p.NewPath]
	l, ok := lineAt(lines, p.OldLine, p.NewLine)
	if !ok {
		return lineCodeBlank
	}
	if p.LineRange != nil {
		for _, e := range []fakeLinePos{p.LineRange.Start, p.LineRange.End} {
			rl, ok := lineAt(lines, e.OldLine, e.NewLine)
			want := "old"
			if rl.kind == anchor.Added {
				want = "new"
			}
			if !ok || e.LineCode != rl.code || e.Type != want {
				return `400 Bad request - Note {:line_code=>["must be a valid line code"]}`
			}
		}
		if p.LineRange.End.LineCode != l.code {
			f.t.Errorf("line_range end %s is not the position's line %s", p.LineRange.End.LineCode, l.code)
		}
	}
	return ""
}

// lineAt finds the line named by old/new: added → new only, deleted → old
// only, context → both.
func lineAt(lines map[string]gLine, old, new *int) (gLine, bool) {
	switch {
	case old != nil && new != nil:
		l, ok := lines["new:"+strconv.Itoa(*new)]
		return l, ok && l.kind == anchor.Context && l.old == *old
	case new != nil:
		l, ok := lines["new:"+strconv.Itoa(*new)]
		return l, ok && l.kind == anchor.Added
	case old != nil:
		l, ok := lines["old:"+strconv.Itoa(*old)]
		return l, ok && l.kind == anchor.Deleted
	}
	return gLine{}, false
}

func (f *gitlabFake) resolve(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Resolved bool `json:"resolved"`
	}
	if !fakeDecode(f.t, r, &in) || !in.Resolved {
		f.t.Errorf("resolve %s: resolved=%v", id, in.Resolved)
	}
	for _, d := range f.discs {
		if d.ID == id {
			if len(d.Notes) > 1 {
				f.t.Errorf("resolved discussion %s, which someone replied to", id)
			}
			for _, n := range d.Notes {
				n.Resolved = true
			}
			fakeJSON(w, 200, d)
			return
		}
	}
	f.t.Errorf("resolve of unknown discussion %s", id)
	fakeJSON(w, 404, map[string]string{"message": "404 Not found"})
}

func (f *gitlabFake) createNote(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakeDecode(f.t, r, &in) {
		return
	}
	n := &fakeNote{ID: int64(f.newID()), Body: in.Body, Author: map[string]any{"username": "project_42_bot"}}
	f.discs = append(f.discs, &fakeDiscussion{ID: fmt.Sprintf("%040x", f.newID()), IndividualNote: true, Notes: []*fakeNote{n}})
	fakeJSON(w, 201, n)
}

func (f *gitlabFake) editNote(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakeDecode(f.t, r, &in) {
		return
	}
	for _, d := range f.discs {
		for _, n := range d.Notes {
			if strconv.FormatInt(n.ID, 10) == id {
				n.Body = in.Body
				fakeJSON(w, 200, n)
				return
			}
		}
	}
	f.t.Errorf("edit of unknown note %s", id)
	fakeJSON(w, 404, map[string]string{"message": "404 Not found"})
}

// summaryBody returns the sticky summary note's body.
func (f *gitlabFake) summaryBody() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range f.discs {
		if d.IndividualNote {
			return d.Notes[0].Body
		}
	}
	f.t.Fatal("no summary note")
	return ""
}
