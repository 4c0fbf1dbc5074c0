package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// noisyModel is the scripted reviewer of issue 30 item 7: in each pass
// (each main request, told apart by its seed) it finds each planted issue
// of the files it is shown with probability Recall, in words of its own,
// and adds two or three false findings on random added lines. Its filter
// drops a false finding with probability 0.5 and a true one with 0.1.
// Every draw is seeded by the request's seed and what is drawn about, so a
// run is reproducible and passes differ.
type noisyModel struct {
	Recall   float64
	Expected map[string][]comment // by path
}

var (
	fileBlock = regexp.MustCompile(`(?s)<file path="([^"]+)">\n(.*?)</file>`)
	hunkHead  = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@`)
	itemHead  = regexp.MustCompile(`^\[(\d+)\] `)
)

// falseTexts are the false findings' words, each unlike the others: two
// passes that invent a finding rarely say the same thing on the same line.
var falseTexts = []string{
	"Consider renaming this function to describe its purpose better.",
	"This constant should be documented with a comment.",
	"Magic number: extract it into a named constant.",
	"The exported function has no tests.",
	"Prefer early returns to reduce nesting here.",
	"This allocation could be avoided by reusing a buffer.",
	"Logging is missing for this branch, which makes debugging hard.",
	"The comment above does not match what the code does.",
	"Use a switch statement instead of chained conditions.",
	"This could overflow for very large inputs.",
	"Handle the context cancellation here.",
	"The variable name shadows a package name.",
	"Return a wrapped error with more context.",
	"Inline this helper; it is used once.",
	"The receiver should be a pointer for consistency.",
	"Sort the imports alphabetically.",
	"A table-driven test would cover more cases.",
	"This line exceeds the preferred width.",
	"Mark this deprecated before removing it.",
	"Cache the computed value between calls.",
	"Add a benchmark to show the speed-up.",
	"The struct field order wastes padding.",
	"Use strings.Builder for concatenation in loops.",
	"Validate the argument at the API boundary.",
	"Move this to its own file for readability.",
	"Metrics would help observe this path.",
	"Declare the slice with its known capacity.",
	"Unexport this identifier; nothing outside uses it.",
	"Document the units of this value.",
	"A named return would clarify the result.",
}

var falseCategories = []string{"style", "documentation", "maintainability", "performance", "test"}

// answer is the llmtest handler.
func (m *noisyModel) answer(r llmtest.Request) llmtest.Answer {
	if slices.Contains(r.ToolNames(), "drop_comments") {
		return m.filter(r)
	}
	seed := 0
	if r.Body.Seed != nil {
		seed = *r.Body.Seed
	}
	var cs []map[string]string
	for _, f := range fileBlock.FindAllStringSubmatch(r.FirstUser(), -1) {
		cs = append(cs, m.review(seed, f[1], f[2])...)
	}
	return llmtest.Answer{OmitIDs: true, Calls: []llmtest.Call{
		llmtest.Tool("code_comment", map[string]any{"comments": cs}), llmtest.Done()}}
}

// review is one pass's findings on one file's diff.
func (m *noisyModel) review(seed int, path, diff string) []map[string]string {
	lines, added := newLines(diff)
	var out []map[string]string
	for _, e := range m.Expected[path] {
		r := draw(seed, path, e.FromLine)
		if r.Float64() >= m.Recall {
			continue
		}
		text := []string{"", "Bug: ", "Careful: "}[r.IntN(3)] + e.Note + []string{"", " Please fix it.", " This fails in production."}[r.IntN(3)]
		out = append(out, map[string]string{"content": text, "existing_code": lines[e.FromLine], "category": "bug", "severity": "high"})
	}
	r := draw(seed, path, -1)
	for range 2 + r.IntN(2) {
		n := added[r.IntN(len(added))]
		out = append(out, map[string]string{"content": falseTexts[r.IntN(len(falseTexts))], "existing_code": lines[n],
			"category": falseCategories[r.IntN(len(falseCategories))], "severity": []string{"medium", "low"}[r.IntN(2)]})
	}
	return out
}

// filter drops false findings with probability 0.5, true ones with 0.1.
func (m *noisyModel) filter(r llmtest.Request) llmtest.Answer {
	var drops []map[string]any
	id := 0
	for _, line := range strings.Split(r.FirstUser(), "\n") {
		if g := itemHead.FindStringSubmatch(line); g != nil {
			id, _ = strconv.Atoi(g[1])
		}
		text, ok := strings.CutPrefix(line, "Comment: ")
		if !ok {
			continue
		}
		p := 0.1
		if slices.Contains(falseTexts, text) {
			p = 0.5
		}
		if draw(len(text), text, id).Float64() < p {
			drops = append(drops, map[string]any{"id": id, "reason": "the diff contradicts it"})
		}
	}
	return llmtest.Calls(llmtest.Tool("drop_comments", map[string]any{"drop": drops}))
}

// draw is the random source for one decision.
func draw(seed int, what string, n int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%d", seed, what, n)
	return rand.New(rand.NewPCG(h.Sum64(), 30))
}

// newLines reads a compact diff: the text of each new-side line, and the
// numbers of the added ones.
func newLines(diff string) (map[int]string, []int) {
	lines := map[int]string{}
	var added []int
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if g := hunkHead.FindStringSubmatch(l); g != nil {
			n, _ = strconv.Atoi(g[1])
			continue
		}
		if n == 0 || l == "" || l[0] == '-' || l[0] == '\\' {
			continue
		}
		lines[n] = l[1:]
		if l[0] == '+' && strings.TrimSpace(l[1:]) != "" {
			added = append(added, n)
		}
		n++
	}
	return lines, added
}
