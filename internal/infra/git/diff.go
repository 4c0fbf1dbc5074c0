package git

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// MaxDiffFileSize is the size above which a file's diff is not computed:
// git reports it as a binary file.
const MaxDiffFileSize = 32 << 20

// diffArgs are the options of every diff: unified with three lines of
// context, renames found, no external tools, fixed a/ and b/ prefixes.
// Binary files come out as "Binary files a/x and b/x differ".
//
// Files over MaxDiffFileSize are treated as binary (core.bigFileThreshold,
// set in globalArgs so that a failed call's Args still start with "diff"):
// a pull request that adds a text file of hundreds of megabytes must not
// make ocr hold it in memory; such a file is not reviewable anyway.
func diffArgs() []string {
	return []string{"diff", "-U3", "--find-renames", "--no-ext-diff", "--no-textconv",
		"--no-color", "--src-prefix=a/", "--dst-prefix=b/", "--submodule=short",
		"--inter-hunk-context=0"}
}

// Diff returns the unified diff from one tree-ish to another. from may be
// EmptyTree, to show a root commit's whole content as added.
func (r *Repo) Diff(ctx context.Context, from, to string) ([]byte, error) {
	text, err := r.DiffText(ctx, from, to)
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}

// DiffText is Diff returning a string held exactly once: git writes the
// diff to a temporary file (no copying through a pipe), which is then read
// into a string of exactly its size for the parser to slice in place.
func (r *Repo) DiffText(ctx context.Context, from, to string) (string, error) {
	if err := r.needRefs(from, to); err != nil {
		return "", err
	}
	args := append(diffArgs(), "--end-of-options", r.mapRef(from), r.mapRef(to), "--")
	text, err := r.runToString(ctx, call{args: args, objects: true})
	if err != nil {
		return "", fmt.Errorf("could not diff %s..%s: %w", from, to, err)
	}
	return text, nil
}

// runToString runs c with its output in a private temporary file and
// returns that output as a string allocated once, at its final size.
func (r *Repo) runToString(ctx context.Context, c call) (string, error) {
	f, err := os.CreateTemp("", "ocr-git-*")
	if err != nil {
		return "", fmt.Errorf("could not create a temporary file for git's output: %w", err)
	}
	defer dropTemp(f)
	c.out = f
	if _, err := r.run(ctx, c); err != nil {
		return "", err
	}
	st, err := f.Stat()
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	var b strings.Builder
	if err == nil {
		b.Grow(int(st.Size()))
		_, err = io.Copy(&b, f)
	}
	if err != nil {
		return "", fmt.Errorf("could not read git's output back: %w", err)
	}
	return b.String(), nil
}

// WorkspaceDiff returns the changes of the work tree and index against
// HEAD (against the empty tree when HEAD is unborn, so staged files show
// as added), followed by every untracked file that is not ignored, as an
// added file.
func (r *Repo) WorkspaceDiff(ctx context.Context) ([]byte, error) {
	if err := r.needRepo(); err != nil {
		return nil, err
	}
	head, unborn, err := r.Head(ctx)
	if err != nil {
		return nil, err
	}
	if unborn {
		head = r.emptyTree()
	}
	args := append(diffArgs(), "--end-of-options", head, "--")
	out, err := r.run(ctx, call{args: args})
	if err != nil {
		return nil, fmt.Errorf("could not diff the work tree against HEAD: %w", err)
	}
	untracked, err := r.untracked(ctx)
	if err != nil {
		return nil, err
	}
	attrs, err := r.diffAttrs(ctx, untracked)
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(out)
	for _, p := range untracked {
		if err := r.writeAddedFile(buf, p, attrs[p]); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// untracked lists files that are neither tracked nor ignored. Nested
// repositories (listed as "dir/") are left out.
func (r *Repo) untracked(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, call{args: []string{"ls-files", "--others", "--exclude-standard", "-z", "--"}, timeout: defaultListTimeout})
	if err != nil {
		return nil, fmt.Errorf("could not list untracked files: %w", err)
	}
	var files []string
	for _, p := range splitZ(out) {
		if strings.HasSuffix(p, "/") {
			r.logf("skipping %s: a nested repository", p)
			continue
		}
		files = append(files, p)
	}
	return files, nil
}

// splitZ splits NUL-terminated output.
func splitZ(out []byte) []string {
	s := strings.TrimSuffix(string(out), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// diffAttrs returns the "diff" attribute of each path ("set", "unset",
// "unspecified" or a driver name), which decides like git whether an
// untracked file is shown as text or binary.
func (r *Repo) diffAttrs(ctx context.Context, paths []string) (map[string]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	in := []byte(strings.Join(paths, "\x00") + "\x00")
	out, err := r.run(ctx, call{args: []string{"check-attr", "-z", "--stdin", "diff"}, stdin: in})
	if err != nil {
		return nil, fmt.Errorf("could not read the diff attributes of untracked files: %w", err)
	}
	f := splitZ(out)
	attrs := make(map[string]string, len(f)/3)
	for i := 0; i+2 < len(f); i += 3 {
		attrs[f[i]] = f[i+2]
	}
	return attrs, nil
}

// dropTemp closes and removes a temporary file of git's output once it has
// been read. Errors are dropped: the content is already read, and a file
// left behind in the temporary directory loses nothing.
func dropTemp(f *os.File) {
	_ = f.Close()
	_ = os.Remove(f.Name())
}
