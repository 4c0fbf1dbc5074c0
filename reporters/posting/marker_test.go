package posting

import "testing"

func TestReadState(t *testing.T) {
	body := summaryMarker + "\n## ocr review\n\n" + stateMarker(State{Head: "abc123", Config: "cfg-1"})
	if s, ok := ReadState(body); !ok || s.Head != "abc123" || s.Config != "cfg-1" || s.Findings != nil {
		t.Errorf("ReadState = %+v, %v", s, ok)
	}
	for _, bad := range []string{
		"## not ours\n" + stateMarker(State{Head: "abc"}),                 // no summary marker first
		summaryMarker + "\n" + stateMarker(State{Head: "abc"}) + "\nmore", // state not last
		summaryMarker + "\n<!-- ocr:state head=zz config=x -->",           // not hex
	} {
		if s, ok := ReadState(bad); ok {
			t.Errorf("ReadState(%q) = %+v, want none", bad, s)
		}
	}
}

func TestMarkerFingerprint(t *testing.T) {
	cases := map[string]string{
		"text\n\n" + fingerprintMarker("abc123"):           "abc123",
		"text\n" + fingerprintMarker("abc") + "\n\n":       "abc",
		fingerprintMarker("abc") + "\ntrailing human text": "",
		"<!-- ocr:fp=a b -->":                              "",
	}
	for body, want := range cases {
		if got, _ := MarkerFingerprint(body); got != want {
			t.Errorf("MarkerFingerprint(%q) = %q, want %q", body, got, want)
		}
	}
}

// Marker is the one grammar of ocr's markers (the conversation's
// acknowledgements use it too), read only from a body's last line.
func TestMarkerGrammar(t *testing.T) {
	m := Marker("ack", "verb=pause", "by=alice")
	if m != "<!-- ocr:ack verb=pause by=alice -->" || Marker("answer") != "<!-- ocr:answer -->" {
		t.Errorf("Marker = %q", m)
	}
	if !IsMarked("Paused.\n\n"+m+"\n") || MarkerLine("x\n"+m+"\n\n") != m {
		t.Errorf("not read back from the last line: %q", MarkerLine("x\n"+m))
	}
	if IsMarked(m+"\nthen a question") || fingerprintMarker("ab") != Marker("fp=ab") {
		t.Error("a marker counts only as the last line, in the one grammar")
	}
}
