package posting

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// PlaceKind is where a finding ends up on the pull/merge request.
type PlaceKind int

const (
	// PlaceInline is a line or range comment in the diff.
	PlaceInline PlaceKind = iota
	// PlaceFile is a file-level comment (GitHub subject_type: file).
	PlaceFile
	// PlaceSummary is a section of the sticky summary.
	PlaceSummary
	// placePosted means an earlier run already posted it: nothing to do.
	placePosted
	// PlaceBelowFloor is below the posting floor (--post-min-severity):
	// listed in the summary's collapsed section, never posted.
	PlaceBelowFloor
	// PlaceOverBudget is over the inline budget of the push (--max-inline):
	// counted in the summary, kept in the file reports.
	PlaceOverBudget
)

// Placement is the decision for one finding. Start and End are numbered on
// Side; Suggest is true when the suggestion can be offered as an applicable
// suggestion block (the range is the comment's own, on the new side).
type Placement struct {
	review.Comment
	FP         string
	Kind       PlaceKind
	Side       review.Side
	Start, End int
	Suggest    bool
	// Note says why the finding was not placed as asked (shown to people).
	Note string
}

// PlanOptions bounds what one run may post.
type PlanOptions struct {
	MaxInline int // new inline comments per push (see PostedAtHead)
	MaxFile   int // file-level comments per run (each costs one API call)
	Posted    map[string]bool
	// MinSeverity is the posting floor: findings below it are neither
	// posted inline nor at file level (--post-min-severity).
	MinSeverity review.Severity
	// PostedAtHead counts the findings an earlier run already posted on
	// this head: a re-run of the same push spends what is left of its budget.
	PostedAtHead int
}

// DefaultMaxInline and DefaultMinSeverity are the posting budget and floor
// when the poster is given none.
const (
	DefaultMaxInline   = 10
	DefaultMinSeverity = review.SeverityMedium
)

// NewPlanOptions applies the defaults to a reporter's caps (0 means 10
// inline and 10 file-level comments, floor medium); posted maps the
// fingerprints of the findings earlier runs left in the diff.
func NewPlanOptions[V any](maxInline, maxFile int, floor review.Severity, posted map[string]V) PlanOptions {
	if floor.Rank() == 0 {
		floor = DefaultMinSeverity
	}
	o := PlanOptions{MaxInline: reporters.OrDefault(maxInline, DefaultMaxInline), MaxFile: reporters.OrDefault(maxFile, 10),
		MinSeverity: floor, Posted: make(map[string]bool, len(posted))}
	for fp := range posted {
		o.Posted[fp] = true
	}
	return o
}

// Plan validates every location against the diff and degrades what cannot
// be placed: range → single line → file-level → summary. Findings below
// the floor are not posted; of the rest, the inline budget keeps the most
// important (see inlineOrder) and counts the others.
func Plan(comments []review.Comment, idx *DiffIndex, o PlanOptions) []Placement {
	files := o.MaxFile
	out := make([]Placement, 0, len(comments))
	for _, c := range comments {
		p := place(c, idx)
		switch {
		case o.Posted[p.FP]:
			p.Kind = placePosted
		case p.Severity.Rank() < o.MinSeverity.Rank():
			p.Kind, p.Note = PlaceBelowFloor, fmt.Sprintf("below the posting floor (%s)", o.MinSeverity)
		case p.Kind == PlaceFile && files <= 0:
			p.Kind, p.Note = PlaceSummary, "over the cap on file-level comments"
		case p.Kind == PlaceFile:
			files--
		}
		out = append(out, p)
	}
	spendInline(out, o.MaxInline-o.PostedAtHead)
	return out
}

// spendInline keeps budget inline placements, the first in inlineOrder,
// and marks the others over budget.
func spendInline(ps []Placement, budget int) {
	idx := InlineIndexes(ps)
	slices.SortStableFunc(idx, func(a, b int) int { return inlineOrder(ps[a], ps[b]) })
	for n, i := range idx {
		if n >= budget {
			ps[i].Kind, ps[i].Suggest, ps[i].Note = PlaceOverBudget, false, "over the inline budget of the push (--max-inline)"
		}
	}
}

// inlineOrder ranks what the inline budget keeps: the most severe first,
// then the one more passes found (review.Votes, --passes; equal with one
// pass), then (stable sort) the pipeline's order (review.Dedupe's: by
// location). The reflection filter only keeps or drops, so it gives no
// confidence to rank by; when it does, compare it here, after the votes.
func inlineOrder(a, b Placement) int {
	return cmp.Or(cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), cmp.Compare(voteShare(b.Comment), voteShare(a.Comment)))
}

// voteShare is the share of the passes that found c; 1 without votes (one
// pass: every finding was found by every pass there was).
func voteShare(c review.Comment) float64 {
	if c.Votes == nil {
		return 1
	}
	return c.Votes.Share()
}

// BelowFloor counts the placements below the posting floor.
func BelowFloor(ps []Placement) int { return len(indexesOf(ps, PlaceBelowFloor)) }

// OverBudget counts the placements over the inline budget.
func OverBudget(ps []Placement) int { return len(indexesOf(ps, PlaceOverBudget)) }

// place decides one finding's best valid position.
func place(c review.Comment, idx *DiffIndex) Placement {
	p := Placement{Comment: c, FP: fingerprintOf(c), Side: c.Side}
	if p.Side == review.SideNone {
		p.Side = review.SideNew
	}
	start, end := c.StartLine, max(c.EndLine, c.StartLine)
	switch {
	case idx.file(c.Path) == nil:
		p.Kind, p.Note = PlaceSummary, "the file is not part of this change"
	case c.FileLevel():
		p.Kind = PlaceFile
	case idx.inOneHunk(c.Path, p.Side, start, end):
		p.Kind, p.Start, p.End = PlaceInline, start, end
		p.Suggest = c.Suggestion != "" && p.Side == review.SideNew
	default:
		p = degradeLine(p, idx, start, end)
	}
	return p
}

// degradeLine tries the first, then the last line of a range that does not
// fit in one hunk, then the whole file.
func degradeLine(p Placement, idx *DiffIndex, start, end int) Placement {
	for _, n := range []int{start, end} {
		if _, ok := idx.Line(p.Path, p.Side, n); ok {
			p.Kind, p.Start, p.End = PlaceInline, n, n
			p.Note = fmt.Sprintf("lines %d–%d are not within one hunk of the diff; anchored at line %d", start, end, n)
			return p
		}
	}
	p.Kind = PlaceFile
	p.Note = fmt.Sprintf("line %d is outside the diff", start)
	if start != end {
		p.Note = fmt.Sprintf("lines %d–%d are outside the diff", start, end)
	}
	return p
}

// fingerprintOf is the finding's fingerprint, computed when the pipeline
// left it empty.
func fingerprintOf(c review.Comment) string {
	if c.Fingerprint != "" {
		return c.Fingerprint
	}
	return review.Fingerprint(c.Path, c.Category, c.ExistingCode)
}

// Degrade moves an inline Placement one step down after the platform
// rejected it: range → single line → file-level → summary.
func Degrade(p Placement, why string) Placement {
	switch {
	case p.Kind == PlaceInline && p.Start != p.End:
		p.Start, p.Suggest = p.End, false
	case p.Kind == PlaceInline:
		p.Kind, p.Suggest = PlaceFile, false
	default:
		p.Kind = PlaceSummary
	}
	p.Note = why
	return p
}
