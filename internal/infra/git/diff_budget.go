package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// DiffLineCost is what one diff line costs a parser beyond its bytes (the
// line's record and its share of slice growth): a diff of short lines
// costs far more memory than its size says.
const DiffLineCost = 64

// Cut is a file whose diff DiffTextWithin left out: only its header (the
// "diff --git" line, modes, rename and index lines) is kept, so a parser
// still sees the file, without hunks. Index is its place among the diff's
// files; Additions and Deletions are counted from the text left out, and
// Bytes is the size of the file's whole diff.
type Cut struct {
	Index, Additions, Deletions int
	Bytes                       int64
}

// section is one file's part of the diff output: offsets in the output
// file, and its cost.
type section struct {
	start, header, end int64
	cost               int64
	adds, dels         int
}

// DiffTextWithin is DiffText with a budget: files are kept in diff order
// while their cost (bytes plus DiffLineCost per line) fits in budget; the
// diffs of the others are cut to their headers and reported. The budget is
// checked while reading git's output, before any of it is held in memory,
// so a pull request of many large text files cannot make ocr hold (and
// parse) them all. budget <= 0 means no budget.
func (r *Repo) DiffTextWithin(ctx context.Context, from, to string, budget int64) (string, []Cut, error) {
	if budget <= 0 {
		text, err := r.DiffText(ctx, from, to)
		return text, nil, err
	}
	if err := r.needRefs(from, to); err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp("", "ocr-git-*")
	if err != nil {
		return "", nil, fmt.Errorf("could not create a temporary file for git's output: %w", err)
	}
	defer dropTemp(f)
	args := append(diffArgs(), "--end-of-options", r.mapRef(from), r.mapRef(to), "--")
	if _, err := r.run(ctx, call{args: args, out: f, objects: true}); err != nil {
		return "", nil, fmt.Errorf("could not diff %s..%s: %w", from, to, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", nil, fmt.Errorf("could not read git's output back: %w", err)
	}
	secs, err := scanSections(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return "", nil, fmt.Errorf("could not read git's output back: %w", err)
	}
	text, cuts, err := keepWithin(f, secs, budget)
	if err != nil {
		return "", nil, fmt.Errorf("could not read git's output back: %w", err)
	}
	return text, cuts, nil
}

// keepWithin copies the sections that fit in budget, and the headers of
// the others, into one string allocated once.
func keepWithin(f io.ReaderAt, secs []section, budget int64) (string, []Cut, error) {
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

// scanSections splits git's diff output into files without holding it:
// only line starts are looked at, a long line is read in pieces.
func scanSections(br *bufio.Reader) ([]section, error) {
	var secs []section
	var cur *section
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
					secs = append(secs, section{start: off, header: -1})
					cur, inHeader = &secs[len(secs)-1], true
				}
				if cur != nil {
					inHeader = headerLine(cur, chunk, off, inHeader)
					cur.cost += DiffLineCost
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
func headerLine(s *section, line []byte, off int64, inHeader bool) bool {
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
