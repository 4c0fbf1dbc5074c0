// Package reportspec holds the typed report specs of --report KIND[=PATH]:
// the report kinds, their default paths, and the parsing and checks that
// need no file system. It is a leaf: config, CI detection and the reporters
// share it without importing one another.
package reportspec

import (
	"errors"
	"fmt"
	"strings"
)

// Kind names a report format for --report KIND[=PATH].
type Kind string

// The report kinds. GitHubReview and GitLabDiscussion post through an API
// and take no path.
const (
	KindSARIF             Kind = "sarif"
	KindGitHubAnnotations Kind = "github-annotations"
	KindGitHubSummary     Kind = "github-summary"
	KindCodeQuality       Kind = "codequality"
	KindJSON              Kind = "json"
	KindText              Kind = "text"
	KindHTML              Kind = "html"
	KindGitHubReview      Kind = "github-review"
	KindGitLabDiscussion  Kind = "gitlab-discussion"
)

// Kinds lists every kind in documentation order.
var Kinds = []Kind{KindSARIF, KindGitHubAnnotations, KindGitHubSummary, KindCodeQuality,
	KindJSON, KindText, KindHTML, KindGitHubReview, KindGitLabDiscussion}

// Stdout is the path that means standard output.
const Stdout = "-"

// Default paths of the file reports, defined here once.
const (
	// DefaultSARIFPath is where a SARIF report goes when --report gives no path.
	DefaultSARIFPath = "ocr.sarif"
	// DefaultCodeQualityPath is where a Code Quality report goes by default.
	DefaultCodeQualityPath = "gl-code-quality-report.json"
	// DefaultHTMLPath is where the HTML report goes by default.
	DefaultHTMLPath = "ocr.html"
)

// Spec is one parsed --report value.
type Spec struct {
	Kind Kind
	// Path is where the report goes: a file, Stdout, or "" for the API
	// reporters and for github-summary before the runner fills it from
	// $GITHUB_STEP_SUMMARY.
	Path string
}

// DefaultPath is the path a kind writes to when --report gives none.
func (k Kind) DefaultPath() string {
	switch k {
	case KindSARIF:
		return DefaultSARIFPath
	case KindCodeQuality:
		return DefaultCodeQualityPath
	case KindHTML:
		return DefaultHTMLPath
	case KindJSON, KindText, KindGitHubAnnotations:
		return Stdout
	}
	return ""
}

// API reports whether the kind posts through an API instead of writing a file.
func (k Kind) API() bool { return k == KindGitHubReview || k == KindGitLabDiscussion }

// String is the --report form of the spec.
func (s Spec) String() string {
	if s.Path == "" {
		return string(s.Kind)
	}
	return string(s.Kind) + "=" + s.Path
}

// Parse reads one --report value, KIND or KIND=PATH, filling the kind's
// default path when none is given.
func Parse(v string) (Spec, error) {
	name, path, hasPath := strings.Cut(strings.TrimSpace(v), "=")
	k := Kind(strings.ToLower(strings.TrimSpace(name)))
	if !knownKind(k) {
		return Spec{}, fmt.Errorf("invalid --report %q: unknown kind %q; use one of %s", v, name, kindList())
	}
	if hasPath && path == "" {
		return Spec{}, fmt.Errorf("invalid --report %q: empty path; write %s or %s=PATH", v, k, k)
	}
	if hasPath && k.API() {
		return Spec{}, fmt.Errorf("invalid --report %q: %s posts comments through the API and takes no path", v, k)
	}
	if !hasPath {
		path = k.DefaultPath()
	}
	return Spec{Kind: k, Path: path}, nil
}

// ParseAll reads repeated --report values and comma-separated lists
// (OCR_REPORTS), skipping empty items. A kind may appear more than once with
// different paths.
func ParseAll(values ...string) ([]Spec, error) {
	var specs []Spec
	var errs []error
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if strings.TrimSpace(item) == "" {
				continue
			}
			s, err := Parse(item)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			specs = append(specs, s)
		}
	}
	return specs, errors.Join(errs...)
}

func knownKind(k Kind) bool {
	for _, x := range Kinds {
		if k == x {
			return true
		}
	}
	return false
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
