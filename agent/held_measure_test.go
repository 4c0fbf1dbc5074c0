package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ocr-ci/ocr/internal/llm/llmtest"
	"github.com/ocr-ci/ocr/tools"
	openai "github.com/sashabaranov/go-openai"
)

// The ordinary review of issue 13: real Go files (a snapshot of this
// repository's diff parser and resolver in testdata/ordinary, frozen so
// that edits to anchor do not move the figure) where every sixth line is
// added, one file per group, and a scripted model that reads the file, searches once, then comments on two
// added lines quoting a run of 1-4 lines from there (as a model copies
// code from the diff), then finishes. When the result reports a comment
// ambiguous, the model that follows the feedback sends it again in an
// answer of its own, starting with the same line and followed by the 3
// lines after it, then finishes; the one that ignores it finishes. The
// test measures the extra requests the feedback costs (target < 10%), and
// checks that no finding appears twice and every re-sent one lands on its
// line.

var ordinaryFiles = []string{"changeset.go", "fuzzy.go", "match.go", "match_seq.go", "match_snippet.go", "parse.go", "parse_hunk.go", "resolve.go", "resolve_rank.go", "parse_header.go"}

// ordinaryReview is the scripted model's plan for one file: the head's
// lines and the 0-based start and length of each comment's quote.
type ordinaryReview struct {
	head   []string
	starts []int
	lens   []int
}

func ordinaryChange(t *testing.T) (base, head map[string]string, plans map[string]ordinaryReview) {
	base, head, plans = map[string]string{}, map[string]string{}, map[string]ordinaryReview{}
	for fi, name := range ordinaryFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "ordinary", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		var kept, added []int
		for i := range lines {
			if i%6 == 3 && strings.TrimSpace(lines[i]) != "" {
				added = append(added, i)
				continue
			}
			kept = append(kept, i)
		}
		var bs strings.Builder
		for _, i := range kept {
			bs.WriteString(lines[i] + "\n")
		}
		p := "anchor/" + name
		base[p], head[p] = bs.String(), string(b)
		var plan ordinaryReview
		plan.head = lines
		for j := range 2 {
			plan.starts = append(plan.starts, added[(2*j+1)*len(added)/4])
			plan.lens = append(plan.lens, 1+(fi+j)%4)
		}
		plans[p] = plan
	}
	return base, head, plans
}

var ambiguousItem = regexp.MustCompile(`(?m)^(\d+)\. ambiguous`)

// ordinaryModel answers as the scripted model described above.
func ordinaryModel(plans map[string]ordinaryReview, follow bool, resent *int, mu *sync.Mutex) func(llmtest.Request) llmtest.Answer {
	return func(r llmtest.Request) llmtest.Answer {
		m := firstFile.FindStringSubmatch(r.FirstUser())
		if m == nil {
			return llmtest.Text("NONE")
		}
		path, plan := m[1], plans[m[1]]
		step := 0
		for _, msg := range r.Body.Messages {
			if msg.Role == openai.ChatMessageRoleAssistant {
				step++
			}
		}
		quote := func(j, extra int) map[string]string {
			s := plan.starts[j]
			code := strings.Join(plan.head[s:min(len(plan.head), s+plan.lens[j]+extra)], "\n")
			return map[string]string{"content": fmt.Sprintf("Finding %d: check this.", j), "existing_code": code, "category": "bug", "severity": "medium"}
		}
		switch step {
		case 0:
			return llmtest.Calls(llmtest.Tool("file_read", map[string]any{"file_path": path, "start_line": 1, "end_line": 60}))
		case 1:
			return llmtest.Calls(llmtest.Tool("code_search", map[string]any{"search_text": "func "}))
		case 2:
			return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{quote(0, 0), quote(1, 0)}}))
		case 3:
			res := toolResults(r)
			var again []map[string]string
			for _, g := range ambiguousItem.FindAllStringSubmatch(res[len(res)-1], -1) {
				j, _ := strconv.Atoi(g[1]) // the pattern matched digits only
				again = append(again, quote(j-1, 3))
			}
			if follow && len(again) > 0 {
				mu.Lock()
				*resent += len(again)
				mu.Unlock()
				return llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": again}))
			}
		}
		return llmtest.Calls(llmtest.Done())
	}
}

func TestOrdinaryReviewExtraRequests(t *testing.T) {
	base, head, plans := ordinaryChange(t)
	run := func(follow bool) (Output, int, int) {
		f := newFixture(t, copyMap(base), copyMap(head))
		srv := llmtest.New(t)
		var resent int
		var mu sync.Mutex
		srv.Handle(ordinaryModel(plans, follow, &resent, &mu))
		out := New(Config{GroupFiles: 1, Concurrency: 2}, client(t, srv, nil), tools.Default()).Review(context.Background(), f.input)
		return out, srv.Count(), resent
	}
	ignored, base0, _ := run(false)
	followed, n, resent := run(true)
	extra := 100 * float64(n-base0) / float64(base0)
	exact := func(out Output) int {
		hits := 0
		for _, c := range out.Comments {
			var j int
			if _, err := fmt.Sscanf(c.Content, "Finding %d:", &j); err != nil {
				t.Fatalf("comment %q: %v", c.Content, err)
			}
			if c.StartLine == plans[c.Path].starts[j]+1 {
				hits++
			}
		}
		return hits
	}
	t.Logf("ordinary review: %d files, %d comments; requests %d ignoring the feedback, %d following it (+%.1f%%); %d re-sent; exact start line %d → %d",
		len(ordinaryFiles), 2*len(ordinaryFiles), base0, n, extra, resent, exact(ignored), exact(followed))
	if len(followed.Comments) != 2*len(ordinaryFiles) || len(ignored.Comments) != 2*len(ordinaryFiles) {
		t.Errorf("comments: %d following, %d ignoring; want %d each (no duplicates, none lost)", len(followed.Comments), len(ignored.Comments), 2*len(ordinaryFiles))
	}
	if exact(followed) != 2*len(ordinaryFiles) {
		t.Errorf("following the feedback, %d of %d comments are on their line", exact(followed), 2*len(ordinaryFiles))
	}
	if resent == 0 {
		t.Errorf("no comment was ambiguous: the measure says nothing")
	}
	if extra >= 10 {
		t.Errorf("extra requests %.1f%% >= 10%%", extra)
	}
}
