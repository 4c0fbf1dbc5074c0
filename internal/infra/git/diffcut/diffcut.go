// Package diffcut cuts git's unified diff output to a budget without
// holding it: the output is split into one section per file (found by
// line starts alone), each costed by its bytes plus LineCost per line, and
// the sections that fit are kept whole while the others keep only their
// headers. It reads text; running git is the caller's job.
package diffcut

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// LineCost is what one diff line costs a parser beyond its bytes (the
// line's record and its share of slice growth): a diff of short lines
// costs far more memory than its size says.
const LineCost = 64

// Cut is a file whose diff Keep left out: only its header (the "diff
// --git" line, modes, rename and index lines) is kept, so a parser still
// sees the file, without hunks. Index is its place among the diff's files;
// Additions and Deletions are counted from the text left out, and Bytes is
// the size of the file's whole diff.
type Cut struct {
	Index, Additions, Deletions int
	Bytes                       int64
}

// Section is one file's part of the diff output: offsets in the output,
// and its cost.
type Section struct {
	start, header, end int64
	cost               int64
	adds, dels         int
}

// Keep copies the sections that fit in budget, and the headers of
// the others, into one string allocated once.
func Keep(f io.ReaderAt, secs []Section, budget int64) (string, []Cut, error) {
	var cuts []Cut
	var size int64
	keep := make([]bool, len(secs))
	for i, s := range secs {
		if s.cost <= budget {
			budget -= s.cost
			keep[i] = true
			size += s.end - s.start
			continue
		}
		cuts = append(cuts, Cut{Index: i, Additions: s.adds, Deletions: s.dels, Bytes: s.end - s.start})
		size += s.header - s.start
	}
	var b strings.Builder
	b.Grow(int(size))
	for i, s := range secs {
		end := s.end
		if !keep[i] {
			end = s.header
		}
		if _, err := io.Copy(&b, io.NewSectionReader(f, s.start, end-s.start)); err != nil {
			return "", nil, err
		}
	}
	return b.String(), cuts, nil
}

// Scan splits git's diff output into files without holding it:
// only line starts are looked at, a long line is read in pieces.
func Scan(br *bufio.Reader) ([]Section, error) {
	var secs []Section
	var cur *Section
	var off int64
	inHeader, lineStart := false, true
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			if lineStart {
				if bytes.HasPrefix(chunk, []byte("diff --git ")) {
					if cur != nil {
						cur.end = off
						if cur.header < 0 {
							cur.header = off
						}
					}
					secs = append(secs, Section{start: off, header: -1})
					cur, inHeader = &secs[len(secs)-1], true
				}
				if cur != nil {
					inHeader = headerLine(cur, chunk, off, inHeader)
					cur.cost += LineCost
				}
			}
			if cur != nil {
				cur.cost += int64(len(chunk))
			}
			off += int64(len(chunk))
			lineStart = chunk[len(chunk)-1] == '\n'
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if cur != nil {
				cur.end = off
				if cur.header < 0 {
					cur.header = off
				}
			}
			return secs, nil
		case err != nil:
			return nil, err
		}
	}
}

// headerLine notes where the section's header ends (its first "---",
// "Binary files", "GIT binary patch" or "@@" line) and counts added and
// removed lines after it; it reports whether the header goes on.
func headerLine(s *Section, line []byte, off int64, inHeader bool) bool {
	if inHeader {
		for _, p := range []string{"--- ", "Binary files ", "GIT binary patch", "@@ "} {
			if bytes.HasPrefix(line, []byte(p)) {
				s.header = off
				return false
			}
		}
		return true
	}
	switch {
	case bytes.HasPrefix(line, []byte("+++ ")) || bytes.HasPrefix(line, []byte("--- ")):
	case line[0] == '+':
		s.adds++
	case line[0] == '-':
		s.dels++
	}
	return false
}
