package reporters

import (
	"errors"
	"fmt"
	"io"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// Check fails when the spec's file cannot be written (see CheckPath): it
// is a symlink or not a regular file, or its directory refuses a new file.
// Nothing is written that stays. Run it for every spec before the review
// starts so no tokens are spent for nothing.
func (fl Files) Check(s reportspec.Spec) error {
	if s.Path == "" || s.Path == reportspec.Stdout {
		if s.Kind == reportspec.KindGitHubSummary && s.Path == "" {
			return fmt.Errorf("report %s has no path: set GITHUB_STEP_SUMMARY or write %s=PATH", s.Kind, s.Kind)
		}
		return nil
	}
	if err := fl.CheckPath(s.Path); err != nil {
		return fmt.Errorf("report %s: %w", s.Kind, err)
	}
	return nil
}

// CheckWritable runs reportspec.CheckOutputs, then Check on every spec, and
// joins the failures.
func (fl Files) CheckWritable(specs []reportspec.Spec) error {
	errs := []error{reportspec.CheckOutputs(fl.Dir, specs)}
	for _, s := range specs {
		errs = append(errs, fl.Check(s))
	}
	return errors.Join(errs...)
}

// Open opens the spec's output: stdout for reportspec.Stdout (never
// closed), else a new file renamed over the path when closed (CreateFile) —
// except github-summary, which GitHub expects appended (AppendFile).
func (fl Files) Open(s reportspec.Spec, stdout io.Writer) (io.WriteCloser, error) {
	if s.Path == reportspec.Stdout {
		return nopCloser{stdout}, nil
	}
	if s.Path == "" {
		return nil, fmt.Errorf("report %s has no output file: write %s=PATH", s.Kind, s.Kind)
	}
	var (
		f   io.WriteCloser
		err error
	)
	if s.Kind == reportspec.KindGitHubSummary {
		f, err = fl.AppendFile(s.Path)
	} else {
		f, err = fl.CreateFile(s.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", s.Kind, err)
	}
	return f, nil
}

type nopCloser struct{ io.Writer }

// Close does nothing: standard output stays open.
func (nopCloser) Close() error { return nil }
