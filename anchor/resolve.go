package anchor

import (
	"context"
	"path"
	"strings"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// Query is one comment to anchor: the file the model commented on, the code
// it quoted (existing_code) and, when known, a line it pointed at (0 when
// not). The hint only chooses among places that match equally; line
// numbers copied from file_read output ("12|code") serve as one too.
type Query struct {
	Path     string
	Code     string
	LineHint int
}

// Options supplies what Resolve cannot compute itself.
type Options struct {
	// NewFile returns the whole new file's lines at the target ref (without
	// "\n"); nil or false skips the whole-file step. Return the same slice
	// for a path each time: the normalised copy is cached against it.
	NewFile func(path string) ([]string, bool)
	// Relocate asks the model once to re-quote the snippet from this file's
	// diff; nil skips the step. When the answer holds a fenced code block,
	// the first one is the snippet.
	Relocate func(ctx context.Context, q Query) (string, bool)
	// NoFuzzy turns off the fuzzy step.
	NoFuzzy bool
}

// Resolve finds where q's quoted code is. In order: the new side of the
// file's hunks, their old side (reported as SideOld with old-file numbers),
// the whole new file, the hunks of the other files (re-filed only when
// exactly one file matches), a fuzzy match in the same file (bounded in
// work whatever the quote and the file, and ended by ctx), one Relocate
// request followed by the first three steps again, and finally a file-level
// location: a comment is never dropped. Each step tries a literal match
// (normalised whitespace) before any tolerance (diff markers, ellipses,
// partial end lines), so a line whose own text starts with "-" matches
// itself. When several places match equally
// well, the others are listed in Candidates. A comment without code stays
// file-level and costs no Relocate request. A path written the way models
// copy it ("./x.go", "b/x.go") is mapped to the change set's spelling.
func Resolve(ctx context.Context, q Query, cs *ChangeSet, opt Options) review.Location {
	loc, _ := ResolveAll(ctx, q, cs, opt)
	return loc
}

// ResolveAll is Resolve that also returns the start lines of every place
// the quote matched at the step that placed it, in rank order (the
// location's own first), when it matched in more than one place of the
// comment's file on the location's side; nil otherwise, when the query
// carried a line hint (LineHint or file_read numbers), and for the fuzzy,
// other-file, relocation and file-level steps. Candidates holds only the
// places as good as the chosen one; this holds all, for asking the model.
func ResolveAll(ctx context.Context, q Query, cs *ChangeSet, opt Options) (review.Location, []int) {
	r := &resolver{cs: cs, opt: opt}
	loc := r.resolve(ctx, q)
	if r.hint > 0 {
		return loc, nil // the model said which line it meant
	}
	switch loc.Method {
	case review.MethodHunkNew, review.MethodHunkOld, review.MethodWholeFile:
		if len(r.places) > 1 && r.places[0] == loc.StartLine {
			return loc, r.places
		}
	}
	return loc, nil
}

func (r *resolver) resolve(ctx context.Context, q Query) review.Location {
	cs, opt := r.cs, r.opt
	if cs == nil {
		cs = NewChangeSet(nil)
		r.cs = cs
	}
	q.Path = cs.canonical(q.Path)
	sn := parseSnippet(q.Code)
	if sn.empty() {
		return r.fileLevel(q.Path)
	}
	r.hint = hintOf(q.LineHint, &sn)
	if loc, ok := r.inFile(q.Path, &sn); ok {
		return loc
	}
	if loc, ok := r.otherFiles(q.Path, &sn); ok {
		return loc
	}
	if !opt.NoFuzzy {
		if loc, ok := r.fuzzy(ctx, q.Path, &sn); ok {
			return loc
		}
	}
	if loc, ok := r.relocate(ctx, q); ok {
		return loc
	}
	return r.fileLevel(q.Path)
}

// resolver carries one resolution's inputs.
type resolver struct {
	cs   *ChangeSet
	opt  Options
	hint int
	// places are the start lines of the matches of the last location, in
	// rank order.
	places []int
	// work is the fuzzy step's budget and work counter, nil before it.
	work *fuzzyWork
}

func hintOf(hint int, sn *snippet) int {
	if hint > 0 {
		return hint
	}
	return sn.hint
}

// inFile runs steps 1–3 (hunk new side, hunk old side, whole new file) on
// path. The strong readings of the quote (literal, diff markers that agree
// with the line kinds, ellipses) are tried in the hunks, then in the whole
// file; only then the weak ones (a "- x" marker that may be a list item, a
// partial end line, markers whatever the kind) — so a quote with a "-"
// marker lands on the deleted line it came from, and a YAML "- item"
// outside the diff on itself.
func (r *resolver) inFile(path string, sn *snippet) (review.Location, bool) {
	i, inCS := r.cs.lookup(path)
	var f *udiff.File
	if inCS {
		f = &r.cs.files[i]
	}
	var whole *sequence
	loaded := false
	for _, group := range [][]stage{sn.stages(0, levelWeak), sn.stages(levelWeak, levelCount)} {
		for _, st := range group {
			if f == nil {
				break
			}
			if loc, ok := r.inHunks(i, st.sn, st.level, false); ok {
				return loc, true
			}
		}
		if !loaded {
			whole, loaded = r.wholeSeq(path, f), true // only now: NewFile may read from git
		}
		if loc, ok := r.inWhole(whole, f, path, group); ok {
			return loc, true
		}
	}
	return review.Location{}, false
}

// inWhole tries the stages in order on the whole new file (nil: none).
func (r *resolver) inWhole(whole *sequence, f *udiff.File, path string, group []stage) (review.Location, bool) {
	for _, st := range group {
		if whole == nil {
			break
		}
		if ms := findAll(whole, st.sn.pattern(st.level, 0), st.level, false); len(ms) > 0 {
			return r.location(f, path, 0, ms, review.MethodWholeFile), true
		}
	}
	return review.Location{}, false
}

// inHunks tries the new then the old side of file i's hunks at one level;
// other marks a match as found in another file than the comment's.
func (r *resolver) inHunks(i int, sn *snippet, level int, other bool) (review.Location, bool) {
	idx := r.cs.index(i)
	for slot := range idx.sides {
		if ms := findAll(&idx.sides[slot].seq, sn.pattern(level, slot), level, true); len(ms) > 0 {
			method := review.MethodHunkNew
			switch {
			case other:
				method = review.MethodOtherFile
			case slot == 1:
				method = review.MethodHunkOld
			}
			return r.location(&r.cs.files[i], "", slot, ms, method), true
		}
	}
	return review.Location{}, false
}

// wholeSeq returns the searchable whole new file, or nil without one.
func (r *resolver) wholeSeq(path string, f *udiff.File) *sequence {
	if f != nil {
		path = f.NewPath // a deleted file has no new version
	}
	if r.opt.NewFile == nil || path == "" {
		return nil
	}
	lines, ok := r.opt.NewFile(path)
	if !ok || len(lines) == 0 {
		return nil
	}
	return r.cs.wholeFile(path, lines)
}

// otherFiles is step 4: the hunks of every other file, re-filing the
// comment only when exactly one file matches at the first level that
// matches anywhere. Partial lines are not enough evidence to move a
// comment to another file, so only the literal and tolerant levels count.
func (r *resolver) otherFiles(path string, sn *snippet) (review.Location, bool) {
	own, inCS := r.cs.lookup(path)
	for _, st := range sn.stages(0, levelPartial) {
		var found []review.Location
		for _, i := range r.cs.candidateFiles(st.sn, st.level) {
			if inCS && i == own {
				continue
			}
			if loc, ok := r.inHunks(i, st.sn, st.level, true); ok {
				found = append(found, loc)
			}
		}
		if len(found) > 0 {
			return found[0], len(found) == 1
		}
	}
	return review.Location{}, false
}

// relocate is step 5: one Relocate request, then steps 1–3 again.
func (r *resolver) relocate(ctx context.Context, q Query) (review.Location, bool) {
	if r.opt.Relocate == nil || ctx.Err() != nil {
		return review.Location{}, false
	}
	if _, ok := r.cs.lookup(q.Path); !ok {
		return review.Location{}, false // no diff of this file to re-quote from
	}
	code, ok := r.opt.Relocate(ctx, q)
	if !ok {
		return review.Location{}, false
	}
	sn := parseSnippet(fenced(code))
	if sn.empty() {
		return review.Location{}, false
	}
	r.hint = hintOf(q.LineHint, &sn)
	loc, ok := r.inFile(q.Path, &sn)
	loc.Method = review.MethodRelocation
	return loc, ok
}

// fileLevel is the last resort: the comment stays on its file, without a line.
func (r *resolver) fileLevel(path string) review.Location {
	loc := review.Location{Path: path, Method: review.MethodFileLevel}
	if i, ok := r.cs.lookup(path); ok {
		r.setPaths(&loc, &r.cs.files[i])
	}
	return loc
}

func (r *resolver) setPaths(loc *review.Location, f *udiff.File) {
	loc.Path = f.Path()
	if f.OldPath != "" && f.OldPath != loc.Path {
		loc.OldPath = f.OldPath
	}
}

// fenced returns the body of the first fenced code block of a model's
// answer, or the whole answer when it has none.
func fenced(answer string) string {
	lines := strings.Split(answer, "\n")
	for i, l := range lines {
		if !isFence(l) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if isFence(lines[j]) {
				return strings.Join(lines[i+1:j], "\n")
			}
		}
		return strings.Join(lines[i+1:], "\n")
	}
	return answer
}

func isFence(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// canonical maps a path as a model may write it ("./x.go", "/x.go",
// "b/x.go" copied from a diff header) to the change set's spelling; paths
// that are not in the change set either way come back unchanged.
func (cs *ChangeSet) canonical(p string) string {
	if _, ok := cs.lookup(p); ok || p == "" {
		return p
	}
	c := strings.TrimPrefix(path.Clean("/"+p), "/")
	for _, cand := range []string{c, strings.TrimPrefix(c, "a/"), strings.TrimPrefix(c, "b/")} {
		if _, ok := cs.lookup(cand); ok {
			return cand
		}
	}
	return p
}
