package review

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// Similarity thresholds: two comments on overlapping lines of the same
// file, side and category are one finding when the Similarity of their texts
// reaches DuplicateSimilarity, or SameCodeSimilarity when they also quote
// the same code. Tuned on paraphrases in dedupe_test.go: paraphrases of one
// finding score 0.5-1, different findings on the same lines 0.05-0.2.
const (
	DuplicateSimilarity = 0.5
	SameCodeSimilarity  = 0.34
)

// Dedupe merges comments that describe the same finding — across rounds,
// groups and tools — into one: same path and side, overlapping lines (or
// both file-level), same category and near-identical text (see
// Duplicate). The most severe comment of each set is kept; it takes a
// suggestion from its duplicates only when it has none and they all made
// the same one for the same lines and quoted code.
// The result does not depend on the input order, Dedupe(Dedupe(x)) equals
// Dedupe(x), and it is ordered like SortBySeverity. The input is not modified.
func Dedupe(comments []Comment) []Comment {
	sorted := slices.Clone(comments)
	slices.SortFunc(sorted, canonical)
	var kept []Comment
	var groups []dupGroup
	for _, c := range sorted {
		d := digestOf(c)
		i := findDuplicate(kept, groups, c, d)
		if i < 0 {
			kept = append(kept, c)
			groups = append(groups, dupGroup{digest: d})
			continue
		}
		groups[i].add(kept[i], c, d)
	}
	for i := range kept {
		if s, ok := groups[i].agreed(); ok && strings.TrimSpace(kept[i].Suggestion) == "" {
			kept[i].Suggestion = s
		}
	}
	return kept
}

// dupGroup is what Dedupe remembers about a kept comment's duplicates.
type dupGroup struct {
	digest      digest // of the kept comment
	suggestions []string
	// conflict is set when a duplicate's suggestion replaces other lines
	// than the kept comment's, so it cannot be moved over.
	conflict bool
}

// add records duplicate d (with digest dd) of kept k.
func (g *dupGroup) add(k, d Comment, dd digest) {
	if strings.TrimSpace(d.Suggestion) == "" {
		return
	}
	if d.StartLine != k.StartLine || lastLine(d.Location) != lastLine(k.Location) || dd.code != g.digest.code {
		g.conflict = true
		return
	}
	g.suggestions = append(g.suggestions, d.Suggestion)
}

// agreed returns the suggestion every duplicate made for the same lines,
// if there is one and no other.
func (g *dupGroup) agreed() (string, bool) {
	if g.conflict || len(g.suggestions) == 0 {
		return "", false
	}
	for _, s := range g.suggestions[1:] {
		if strings.TrimSpace(s) != strings.TrimSpace(g.suggestions[0]) {
			return "", false
		}
	}
	return g.suggestions[0], true
}

// findDuplicate returns the index of the first kept comment that c (with
// digest d) duplicates, or -1.
func findDuplicate(kept []Comment, groups []dupGroup, c Comment, d digest) int {
	for i, k := range kept {
		if sameFinding(k, c) && similarEnough(groups[i].digest, d) {
			return i
		}
	}
	return -1
}

// Duplicate reports whether a and b are the same finding: same path, side
// and category, overlapping line ranges (file-level comments overlap only
// each other) and similar texts (see DuplicateSimilarity).
func Duplicate(a, b Comment) bool {
	return sameFinding(a, b) && similarEnough(digestOf(a), digestOf(b))
}

// sameFinding is the cheap part of Duplicate: same place and category.
func sameFinding(a, b Comment) bool {
	if a.Path != b.Path || a.Side != b.Side || a.Category != b.Category || a.FileLevel() != b.FileLevel() {
		return false
	}
	return a.FileLevel() || (lastLine(a.Location) >= b.StartLine && lastLine(b.Location) >= a.StartLine)
}

// digest is what comparing a comment's text and quoted code needs,
// computed once per comment rather than once per pair.
type digest struct {
	words map[string]bool
	code  string // NormalizeCode of ExistingCode; "" when it quotes nothing
}

func digestOf(c Comment) digest {
	return digest{words: words(c.Content), code: NormalizeCode(c.ExistingCode)}
}

// similarEnough compares two comments' texts by their digests; quoting the
// same code lowers the bar.
func similarEnough(a, b digest) bool {
	threshold := DuplicateSimilarity
	if a.code != "" && a.code == b.code {
		threshold = SameCodeSimilarity
	}
	return jaccard(a.words, b.words) >= threshold
}

// lastLine is EndLine, or StartLine when EndLine is unset or before it.
func lastLine(l Location) int {
	return max(l.EndLine, l.StartLine)
}

// Similarity is the Jaccard similarity of the sets of content words of a
// and b (lowercased runs of letters and digits, crudely stemmed, stop words
// and one-letter words dropped): 1 for the same words in any order, 0 for
// none in common.
func Similarity(a, b string) float64 {
	return jaccard(words(a), words(b))
}

// jaccard is |a∩b| / |a∪b|, 1 for two empty sets.
func jaccard(wa, wb map[string]bool) float64 {
	if len(wa) == 0 && len(wb) == 0 {
		return 1
	}
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(wa)+len(wb)-inter)
}

// words splits s into its set of lowercased content words.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) > 1 && !stopWord(w) {
			out[stem(w)] = true
		}
	}
	return out
}

// stem strips one common English suffix, keeping at least three letters, so
// that "leaks", "leaking" and "leaked" compare equal.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if r, ok := strings.CutSuffix(w, suf); ok && len(r) >= 3 && !strings.HasSuffix(w, "ss") {
			return r
		}
	}
	return w
}

// stopWord reports whether w carries no meaning for telling two findings apart.
func stopWord(w string) bool {
	switch w {
	case "the", "an", "is", "are", "be", "it", "its", "this", "that", "of", "to", "in", "on", "for",
		"and", "or", "if", "when", "which", "can", "may", "might", "could", "will", "would", "should",
		"here", "there", "by", "with", "from", "as", "at", "not", "no", "but", "so", "than", "then",
		"was", "were", "has", "have", "been", "being", "into", "because",
		"possible", "possibly", "potential", "potentially", "consider":
		return true
	}
	return false
}

// canonical is a total order on comments: most severe first, then by
// location and every text field, so that sorting makes results independent
// of the input order.
func canonical(a, b Comment) int {
	if c := cmp.Compare(b.Severity.Rank(), a.Severity.Rank()); c != 0 {
		return c
	}
	return cmp.Or(
		cmp.Compare(a.Path, b.Path), cmp.Compare(a.StartLine, b.StartLine),
		cmp.Compare(a.EndLine, b.EndLine), cmp.Compare(a.Side, b.Side),
		cmp.Compare(a.Category, b.Category), cmp.Compare(a.Content, b.Content),
		cmp.Compare(a.ExistingCode, b.ExistingCode), cmp.Compare(a.Suggestion, b.Suggestion),
		cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.RuleID, b.RuleID),
		cmp.Compare(a.OldPath, b.OldPath), cmp.Compare(a.Method, b.Method),
		boolCompare(a.InHunk, b.InHunk), slices.Compare(a.Candidates, b.Candidates),
		cmp.Compare(a.Fingerprint, b.Fingerprint), cmp.Compare(a.Thinking, b.Thinking),
	)
}

// boolCompare orders false before true.
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
