package build

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// SetOptions say how a run's reports are written.
type SetOptions struct {
	File FileOptions // Color applies to a text report on Stdout only
	// Stdout is where the reports without a path go.
	Stdout io.Writer
	// Dir is the working directory relative report paths start from ("":
	// the process's).
	Dir string
	// GitHubOutput is $GITHUB_OUTPUT, "" outside Actions: the path of the
	// SARIF report is written there.
	GitHubOutput string
	// Poster returns the pull or merge request reporter of kind k, or nil
	// when there is nothing to post to (the caller says why).
	Poster func(k reportspec.Kind) reporters.Reporter
}

// Set is the reporters of one run, with the files they write.
type Set struct {
	reporters.Multi
	closers  []io.Closer
	files    []*fileReport
	openErrs []error
}

// NewSet turns the report specs into reporters. A file that cannot be
// opened (it became a symlink since the check) leaves out its report
// only: the others are still written, and Close returns its error.
func NewSet(specs []reportspec.Spec, o SetOptions) (*Set, error) {
	set, sarifPath := &Set{}, ""
	for _, s := range specs {
		if s.Kind.API() {
			if r := o.Poster(s.Kind); r != nil {
				set.Multi = append(set.Multi, r)
			}
			continue
		}
		w, err := reporters.Files{Dir: o.Dir}.Open(s, o.Stdout)
		if err != nil {
			set.openErrs = append(set.openErrs, err)
			continue
		}
		set.closers = append(set.closers, w)
		if s.Kind == reportspec.KindSARIF {
			sarifPath = s.Path
		}
		fo := o.File
		fo.Color = fo.Color && s.Path == reportspec.Stdout
		r, err := File(s, w, fo)
		if err != nil {
			// Nothing was written: that error is the one to report.
			_, _ = set.Close()
			return nil, err
		}
		if s.Path != reportspec.Stdout {
			f := &fileReport{Reporter: r, path: s.Path, closer: len(set.closers) - 1}
			set.files, r = append(set.files, f), f
		}
		set.Multi = append(set.Multi, r)
	}
	if o.GitHubOutput != "" {
		set.Multi = append(set.Multi, &reporters.Lazy{Path: o.GitHubOutput, Dir: o.Dir, Make: func(w io.Writer) reporters.Reporter {
			return &github.Output{W: w, SARIFPath: sarifPath}
		}})
	}
	return set, nil
}

// Close closes the report files and returns the paths of those written
// in full, once each, with every error of opening and closing.
func (s *Set) Close() ([]string, error) {
	var errs []error
	for _, cl := range s.closers {
		errs = append(errs, cl.Close())
	}
	var wrote []string
	for i, f := range s.files {
		if f.ok && errs[f.closer] == nil && !slices.ContainsFunc(s.files[:i], func(g *fileReport) bool { return g.path == f.path }) {
			wrote = append(wrote, f.path)
		}
	}
	return wrote, errors.Join(append(s.openErrs, errs...)...)
}

var _ reporters.Reporter = (*fileReport)(nil)

// fileReport remembers whether its reporter wrote its file in full, so the
// run can say "wrote PATH" once per file.
type fileReport struct {
	reporters.Reporter
	path   string
	closer int // index of its file among the closers
	ok     bool
}

// Report runs the reporter and records success.
func (f *fileReport) Report(ctx context.Context, r *review.Review) error {
	err := f.Reporter.Report(ctx, r)
	f.ok = err == nil
	return err
}

// Fallback is where a GitHub review goes when it cannot be posted: the
// annotations on w and the step summary (stepSummary, "" outside
// Actions), unless they are already among specs.
func Fallback(specs []reportspec.Spec, w io.Writer, stepSummary string, summary github.SummaryOptions) reporters.Reporter {
	var m reporters.Multi
	has := kinds(specs)
	if !has[reportspec.KindGitHubAnnotations] {
		m = append(m, &github.Annotations{W: w})
	}
	if !has[reportspec.KindGitHubSummary] && stepSummary != "" {
		m = append(m, &reporters.Lazy{Path: stepSummary, Make: func(w io.Writer) reporters.Reporter {
			return &github.Summary{W: w, Options: summary}
		}})
	}
	return m
}

// FallbackWhere names where the findings are when a review cannot be
// posted: the fallback's annotations and step summary (when
// stepSummary), and the report files the run writes anyway.
func FallbackWhere(specs []reportspec.Spec, stepSummary bool) string {
	has := kinds(specs)
	has[reportspec.KindGitHubAnnotations] = true
	if stepSummary {
		has[reportspec.KindGitHubSummary] = true
	}
	var names []string
	for _, k := range []struct {
		kind reportspec.Kind
		name string
	}{{reportspec.KindGitHubAnnotations, "the annotations"}, {reportspec.KindGitHubSummary, "the step summary"},
		{reportspec.KindSARIF, "the SARIF file"}, {reportspec.KindCodeQuality, "the Code Quality report"},
		{reportspec.KindJSON, "the JSON report"}, {reportspec.KindText, "the text report"}, {reportspec.KindHTML, "the HTML report"}} {
		if has[k.kind] {
			names = append(names, k.name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// kinds is the set of the specs' kinds.
func kinds(specs []reportspec.Spec) map[reportspec.Kind]bool {
	has := map[reportspec.Kind]bool{}
	for _, s := range specs {
		has[s.Kind] = true
	}
	return has
}
