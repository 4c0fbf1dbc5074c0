package posting

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ocr-ci/ocr/review"
)

// stateFindings are findings of every shape the summary records.
func stateFindings() []review.Comment {
	mk := func(path string, sev review.Severity, cat review.Category, line int, code string) review.Comment {
		c := review.Comment{Location: review.Location{Path: path, Side: review.SideNew, StartLine: line, EndLine: line + 1,
			InHunk: true, Method: review.MethodHunkNew}, Content: "Leaks <b>the</b> handle --> `x`", ExistingCode: code,
			Category: cat, Severity: sev, RuleID: "go", Thinking: "SECRET-THOUGHT"}
		c.Fingerprint = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
		return c
	}
	old := mk("b.go", review.SeverityLow, review.CategoryStyle, 3, "y := 1")
	old.Side, old.OldPath, old.Suggestion = review.SideOld, "a_old.go", "y := 2\n"
	file := mk("c.md", review.SeverityCritical, review.CategoryDocumentation, 0, "")
	file.StartLine, file.EndLine, file.Side = 0, 0, review.SideNone
	voted := mk("a.go", review.SeverityMedium, review.CategoryBug, 10, "x := f()")
	voted.Votes = &review.Votes{Found: 2, Passes: 3}
	return []review.Comment{voted, old, file,
		mk("日本.go", review.SeverityHigh, review.CategorySecurity, 1, "exec(cmd)")}
}

// ignoreUnrecorded drops what the summary does not record: anchoring
// details (re-done against the new head) and the model's Thinking.
var ignoreUnrecorded = cmp.Options{
	cmpopts.IgnoreFields(review.Location{}, "InHunk", "Method", "Candidates"),
	cmpopts.IgnoreFields(review.Comment{}, "Thinking"),
	cmpopts.SortSlices(func(a, b review.Comment) bool { return a.Fingerprint < b.Fingerprint }),
}

func summaryWith(s *State, cs ...review.Comment) string {
	r := &review.Review{Tool: "ocr", Status: review.StatusComplete, Head: strings.Repeat("a", 40), Comments: cs}
	return StickySummary(StickyInput{Review: r, State: s})
}

func TestFindingsRoundTrip(t *testing.T) {
	fs := stateFindings()
	body := summaryWith(&State{Head: "abc123", Config: "cfg", Findings: fs}, fs...)
	s, ok := ReadState(body)
	if !ok || s.Head != "abc123" || s.Config != "cfg" {
		t.Fatalf("ReadState = %+v, %v", s, ok)
	}
	if d := cmp.Diff(fs, s.Findings, ignoreUnrecorded); d != "" {
		t.Errorf("findings (-wrote +read):\n%s", d)
	}
	if got := s.Findings[0].Severity; got != review.SeverityCritical {
		t.Errorf("findings are not most severe first: %s first", got)
	}
	payload := decodedPayload(t, body)
	if strings.Contains(payload, "SECRET-THOUGHT") || strings.Contains(payload, "in_diff") {
		t.Errorf("the marker records more than it should: %s", payload)
	}
	empty, ok := ReadState(summaryWith(&State{Head: "abc", Findings: []review.Comment{}}))
	if !ok || empty.Findings == nil || len(empty.Findings) != 0 {
		t.Errorf("an empty list must read back empty, not unknown: %#v", empty.Findings)
	}
	unknown, _ := ReadState(summaryWith(&State{Head: "abc"}))
	if unknown.Findings != nil || strings.Contains(summaryWith(&State{Head: "abc"}), "ocr:findings") {
		t.Errorf("unknown findings must stay unknown: %#v", unknown.Findings)
	}
	if b := summaryWith(nil, fs...); strings.Contains(b, "ocr:state") || strings.Contains(b, "ocr:findings") {
		t.Errorf("a nil State must record nothing:\n%s", b)
	}
}

