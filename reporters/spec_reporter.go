package reporters

import (
	"fmt"
	"io"
)

// FileOptions carries what the file reporters need besides their writer.
type FileOptions struct {
	// SARIFCategory is --sarif-category; RepositoryURI records the head
	// commit in SARIF (e.g. "https://github.com/owner/repo").
	SARIFCategory, RepositoryURI string
	// Summary configures the github-summary Markdown.
	Summary SummaryOptions
	// Color enables ANSI colour in text output (see UseColor).
	Color bool
}

// Reporter builds the reporter for a file kind writing to w (from Open).
// The API kinds (github-review, gitlab-discussion) need clients: the runner
// builds those itself, and asking for them here is an error.
func (s Spec) Reporter(w io.Writer, o FileOptions) (Reporter, error) {
	switch s.Kind {
	case KindSARIF:
		return &SARIF{W: w, Category: o.SARIFCategory, RepositoryURI: o.RepositoryURI}, nil
	case KindGitHubAnnotations:
		return &Annotations{W: w}, nil
	case KindGitHubSummary:
		return &Summary{W: w, Options: o.Summary}, nil
	case KindCodeQuality:
		return &CodeQuality{W: w}, nil
	case KindJSON:
		return &JSON{W: w}, nil
	case KindText:
		return &Text{W: w, Color: o.Color}, nil
	}
	return nil, fmt.Errorf("report %s is not a file report: build it with its API client", s.Kind)
}
