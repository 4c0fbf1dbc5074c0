package gitlab

import (
	"encoding/json"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

// TestUnreadableReplyKeepsThreadOpen: a note that cannot be read at all
// (gitlabapi.DecodeNote keeps it as nobody's) counts as someone else's
// reply in ocr's thread, so the thread is never resolved.
func TestUnreadableReplyKeepsThreadOpen(t *testing.T) {
	raw := `{"id":"abc","individual_note":false,"notes":[
	 {"id":1,"type":"DiffNote","body":"x\n\n<!-- ocr:fp=0123456789abcdef0123 -->","author":{"id":9},"resolvable":true,
	  "position":{"old_path":"a.go","new_path":"a.go","old_line":null,"new_line":60,"position_type":"text",
	   "line_range":{"start":{"line_code":"x_58_59","type":"new","old_line":null,"new_line":"59"},
	                 "end":{"line_code":"x_58_60","type":"new","old_line":null,"new_line":"60"}}}},
	 {"id":"three","body":["not a note"]}]}`
	d, err := gitlabapi.DecodeDiscussion(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	e := glExisting{threads: map[string]*glThread{}}
	e.add(d, 9)
	if th := e.threads["0123456789abcdef0123"]; th == nil || !th.Replied || th.Path != "a.go" {
		t.Errorf("thread %+v, want ocr's with a reply", th)
	}
}
