package gitlabapi

import (
	"encoding/json"
	"time"
)

// ocr sends requests through client-go (auth, base URL, errors, pagination
// headers) but decodes notes and discussions itself, one note at a time:
// client-go's LinePosition decodes line_range's line numbers as int64,
// and GitLab sends them as strings, so one such note failed the whole
// answer (xanzy/go-gitlab#1265): every later listing of the merge request
// failed with it.
// https://docs.gitlab.com/api/discussions/#list-project-merge-request-discussion-items

// Discussion is a merge request discussion as ocr reads it.
type Discussion struct {
	ID string
	// Individual is set for a note that is not a thread (individual_note).
	Individual bool
	Notes      []*Note
}

// User is a note's author.
type User struct {
	ID       Int    `json:"id"`
	Username string `json:"username"`
	Name     string `json:"name"`
	Bot      bool   `json:"bot"`
}

// Note is a note as ocr reads it. A note that cannot be read at all is
// kept, as Unreadable: it is nobody's (never ocr's own, never a command),
// and it never hides the notes around it.
type Note struct {
	ID         Int    `json:"id"`
	Type       string `json:"type"` // "DiffNote", "DiscussionNote" or null
	Body       string `json:"body"`
	System     bool   `json:"system"`
	Resolvable bool   `json:"resolvable"`
	Resolved   bool   `json:"resolved"`
	Author     User   `json:"author"`
	// CreatedAt is kept as sent; see Created.
	CreatedAt string `json:"created_at"`
	// Position is nil for general notes and for a position that could
	// not be read (see PositionErr).
	Position    *Position       `json:"-"`
	RawPosition json.RawMessage `json:"position"`
	PositionErr error           `json:"-"`
	Unreadable  error           `json:"-"`
}

// Created is when the note was written; the zero time when GitLab's
// timestamp cannot be read.
func (n *Note) Created() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, n.CreatedAt)
	return t
}

// Position is a diff note's position; every line number is tolerant (Int)
// and line_range may be absent or null.
type Position struct {
	OldPath string `json:"old_path"`
	NewPath string `json:"new_path"`
	OldLine Int    `json:"old_line"`
	NewLine Int    `json:"new_line"`
	// HeadSHA is the head of the version the note was made on.
	HeadSHA   string `json:"head_sha"`
	LineRange *struct {
		Start LinePos `json:"start"`
		End   LinePos `json:"end"`
	} `json:"line_range"`
}

// LinePos is one end of a line_range.
type LinePos struct {
	LineCode string `json:"line_code"`
	Type     string `json:"type"`
	OldLine  Int    `json:"old_line"`
	NewLine  Int    `json:"new_line"`
}

// DecodeNote reads one note; it never fails (see Note.Unreadable,
// Note.PositionErr).
func DecodeNote(raw json.RawMessage) *Note {
	n := &Note{}
	if err := json.Unmarshal(raw, n); err != nil {
		return &Note{Unreadable: err}
	}
	if len(n.RawPosition) == 0 || string(n.RawPosition) == "null" {
		return n
	}
	var p Position
	if err := json.Unmarshal(n.RawPosition, &p); err != nil {
		n.PositionErr = err
		return n
	}
	n.Position = &p
	return n
}

// DecodeDiscussion reads one discussion, each note on its own; an error
// only when the discussion itself cannot be read.
func DecodeDiscussion(raw json.RawMessage) (*Discussion, error) {
	var d struct {
		ID         string            `json:"id"`
		Individual bool              `json:"individual_note"`
		Notes      []json.RawMessage `json:"notes"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	out := &Discussion{ID: d.ID, Individual: d.Individual}
	for _, n := range d.Notes {
		out.Notes = append(out.Notes, DecodeNote(n))
	}
	return out, nil
}
