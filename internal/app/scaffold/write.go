package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Write writes f under the repository's top unless a file is there
// already: then it says so on w, and what to add to it by hand. A file is
// never overwritten.
func Write(w io.Writer, top string, f File) error {
	path := filepath.Join(top, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("could not create the folder of %s: %w", f.Path, err)
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if f.Addition == "" {
			_, err = fmt.Fprintf(w, "%s exists: left as it is (compare it with docs/conversation.md)\n", f.Path)
			return err
		}
		_, err = fmt.Fprintf(w, "%s exists: left as it is; add this to it:\n\n%s\n", f.Path, f.Addition)
		return err
	}
	if err != nil {
		return fmt.Errorf("could not write %s: %w", f.Path, err)
	}
	_, err = out.WriteString(f.Content)
	if err = errors.Join(err, out.Close()); err != nil {
		return fmt.Errorf("could not write %s: %w", f.Path, err)
	}
	_, err = fmt.Fprintf(w, "wrote %s\n", f.Path)
	return err
}

// WriteSteps lists on w what is still to do (NextSteps), then the check.
func WriteSteps(w io.Writer, forge, host string) error {
	if host == "" && forge == GitLab {
		host = "gitlab.com"
	}
	var b strings.Builder
	b.WriteString("\nStill to do:\n")
	for i, s := range NextSteps(forge, host) {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, s)
	}
	b.WriteString("\nThen check what ocr sees: ocr env. It lists every problem that would stop a review,\n" +
		"one line each, and exits 2 on one. Run it with the same variables set; on GitHub the\n" +
		"action runs it when a job is re-run with debug logging.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Init writes the files of forge under top (Write: never over a file),
// then the steps still to do (WriteSteps).
func Init(w io.Writer, top, forge, host, version string) error {
	files, err := Files(forge, version)
	if err != nil {
		return fmt.Errorf("--forge: %w", err)
	}
	for _, f := range files {
		if err := Write(w, top, f); err != nil {
			return err
		}
	}
	return WriteSteps(w, forge, host)
}

// Run is `ocr init` in the repository at dir: the forge is given, or
// read from the origin remote; then Init.
func Run(ctx context.Context, w io.Writer, dir, forge, version string, opt git.Options) error {
	repo, err := git.Open(ctx, dir, opt)
	if err != nil {
		return err
	}
	defer func() { _ = repo.Close() }()
	host := ""
	if forge == "" {
		url, err := repo.RemoteURL(ctx, "origin")
		if forge, host, err = Detect(url, err); err != nil {
			return err
		}
	}
	return Init(w, repo.Dir(), forge, host, version)
}

// Main runs `ocr init` with its arguments (cli.ParseInit): the CI file
// for the forge of the origin remote, written where none exists, then
// what is still to set and the command that checks it. A relative --repo
// starts from wd ("": the process's working directory).
func Main(ctx context.Context, w io.Writer, wd string, args []string, version string, opt git.Options) error {
	dir, forge, err := cli.ParseInit(w, args)
	if err != nil {
		return err
	}
	if wd != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	return Run(ctx, w, dir, forge, version, opt)
}
