package review

import (
	"fmt"
	"strings"
)

// LikeSimilarity is how close a finding's text must be to a dismissed
// one's to be suppressed with it (Similarity of their words): the bar of
// Dedupe for one finding said twice (DuplicateSimilarity), lowered to
// SameCodeSimilarity when both quote the same code.
const LikeSimilarity = DuplicateSimilarity

// Dismissal is a finding a trusted person dismissed on the pull request
// (a 👎 on ocr's comment): By is their login.
type Dismissal struct {
	Finding Comment
	By      string
}

// Like reports whether c says the same thing about the same code as the
// dismissed finding: same file and category, similar text, and a quote
// that overlaps the dismissed one's (a line in common: the same code, or
// a moved copy of it), or, when the dismissed quote is unknown, lines that
// overlap.
func (d Dismissal) Like(c Comment) bool {
	f := d.Finding
	if c.Path != f.Path || c.Category != f.Category {
		return false
	}
	a, b := digestOf(f), digestOf(c)
	threshold := LikeSimilarity
	if a.code != "" && a.code == b.code {
		threshold = SameCodeSimilarity
	}
	if jaccard(a.words, b.words) < threshold {
		return false
	}
	if a.code == "" {
		return f.FileLevel() == c.FileLevel() && lastLine(f.Location) >= c.StartLine && lastLine(c.Location) >= f.StartLine
	}
	return quotesOverlap(a.code, b.code)
}

// Suppression is how a finding like the dismissed one is marked.
func (d Dismissal) Suppression() Suppression {
	return Suppression{By: d.By, Like: FingerprintOf(d.Finding)}
}

// quotesOverlap reports whether two normalised quotes share a line.
func quotesOverlap(a, b string) bool {
	if b == "" {
		return false
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(a, "\n") {
		lines[l] = true
	}
	for _, l := range strings.Split(b, "\n") {
		if lines[l] {
			return true
		}
	}
	return false
}

// likeText is what String says of a suppression learnt from a dismissal.
func likeText(by string) string { return fmt.Sprintf("like one dismissed by @%s", by) }

// LikeCoverage is how much of a rule file's like text a finding must say
// (Coverage) to be ignored by it: a like text names a kind of finding in
// a few words, which a finding's longer text contains.
const LikeCoverage = 0.75

// Coverage is the share of like's content words (see Similarity) that
// text also has: 1 when text says all of them, 0 when none.
func Coverage(like, text string) float64 {
	wl, wt := words(like), words(text)
	if len(wl) == 0 {
		return 0
	}
	n := 0
	for w := range wl {
		if wt[w] {
			n++
		}
	}
	return float64(n) / float64(len(wl))
}
