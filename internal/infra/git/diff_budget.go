package git

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ocr-ci/ocr/internal/infra/git/diffcut"
)

// DiffLineCost is what one diff line costs a parser beyond its bytes (see
// diffcut.LineCost).
const DiffLineCost = diffcut.LineCost

// Cut is a file whose diff DiffTextWithin left out, with only its header
// kept (see diffcut.Cut).
type Cut = diffcut.Cut

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
	secs, err := diffcut.Scan(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return "", nil, fmt.Errorf("could not read git's output back: %w", err)
	}
	text, cuts, err := diffcut.Keep(f, secs, budget)
	if err != nil {
		return "", nil, fmt.Errorf("could not read git's output back: %w", err)
	}
	return text, cuts, nil
}
