// Package build turns a file report spec into its reporter. It is the one
// place that knows every file destination; it lives outside the reporters
// core because the core cannot import its own subpackages.
package build

import (
	"fmt"
	"io"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/codequality"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/html"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
	"github.com/ocr-ci/ocr/reporters/sarif"
	"github.com/ocr-ci/ocr/reporters/text"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// FileOptions carries what the file reporters need besides their writer.
type FileOptions struct {
	// SARIFCategory is --sarif-category; RepositoryURI records the head
	// commit in SARIF (e.g. "https://github.com/owner/repo").
	SARIFCategory, RepositoryURI string
	// Summary configures the github-summary Markdown.
	Summary github.SummaryOptions
	// Color enables ANSI colour in text output (see text.UseColor).
	Color bool
	// Verbose lists every file not reviewed in text output.
	Verbose bool
	// Files is the change's parsed diff: the HTML report shows each
	// finding's code in its hunk.
	Files []udiff.File
}

// File builds the reporter for a file kind writing to w (from reporters.Open).
// The API kinds (github-review, gitlab-discussion) need clients: the runner
// builds those itself, and asking for them here is an error.
func File(s reportspec.Spec, w io.Writer, o FileOptions) (reporters.Reporter, error) {
	switch s.Kind {
	case reportspec.KindSARIF:
		return &sarif.Reporter{W: w, Category: o.SARIFCategory, RepositoryURI: o.RepositoryURI}, nil
	case reportspec.KindGitHubAnnotations:
		return &github.Annotations{W: w}, nil
	case reportspec.KindGitHubSummary:
		return &github.Summary{W: w, Options: o.Summary}, nil
	case reportspec.KindCodeQuality:
		return &codequality.Reporter{W: w}, nil
	case reportspec.KindJSON:
		return &jsonreport.Reporter{W: w}, nil
	case reportspec.KindText:
		return &text.Reporter{W: w, Color: o.Color, Verbose: o.Verbose}, nil
	case reportspec.KindHTML:
		return &html.Reporter{W: w, Files: o.Files}, nil
	}
	return nil, fmt.Errorf("report %s is not a file report: build it with its API client", s.Kind)
}
