package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Repo. The zero value means the defaults.
type Options struct {
	// MaxProcs bounds the short-lived git processes running at once for
	// this Repo (default 16). The cat-file --batch process is one more.
	MaxProcs int
	// Timeout bounds each read (default 30s). Grep and listing use 10s.
	Timeout time.Duration
	// FetchTimeout bounds each fetch made by EnsureHistory (default 5m).
	FetchTimeout time.Duration
	// Logf receives notes about unusual events (a restarted cat-file
	// process, a skipped untracked file, a timeout); nil discards them.
	Logf func(format string, args ...any)
}

// Defaults.
const (
	defaultMaxProcs     = 16
	defaultTimeout      = 30 * time.Second
	defaultListTimeout  = 10 * time.Second
	defaultFetchTimeout = 5 * time.Minute
	utf8Locale          = "C.UTF-8"
)

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.MaxProcs <= 0 {
		o.MaxProcs = defaultMaxProcs
	}
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = defaultFetchTimeout
	}
	return o
}

// Repo is a git repository (or, from Plain, a directory that is not one).
// Its methods are safe for concurrent use.
type Repo struct {
	dir       string // absolute top-level directory, symlinks resolved
	commonDir string // absolute git common directory ("" for Plain)
	gitDir    string // absolute git directory of the work tree ("" for Plain)
	sha256    bool
	versionMu sync.Mutex
	version   [2]int
	plain     bool
	opt       Options
	sem       chan struct{}
	running   atomic.Int32 // git processes holding a slot
	peak      atomic.Int32 // most seen at once (for tests)
	started   atomic.Int32 // git processes started, cat-file included (for tests)
	envC      []string
	envUTF8   []string
	batch     *catFile
	commits   sync.Map // full object name → commit SHA, see commitOf
	bases     sync.Map // "a b" (full SHAs) → merge base, see MergeBase
}

// newRepo builds a Repo for dir (not yet checked) with its process slots,
// environments and cat-file process.
func newRepo(dir string, opt Options) *Repo {
	opt = opt.withDefaults()
	r := &Repo{dir: dir, opt: opt, sem: make(chan struct{}, opt.MaxProcs),
		envC: gitEnv("C"), envUTF8: gitEnv(utf8Locale)}
	r.batch = &catFile{repo: r, lock: make(chan struct{}, 1)}
	return r
}

// ErrNoWorkTree means the directory is a bare repository or git's own
// directory; ocr reads a repository with a work tree. Kept apart from
// ErrNotRepository, whose callers may read the directory as plain files.
var ErrNoWorkTree = errors.New("a bare repository or a .git directory has no work tree: run ocr in a clone with a work tree, or pass --repo with its top-level directory")

// Open finds the repository containing dir. Outside a repository the error
// matches ErrNotRepository.
func Open(ctx context.Context, dir string, opt Options) (*Repo, error) {
	abs, err := absDir(dir)
	if err != nil {
		return nil, fmt.Errorf("could not open the repository: %w", err)
	}
	r := newRepo(abs, opt)
	out, version, err := r.traced(ctx, call{args: []string{"rev-parse", "--show-toplevel", "--show-object-format", "--git-common-dir", "--absolute-git-dir"}})
	if verr := r.learnVersion(ctx, version); verr != nil {
		return nil, verr
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) && strings.Contains(e.Stderr, "not a git repository") {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepository)
		}
		if errors.Is(err, ErrDubiousOwnership) {
			return nil, fmt.Errorf("%s: %w: if you trust it, run `git config --global --add safe.directory %s`", abs, ErrDubiousOwnership, abs)
		}
		if errors.As(err, &e) && strings.Contains(e.Stderr, "must be run in a work tree") {
			return nil, fmt.Errorf("%s: %w", abs, ErrNoWorkTree)
		}
		return nil, fmt.Errorf("could not open the repository at %s (a work tree is required): %w", abs, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 4 || lines[0] == "" {
		return nil, fmt.Errorf("could not open the repository at %s: unexpected rev-parse output %q (is %s a bare repository?)", abs, out, abs)
	}
	common := lines[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(abs, common)
	}
	r.dir, r.sha256, r.commonDir, r.gitDir = filepath.Clean(lines[0]), lines[1] == "sha256", common, lines[3]
	return r, nil
}

// Plain returns a Repo for a directory that is not a git repository: only
// Grep (always with NoIndex) and ReadFile with ref "" work; the other
// methods return ErrNotRepository.
func Plain(dir string, opt Options) *Repo {
	abs, err := realPath(dir)
	if err != nil {
		abs, _ = filepath.Abs(dir) // a missing directory: its searches fail later
	}
	r := newRepo(abs, opt)
	r.plain = true
	return r
}

// absDir returns dir as an absolute path with symlinks resolved, checking
// that it is a directory.
func absDir(dir string) (string, error) {
	abs, err := realPath(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", abs)
	}
	return abs, nil
}

// realPath returns path as an absolute path with symlinks resolved.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Dir is the absolute top-level directory of the work tree.
func (r *Repo) Dir() string { return r.dir }

// Close stops the shared cat-file process. The Repo stays usable: a later
// ReadFile starts a new one.
func (r *Repo) Close() error { return r.batch.close() }

// needRepo fails for a Plain directory.
func (r *Repo) needRepo() error {
	if r.plain {
		return fmt.Errorf("%s: %w", r.dir, ErrNotRepository)
	}
	return nil
}

// needRefs fails for a Plain directory or a ref checkRef refuses.
func (r *Repo) needRefs(refs ...string) error {
	if err := r.needRepo(); err != nil {
		return err
	}
	for _, ref := range refs {
		if err := checkRef(ref); err != nil {
			return err
		}
	}
	return nil
}

// acquire takes a process slot, giving up when ctx ends.
func (r *Repo) acquire(ctx context.Context) error {
	select {
	case r.sem <- struct{}{}:
		n := r.running.Add(1)
		// Raise the peak to n unless another caller raised it further.
		for p := r.peak.Load(); n > p && !r.peak.CompareAndSwap(p, n); {
			p = r.peak.Load()
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release gives back a slot taken by acquire.
func (r *Repo) release() {
	r.running.Add(-1)
	<-r.sem
}

// logf forwards to Options.Logf when set.
func (r *Repo) logf(format string, args ...any) {
	if r.opt.Logf != nil {
		r.opt.Logf(format, args...)
	}
}

// emptyTree is EmptyTree in this repository's object format.
func (r *Repo) emptyTree() string {
	if r.sha256 {
		return emptyTreeSHA256
	}
	return EmptyTree
}

// mapRef translates EmptyTree for SHA-256 repositories.
func (r *Repo) mapRef(ref string) string {
	if ref == EmptyTree {
		return r.emptyTree()
	}
	return ref
}
