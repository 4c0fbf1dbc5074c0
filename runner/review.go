package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/chatrun"
	"github.com/ocr-ci/ocr/internal/app/cli"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/reporters"
)

// review runs `ocr review`.
func (c *Command) review(ctx context.Context, args []string) int {
	cfg, err := c.parseConfig("review", args)
	if err == nil {
		err = cli.CheckReview(cfg, args)
	}
	if err != nil {
		return c.fail(err)
	}
	if code, done := chatrun.Converse(ctx, c.chatOptions(), cfg); done {
		return code
	}
	j, err := c.newJob(ctx, cfg)
	if err != nil {
		return c.fail(err)
	}
	if cfg.Preview {
		if err := j.checkModel(j.reg); err != nil {
			return c.fail(err)
		}
		return c.fail(c.preview(ctx, cfg))
	}
	return c.fullReview(ctx, j)
}

// logf prints progress to stderr, prefixed "ocr: " once: the posters and
// the API clients it is lent to write their lines with the prefix already.
func (c *Command) logf(format string, args ...any) {
	msg := strings.TrimPrefix(fmt.Sprintf(format, args...), "ocr: ")
	// Best effort: progress on stderr has no one to report a failed write to.
	_, _ = fmt.Fprintf(c.Stderr, "ocr: %s\n", safeLines(msg))
}

// preview prints the selection without calling a model.
func (c *Command) preview(ctx context.Context, cfg *config.Config) error {
	pr, err := plan.ForReview(ctx, cfg, c.logf)
	if err != nil {
		return err
	}
	defer pr.Close()
	p := pr.Preview
	w, closeOut, err := c.output(cfg.Output)
	if err != nil {
		return err
	}
	if strings.EqualFold(cfg.Format, "json") {
		err = p.WriteJSON(w)
	} else {
		err = p.WriteText(w)
	}
	closeOut()
	if err == nil && cfg.Output != "" && cfg.Output != "-" {
		c.logf("wrote %s", cfg.Output)
	}
	return err
}

// output opens the --output file, or stdout.
func (c *Command) output(path string) (w interface{ Write([]byte) (int, error) }, closeFn func(), err error) {
	if path == "" || path == "-" {
		return c.Stdout, func() {}, nil
	}
	f, err := reporters.Files{Dir: c.Dir}.CreateFile(path)
	if err != nil {
		return nil, nil, usagef("could not write %q: %w (choose a writable --output path)", path, err)
	}
	return f, func() {
		if err := f.Close(); err != nil {
			c.logf("%v", err)
		}
	}, nil
}
