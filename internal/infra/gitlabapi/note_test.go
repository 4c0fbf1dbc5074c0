package gitlabapi

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDecodeDiscussionIsolatesNotes: GitLab's multi-line position (string
// numbers in line_range, null old_line) reads; a note whose position
// cannot be read keeps its author and body; a note that cannot be read at
// all is kept as nobody's; none hides the others.
func TestDecodeDiscussionIsolatesNotes(t *testing.T) {
	raw := `{"id":"abc","individual_note":false,"notes":[
	 {"id":1,"type":"DiffNote","body":"ocr","author":{"id":9},"resolvable":true,"created_at":"2018-03-04T09:17:22.520Z",
	  "position":{"old_path":"a.go","new_path":"a.go","old_line":null,"new_line":60,"position_type":"text",
	   "line_range":{"start":{"line_code":"x_58_59","type":"new","old_line":"null","new_line":"59"},
	                 "end":{"line_code":"x_58_60","type":"new","old_line":null,"new_line":"60"}}}},
	 {"id":2,"type":"DiffNote","body":"odd","author":{"id":"7"},"position":{"new_line":"sixty"},"created_at":"yesterday"},
	 {"id":"three","body":["not a note"]},
	 {"id":4,"type":null,"body":"reply","author":{"id":8},"position":null}]}`
	d, err := DecodeDiscussion(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "abc" || d.Individual || len(d.Notes) != 4 {
		t.Fatalf("decoded %+v", d)
	}
	first := d.Notes[0]
	if first.Position == nil || first.Position.NewLine != 60 || first.Position.OldLine != 0 || first.Position.LineRange == nil ||
		first.Position.LineRange.Start.NewLine != 59 || first.Position.LineRange.Start.OldLine != 0 ||
		first.Position.LineRange.End.NewLine != 60 || first.Author.ID != 9 {
		t.Errorf("multi-line note: %+v %+v", first, first.Position)
	}
	if want := time.Date(2018, 3, 4, 9, 17, 22, 520e6, time.UTC); !first.Created().Equal(want) {
		t.Errorf("created %v, want %v", first.Created(), want)
	}
	if odd := d.Notes[1]; odd.Position != nil || odd.PositionErr == nil || odd.Body != "odd" || odd.Author.ID != 7 || !odd.Created().IsZero() {
		t.Errorf("unreadable position: %+v", odd)
	}
	if bad := d.Notes[2]; bad.Unreadable == nil || bad.Author.ID != 0 || bad.Body != "" {
		t.Errorf("unreadable note: %+v", bad)
	}
	if reply := d.Notes[3]; reply.Body != "reply" || reply.Position != nil || reply.Type != "" {
		t.Errorf("general note: %+v", reply)
	}
}

// TestDecodeDiscussionUnreadable: only a discussion that is not an object
// is an error.
func TestDecodeDiscussionUnreadable(t *testing.T) {
	if _, err := DecodeDiscussion(json.RawMessage(`["x"]`)); err == nil {
		t.Error("no error for a discussion that is an array")
	}
	d, err := DecodeDiscussion(json.RawMessage(`{"id":"x","individual_note":true,"notes":[]}`))
	if err != nil || !d.Individual || len(d.Notes) != 0 {
		t.Errorf("%+v, %v", d, err)
	}
}
