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
