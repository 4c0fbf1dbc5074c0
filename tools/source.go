package tools

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// Source is where the tools read: a commit (range and commit modes), the
// work tree (workspace mode) or a plain directory. Paths are relative to the
// repository root with "/" separators and already checked by safePath.
// Implementations are safe for concurrent use and shared by every task of
// a run.
type Source interface {
	// ReadFile returns a file's content; ErrNotFound if it does not exist,
	// an error wrapping errOutside if it would leave the repository.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// ListFiles returns every file, in git's order. It is computed once.
	ListFiles(ctx context.Context) ([]string, error)
	// Grep searches file contents; Match paths are relative.
	Grep(ctx context.Context, q SearchQuery) ([]Match, error)
}

// ErrNotFound is returned by a Source for a file that does not exist.
var ErrNotFound = errors.New("file not found")

// SearchQuery is one code_search request as git grep options.
type SearchQuery struct {
	// Text is the pattern: a fixed string, or PCRE when Perl is set.
	Text string
	// Pathspecs limit the search (checked: no "..", not absolute).
	Pathspecs  []string
	IgnoreCase bool
	Perl       bool
	// MaxCount is git grep --max-count: matches per file.
	MaxCount int
}

// Match is one matching line.
type Match struct {
	Path string
	Line int
	Text string
}

// fileIndex is the cached file list with what file_find needs to answer
// fast: the candidates joined into one string (and a lower-cased copy), so
// a query is one vectorised substring scan instead of one call per file.
type fileIndex struct {
	paths []string // candidates for file_find (extension rule applied)
	exact joined   // paths joined by "\n"
	lower joined   // lower-cased paths joined by "\n"
	files []string // every file, in order
	all   map[string]bool
	tri   trigrams
}

// joined is a list of paths joined by "\n", with where each path and its
// base name start.
type joined struct {
	s     string
	start []int // start of path i; start[len] = len(s)+1
	base  []int // start of path i's base name
}

// newFileIndex indexes a file list.
func newFileIndex(files []string) *fileIndex {
	ix := &fileIndex{files: files, all: make(map[string]bool, len(files))}
	var exact, lower strings.Builder
	for _, f := range files {
		ix.all[f] = true
		if !findable(f) {
			continue
		}
		ix.paths = append(ix.paths, f)
		ix.exact.add(&exact, f)
		ix.lower.add(&lower, strings.ToLower(f))
	}
	ix.exact.done(&exact)
	ix.lower.done(&lower)
	return ix
}

// add appends one path.
func (t *joined) add(b *strings.Builder, p string) {
	t.start = append(t.start, b.Len())
	t.base = append(t.base, b.Len()+strings.LastIndexByte(p, '/')+1)
	b.WriteString(p)
	b.WriteByte('\n')
}

// done fixes the joined string and the end sentinel.
func (t *joined) done(b *strings.Builder) {
	t.s = b.String()
	t.start = append(t.start, len(t.s)+1)
}

// indexer is implemented by the Sources of this package, which cache the
// index for the whole run.
type indexer interface {
	index(ctx context.Context) (*fileIndex, error)
}

// lister computes a file list once and caches it; a failure is not cached,
// so a later call may succeed.
type lister struct {
	mu   sync.Mutex
	ix   *fileIndex
	list func(ctx context.Context) ([]string, error)
}

// index returns the cached index, listing the files on first use.
func (l *lister) index(ctx context.Context) (*fileIndex, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ix != nil {
		return l.ix, nil
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	files, err := l.list(ctx)
	if err != nil {
		return nil, err
	}
	l.ix = newFileIndex(files)
	return l.ix, nil
}

// files returns every listed path (including ones file_find skips).
func (l *lister) files(ctx context.Context) ([]string, error) {
	ix, err := l.index(ctx)
	if err != nil {
		return nil, err
	}
	return append([]string(nil), ix.files...), nil
}