// decodedPayload returns the JSON inside the findings marker of body.
func decodedPayload(t *testing.T, body string) string {
	t.Helper()
	prev, _ := markerLastLines(body)
	m := findingsMarkerRE.FindStringSubmatch(prev)
	if m == nil {
		t.Fatalf("no findings marker before the state line:\n%s", body)
	}
	raw, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestFindingsMarkerDeterministic: the same findings in any order render
// the same line, so an unchanged re-run does not edit the summary.
func TestFindingsMarkerDeterministic(t *testing.T) {
	fs := stateFindings()
	a, _ := findingsMarker(fs, 1<<20)
	rev := []review.Comment{fs[3], fs[2], fs[1], fs[0]}
	rev[0].Thinking = "other thoughts"
	b, _ := findingsMarker(rev, 1<<20)
	if a != b {
		t.Errorf("order or Thinking changed the marker:\n%s\n%s", a, b)
	}
	other := append([]review.Comment{}, fs...)
	other[0].Content += "!"
	if c, _ := findingsMarker(other, 1<<20); c == a {
		t.Error("a changed finding must change the marker")
	}
	s1 := summaryWith(&State{Head: "abc", Findings: fs}, fs...)
	s2 := summaryWith(&State{Head: "abc", Findings: rev}, fs...)
	if !SameSummary(s1, s2) {
		t.Error("SameSummary must hold for the same findings")
	}
	if SameSummary(s1, summaryWith(&State{Head: "abc", Findings: other}, fs...)) {
		t.Error("SameSummary must see changed findings")
	}
}

// forgedLine encodes payload as a findings marker line.
func forgedLine(t *testing.T, payload []byte, compress bool) string {
	t.Helper()
	if compress {
		payload = gzipped(t, gzip.DefaultCompression, payload)
	}
	return findingsPrefix + base64.StdEncoding.EncodeToString(payload) + " -->"
}

// gzipped compresses data at level.
func gzipped(t *testing.T, level int, data []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// TestReadStateRejectsBadFindings: a malformed, forged or oversized
// findings marker yields unknown findings (nil) and still the state.
func TestReadStateRejectsBadFindings(t *testing.T) {
	good, _ := findingsMarker(stateFindings(), 1<<20)
	many := "[" + strings.TrimSuffix(strings.Repeat(`{"path":"a","category":"bug","severity":"low","content":"x","fingerprint":"f"},`, maxFindingsCount+1), ",") + "]"
	cases := map[string]string{
		"not base64":        findingsPrefix + "@@@ -->",
		"not gzip":          forgedLine(t, []byte(`[{"path":"a"}]`), false),
		"truncated gzip":    good[:len(good)/2] + " -->",
		"not JSON":          forgedLine(t, []byte("<script>"), true),
		"null":              forgedLine(t, []byte("null"), true),
		"object":            forgedLine(t, []byte(`{"path":"a"}`), true),
		"bad side":          forgedLine(t, []byte(`[{"path":"a","side":"up","fingerprint":"f"}]`), true),
		"negative line":     forgedLine(t, []byte(`[{"path":"a","start_line":-1,"fingerprint":"f"}]`), true),
		"end before start":  forgedLine(t, []byte(`[{"path":"a","start_line":9,"end_line":2,"fingerprint":"f"}]`), true),
		"no path":           forgedLine(t, []byte(`[{"content":"x","fingerprint":"f"}]`), true),
		"marker in fp":      forgedLine(t, []byte(`[{"path":"a","fingerprint":"x --> <!-- ocr:fp=y"}]`), true),
		"gzip bomb":         forgedLine(t, []byte("["+strings.Repeat(" ", 2<<20)+"]"), true),
		"too many":          forgedLine(t, []byte(many), true),
		"huge field":        forgedLine(t, []byte(`[{"path":"a","fingerprint":"f","content":"`+strings.Repeat("x", maxCarriedField+1)+`"}]`), true),
		"other version":     strings.Replace(good, " v1 ", " v2 ", 1),
		"votes over passes": forgedLine(t, []byte(`[{"path":"a","fingerprint":"f","votes":{"Found":4,"Passes":3}}]`), true),
		"no vote":           forgedLine(t, []byte(`[{"path":"a","fingerprint":"f","votes":{"Found":0,"Passes":3}}]`), true),
		"huge line":         hugeLine(t),
	}
	state := stateMarker(State{Head: "abc", Config: "c"})
	for name, line := range cases {
		t.Run(name, func(t *testing.T) {
			body := summaryMarker + "\n## ocr review\n" + line + "\n" + state
			s, ok := ReadState(body)
			if !ok || s.Head != "abc" || s.Findings != nil {
				t.Errorf("ReadState = %v, %v (%d findings), want the state without findings", s.Head, ok, len(s.Findings))
			}
		})
	}
	if s, ok := ReadState(summaryMarker + "\n" + good + "\n" + state); !ok || len(s.Findings) != 4 {
		t.Fatalf("the valid marker must read: %d findings, %v", len(s.Findings), ok)
	}
	for name, body := range map[string]string{
		"not the summary":  "## looks like ocr\n" + good + "\n" + state,
		"not before state": summaryMarker + "\n" + good + "\ntext\n" + state,
	} {
		if s, _ := ReadState(body); s.Findings != nil {
			t.Errorf("%s: %d findings read", name, len(s.Findings))
		}
	}
}

// hugeLine is a valid marker whose JSON is under the decoded limit but
// whose line is over the encoded one (stored, not compressed).
func hugeLine(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var items []string
	for range 16 {
		items = append(items, `{"path":"a","fingerprint":"f","content":"`+randomText(rng, 60000)+`"}`)
	}
	z := gzipped(t, gzip.NoCompression, []byte("["+strings.Join(items, ",")+"]"))
	return findingsPrefix + base64.StdEncoding.EncodeToString(z) + " -->"
}

// TestSummaryBoundWithManyFindings: findings that do not fit are cut, the
// least severe first, the summary says how many, and the body stays under
// GitHub's limit.
func TestSummaryBoundWithManyFindings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sevs := []review.Severity{review.SeverityCritical, review.SeverityHigh, review.SeverityMedium, review.SeverityLow}
	var fs []review.Comment
	for i := range 600 {
		c := review.Comment{Location: review.Location{Path: fmt.Sprintf("pkg/f%d.go", i), Side: review.SideNew, StartLine: 1, EndLine: 1},
			Content: randomText(rng, 400), ExistingCode: randomText(rng, 80), Category: review.CategoryBug, Severity: sevs[i%4]}
		c.Fingerprint = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
		fs = append(fs, c)
	}
	body := summaryWith(&State{Head: "abc", Config: "c", Findings: fs}, fs...)
	if n := len([]rune(body)); n > 65536 || len(body) > maxSummary {
		t.Fatalf("summary is %d characters, %d bytes", n, len(body))
	}
	s, ok := ReadState(body)
	if !ok || len(s.Findings) == 0 || len(s.Findings) >= len(fs) || !s.Cut {
		t.Fatalf("ReadState: %v, %d of %d findings, cut %v", ok, len(s.Findings), len(fs), s.Cut)
	}
	if whole, _ := ReadState(summaryWith(&State{Head: "abc", Config: "c", Findings: fs[:3]}, fs[:3]...)); whole.Cut {
		t.Error("a summary that recorded every finding reads back as cut")
	}
	cut := len(fs) - len(s.Findings)
	if !strings.Contains(body, fmt.Sprintf("%d finding(s), the least severe, could not be recorded", cut)) {
		t.Errorf("the summary does not say %d findings were cut", cut)
	}
	kept := map[review.Severity]int{}
	for _, c := range s.Findings {
		kept[c.Severity]++
	}
	for i, sev := range sevs[:3] {
		if kept[sev] < len(fs)/4 && kept[sevs[i+1]] > 0 {
			t.Errorf("%s findings were cut while %s ones were kept: %v", sev, sevs[i+1], kept)
		}
	}
	for i := 1; i < len(s.Findings); i++ {
		if s.Findings[i].Severity.Rank() > s.Findings[i-1].Severity.Rank() {
			t.Fatalf("findings not most severe first at %d", i)
		}
	}
	t.Logf("%d of %d findings kept in a %d-byte summary", len(s.Findings), len(fs), len(body))
}

// randomText is incompressible lowercase text of n letters.
func randomText(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}

// BenchmarkFindingsMarker encodes the findings line of a summary with 50
// (the default cap per run) and 1,000 findings (cut to fit).
func BenchmarkFindingsMarker(b *testing.B) {
	for _, n := range []int{50, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			var fs []review.Comment
			for i := range n {
				c := review.Comment{Location: review.Location{Path: fmt.Sprintf("pkg/f%d.go", i%40), StartLine: i + 1, EndLine: i + 1},
					Content: "The error from Close is ignored " + randomText(rng, 200), ExistingCode: "defer f.Close()\n" + randomText(rng, 40),
					Category: review.CategoryBug, Severity: review.SeverityHigh}
				c.Fingerprint = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
				fs = append(fs, c)
			}
			var line string
			var cut int
			for b.Loop() {
				line, cut = findingsMarker(fs, 48000)
			}
			b.ReportMetric(float64(len(line)), "bytes/line")
			b.ReportMetric(float64(cut), "cut")
		})
	}
}
