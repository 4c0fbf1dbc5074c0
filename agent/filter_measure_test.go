package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/ocr-ci/ocr/review"
)

// maxFilterOverhead is the budget, in cl100k tokens, of what every filter
// call sends besides the diff and the comments: system prompt, the user
// message's framing and the tool definition.
const maxFilterOverhead = 400

func cl100k(t *testing.T, s string) int {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	n, err := enc.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// requestTokens counts the messages and the tool definition as sent.
func requestTokens(t *testing.T, diff string, cs []review.Comment) (system, user, tool int) {
	t.Helper()
	req, err := filterRequest("m", diff, cs)
	if err != nil {
		t.Fatal(err)
	}
	def, err := json.Marshal(req.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	return cl100k(t, req.Messages[0].Content), cl100k(t, req.Messages[1].Content), cl100k(t, string(def))
}

func TestFilterPromptOverhead(t *testing.T) {
	system, user, tool := requestTokens(t, "", nil)
	overhead := system + user + tool
	diff, cs := loadFilterFixture(t, "filter_fixture")
	_, fullUser, _ := requestTokens(t, diff, cs)
	payload := cl100k(t, strings.TrimRight(diff, "\n"))
	for _, c := range cs {
		payload += cl100k(t, c.Content) + cl100k(t, c.ExistingCode) + cl100k(t, c.Suggestion)
	}
	perComment := float64(fullUser-user-payload) / float64(len(cs))
	t.Logf("filter overhead: system %d + user framing %d + tool %d = %d cl100k tokens; per-comment framing %.1f tokens; fixture request %d tokens (%d comments)",
		system, user, tool, overhead, perComment, system+fullUser+tool, len(cs))
	if overhead > maxFilterOverhead {
		t.Errorf("filter overhead %d tokens exceeds the budget of %d", overhead, maxFilterOverhead)
	}
	if perComment > 25 {
		t.Errorf("per-comment framing %.1f tokens exceeds 25", perComment)
	}
}

// oracleDrops plays an ideal filter model on the fixture: it drops the
// comments whose quoted lines are not all lines of the diff, and those
// listed as contradicted by the diff (a judgment a scripted fake cannot make).
func oracleDrops(diff string, cs []review.Comment, contradicted map[int]string) string {
	lines := map[string]bool{}
	for _, l := range strings.Split(diff, "\n") {
		if l != "" && strings.ContainsAny(l[:1], "+- ") {
			lines[review.NormalizeCode(l[1:])] = true
		}
	}
	var drops []string
	for i, c := range cs {
		reason, ok := contradicted[i+1]
		for _, q := range strings.Split(review.NormalizeCode(c.ExistingCode), "\n") {
			if !lines[q] {
				reason, ok = "quoted code not in the diff: "+q, true
			}
		}
		if ok {
			b, _ := json.Marshal(map[string]any{"id": i + 1, "reason": reason})
			drops = append(drops, string(b))
		}
	}
	return `{"drop": [` + strings.Join(drops, ", ") + `]}`
}

// TestFilterFixtureFigures measures the fixture of 20 comments (5 pairs of
// paraphrased duplicates, 4 bad quotes, 2 contradicted by the diff) through
// the filter (an ideal scripted model, real go-openai client) and dedupe.
func TestFilterFixtureFigures(t *testing.T) {
	diff, cs := loadFilterFixture(t, "filter_fixture")
	args := oracleDrops(diff, cs, map[int]string{19: "the error is checked on the next line", 20: "a fixed message is written, not the error"})
	_, chat := newFakeProvider(t, callAnswer(FilterTool, args))
	kept, drops, _, err := FilterWithReasons(context.Background(), chat, "m", diff, cs)
	if err != nil {
		t.Fatal(err)
	}
	deduped := review.Dedupe(kept)
	dedupeOnly := review.Dedupe(cs)
	capped, dropped := review.Cap(deduped, 3, 0)
	t.Logf("fixture: %d comments → filter %d (dropped %d) → dedupe %d; dedupe alone %d; cap 3/file → %d (+%d counted)",
		len(cs), len(kept), len(drops), len(deduped), len(dedupeOnly), len(capped), dropped)
	figures := fmt.Sprint(len(cs), len(kept), len(deduped), len(dedupeOnly))
	if figures != "20 14 9 15" {
		t.Errorf("figures (in, filtered, deduped, dedupe only) = %s, want 20 14 9 15", figures)
	}
	for _, d := range deduped {
		if d.Content == cs[1].Content || d.Severity == review.SeverityLow && d.Category == review.CategoryPerformance {
			t.Errorf("dedupe kept the less severe duplicate %q", d.Content)
		}
	}
	if deduped[0].Suggestion == "" || deduped[0].Severity != review.SeverityCritical {
		t.Errorf("first kept comment = %+v, want the critical one with its suggestion", deduped[0])
	}
}
