package gitlab

import (
	"encoding/json"
	"testing"
)

// TestLineNumTolerant: GitLab's line numbers as numbers, numeric strings,
// null or empty; anything else is an error.
func TestLineNumTolerant(t *testing.T) {
	for in, want := range map[string]lineNum{`59`: 59, `"59"`: 59, `null`: 0, `""`: 0, `" 7 "`: 7} {
		var n lineNum
		if err := json.Unmarshal([]byte(in), &n); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", in, n, err, want)
		}
	}
	for _, in := range []string{`"fifty"`, `true`, `{}`, `1.5`} {
		var n lineNum
		if err := json.Unmarshal([]byte(in), &n); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

// TestDecodeDiscussionIsolatesNotes: GitLab's multi-line position (string
// numbers in line_range, null old_line) reads; a note whose position
// cannot be read keeps its author and body; a note that cannot be read at
// all is kept as nobody's; none hides the others.
func TestDecodeDiscussionIsolatesNotes(t *testing.T) {
	raw := `{"id":"abc","individual_note":false,"notes":[
	 {"id":1,"type":"DiffNote","body":"ocr","author":{"id":9},"resolvable":true,
	  "position":{"old_path":"a.go","new_path":"a.go","old_line":null,"new_line":60,"position_type":"text",
	   "line_range":{"start":{"line_code":"x_58_59","type":"new","old_line":null,"new_line":"59"},
	                 "end":{"line_code":"x_58_60","type":"new","old_line":null,"new_line":"60"}}}},
	 {"id":2,"type":"DiffNote","body":"odd","author":{"id":7},"position":{"new_line":"sixty"}},
	 {"id":"three","body":["not a note"]},
	 {"id":4,"type":null,"body":"reply","author":{"id":8},"position":null}]}`
	d, err := decodeDiscussion(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "abc" || len(d.Notes) != 4 {
		t.Fatalf("decoded %+v", d)
	}
	first := d.Notes[0]
	if first.Position == nil || first.Position.NewLine != 60 || first.Position.OldLine != 0 || first.Position.LineRange == nil ||
		first.Position.LineRange.Start.NewLine != 59 || first.Position.LineRange.End.NewLine != 60 || first.Author.ID != 9 {
		t.Errorf("multi-line note: %+v %+v", first, first.Position)
	}
	if odd := d.Notes[1]; odd.Position != nil || odd.PositionErr == nil || odd.Body != "odd" || odd.Author.ID != 7 {
		t.Errorf("unreadable position: %+v", odd)
	}
	if bad := d.Notes[2]; bad.Unreadable == nil || bad.Author.ID != 0 {
		t.Errorf("unreadable note: %+v", bad)
	}
	if reply := d.Notes[3]; reply.Body != "reply" || reply.Position != nil || reply.Type != "" {
		t.Errorf("general note: %+v", reply)
	}
	// An unreadable reply counts as someone else's: the thread is never resolved.
	e := glExisting{threads: map[string]*glThread{}}
	d.Notes[0].Body = "x\n\n<!-- ocr:fp=0123456789abcdef0123 -->"
	d.Notes = []*glNote{d.Notes[0], d.Notes[2]}
	e.add(d, 9)
	if th := e.threads["0123456789abcdef0123"]; th == nil || !th.Replied || th.Path != "a.go" {
		t.Errorf("thread %+v, want ocr's with a reply", th)
	}
}
