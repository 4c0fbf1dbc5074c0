package posting

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// DiffIndex answers the questions posting needs about the pull request's
// diff: is this line inside a hunk, which hunk, what kind of line is it and
// what is its number on the other side.
type DiffIndex struct {
	byPath map[string]*udiff.File
}

// DiffLine is one line of the diff with its hunk and GitLab's line counters
// (GitLab numbers an added line with the old counter at that point, and a
// deleted line with the new counter, in its line codes).
type DiffLine struct {
	udiff.Line
	Hunk           int
	OldPos, NewPos int
	File           *udiff.File
}

// NewDiffIndex indexes the files of cs; a nil cs changes no file.
func NewDiffIndex(cs *anchor.ChangeSet) *DiffIndex {
	var files []udiff.File
	if cs != nil {
		files = cs.Files()
	}
	d := &DiffIndex{byPath: make(map[string]*udiff.File, len(files))}
	for i := range files {
		f := &files[i]
		if f.OldPath != "" {
			d.byPath[f.OldPath] = f
		}
		if f.NewPath != "" {
			d.byPath[f.NewPath] = f
		}
	}
	return d
}

// file returns the diff entry of path (new or old name), nil if the pull
// request does not change it.
func (d *DiffIndex) file(path string) *udiff.File {
	if d == nil {
		return nil
	}
	return d.byPath[path]
}

// Line finds line n on side of path among the diff's hunks.
func (d *DiffIndex) Line(path string, side review.Side, n int) (DiffLine, bool) {
	f := d.file(path)
	if f == nil || n <= 0 {
		return DiffLine{}, false
	}
	for hi, h := range f.Hunks {
		oldPos, newPos := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			dl := DiffLine{Line: l, Hunk: hi, OldPos: oldPos, NewPos: newPos, File: f}
			switch l.Kind {
			case udiff.Added:
				newPos++
			case udiff.Deleted:
				oldPos++
			default:
				oldPos++
				newPos++
			}
			if side == review.SideOld && l.OldLine == n || side != review.SideOld && l.NewLine == n {
				return dl, true
			}
		}
	}
	return DiffLine{}, false
}

// inOneHunk reports whether start..end on side lie in the same hunk.
func (d *DiffIndex) inOneHunk(path string, side review.Side, start, end int) bool {
	a, ok1 := d.Line(path, side, start)
	b, ok2 := d.Line(path, side, end)
	return ok1 && ok2 && a.Hunk == b.Hunk && start <= end
}

// LineCode is GitLab's identifier of a diff line: sha1(path)_old_new.
// https://docs.gitlab.com/api/discussions/#parameters-for-multiline-comments
func LineCode(path string, l DiffLine) string {
	sum := sha1.Sum([]byte(path))
	return hex.EncodeToString(sum[:]) + "_" + strconv.Itoa(l.OldPos) + "_" + strconv.Itoa(l.NewPos)
}
