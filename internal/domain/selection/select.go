// Package selection is the file-selection policy: which changed files are
// reviewed and why the others are not (review.Reason), the generated-code
// probe, and the credentials guard around the tools' sources.
package selection

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/secretscan"
	"github.com/ocr-ci/ocr/review"
)

// Options is what file selection needs besides the diff.
type Options struct {
	// Exclude and Include are doublestar globs (--exclude, --include).
	Exclude, Include []string
	// IncludeTests reviews test files too.
	IncludeTests bool
	// MaxFileTokens is the largest diff of one file that is reviewed.
	MaxFileTokens int
	// Generated reports whether a file's header says it is generated.
	Generated func(path string) bool
	// OverBudget are files whose diff was not parsed (the diff budget).
	OverBudget map[string]int64
	// LeaveOutData leaves data files out (review.ReasonData, IsData):
	// scans do, unless --include names them.
	LeaveOutData bool
}

// Files decides, for every file of the change, whether it is reviewed
// and, if not, why. The order of the checks is part of the contract.
func Files(files []udiff.File, diffs map[string]string, s Options) []review.FileCoverage {
	return ScanSecrets(FilesByPath(files, diffs, s), diffs)
}

// ScanSecrets leaves out, reason secret, the selected files whose content
// holds a credential (a private key, a token): never sent to a model. It
// is the last check of Files; a scan runs it after sharding, on its part
// only (it is most of a selection's time).
func ScanSecrets(files []review.FileCoverage, diffs map[string]string) []review.FileCoverage {
	for i, f := range files {
		if f.Reviewed && secretscan.FindString(diffs[f.Path]) != "" {
			files[i].Reviewed, files[i].Reason = false, review.ReasonSecret
		}
	}
	return files
}

// FilesByPath is Files without ScanSecrets: the caller must run it on
// every file it keeps before any is read by a model.
func FilesByPath(files []udiff.File, diffs map[string]string, s Options) []review.FileCoverage {
	out := make([]review.FileCoverage, len(files))
	for i := range files {
		f := &files[i]
		reason := s.reason(f, len(diffs[f.Path()]))
		out[i] = review.FileCoverage{
			Path: f.Path(), OldPath: oldPathIfMoved(f), Status: string(f.Status),
			Additions: f.Additions, Deletions: f.Deletions,
			Reviewed: reason == "", Reason: reason,
		}
	}
	return out
}

func oldPathIfMoved(f *udiff.File) string {
	if f.OldPath != "" && f.OldPath != f.NewPath && f.NewPath != "" {
		return f.OldPath
	}
	return ""
}

// reason returns why f is not reviewed, or "" when it is.
func (s Options) reason(f *udiff.File, diffBytes int) review.Reason {
	p := f.Path()
	switch {
	case f.Binary:
		return review.ReasonBinary
	case isSecretPath(p), isSecretPath(oldPathIfMoved(f)):
		return review.ReasonSecret
	case matchAny(s.Exclude, p):
		return review.ReasonUserExclude
	}
	if !matchAny(s.Include, p) {
		if r := defaultReason(f, s); r != "" {
			return r
		}
	}
	switch {
	case s.OverBudget[p] > 0:
		return review.ReasonTooLarge
	case f.Status == udiff.StatusDeleted:
		return review.ReasonDeleted
	case len(f.Hunks) == 0:
		return review.ReasonNoContent
	case diffBytes/4 > s.MaxFileTokens:
		return review.ReasonTooLarge
	}
	return ""
}

// defaultReason applies the default exclusions that --include bypasses.
func defaultReason(f *udiff.File, s Options) review.Reason {
	p := f.Path()
	switch {
	case isVendored(p):
		return review.ReasonVendored
	case isLockfile(p):
		return review.ReasonLockfile
	case isGeneratedName(p) || hasGeneratedHeader(f) || (s.Generated != nil && f.Status != udiff.StatusDeleted && s.Generated(p)):
		return review.ReasonGenerated
	case isMinified(f):
		return review.ReasonMinified
	case !isSource(p):
		return review.ReasonUnsupported
	case !s.IncludeTests && isTestPath(p):
		return review.ReasonTest
	case s.LeaveOutData && IsData(p):
		return review.ReasonData
	}
	return ""
}

// matchAny reports whether p matches one of the doublestar globs; a glob
// without a slash also matches the base name anywhere (`*.sql`).
func matchAny(globs []string, p string) bool {
	lp := strings.ToLower(p)
	for _, g := range globs {
		g = strings.ToLower(strings.TrimPrefix(g, "./"))
		if ok, _ := doublestar.Match(g, lp); ok {
			return true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, path.Base(lp)); ok {
				return true
			}
		}
		if strings.HasSuffix(g, "/") && strings.HasPrefix(lp, g) {
			return true
		}
	}
	return false
}

// hasGeneratedHeader looks at the first lines of an added file's diff for
// the generated-code markers (https://go.dev/s/generatedcode and @generated).
func hasGeneratedHeader(f *udiff.File) bool {
	if len(f.Hunks) == 0 || f.Hunks[0].NewStart != 1 {
		return false
	}
	for i, l := range f.Hunks[0].Lines {
		if i >= 10 {
			break
		}
		if isGeneratedMarker(l.Text) {
			return true
		}
	}
	return false
}

// reportMarkers are what the first lines of ocr's own reports hold (and a
// SARIF log's, whoever wrote it): ocr never reviews a report it wrote,
// whatever its name, when a work-tree review finds it untracked or a
// commit adds it.
var reportMarkers = []string{
	`"tool": "ocr"`,                         // ocr's JSON report, and each shard's
	`"check_name": "ocr/`,                   // GitLab Code Quality
	`<meta name="generator" content="ocr">`, // the HTML report
	`/sarif-schema-2.1.0.json"`,             // SARIF's $schema
}

// isGeneratedMarker reports whether one header line marks generated code
// or one of ocr's reports.
func isGeneratedMarker(line string) bool {
	if strings.Contains(line, "@generated") {
		return true
	}
	for _, m := range reportMarkers {
		if strings.Contains(line, m) {
			return true
		}
	}
	i := strings.Index(line, "Code generated ")
	return i >= 0 && strings.Contains(line[i:], "DO NOT EDIT")
}

// isMinified flags *.min.js/*.min.css and files whose added lines are very long.
func isMinified(f *udiff.File) bool {
	base := strings.ToLower(path.Base(f.Path()))
	if strings.Contains(base, ".min.") || strings.HasSuffix(base, ".map") {
		return true
	}
	long, total := 0, 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind != udiff.Added {
				continue
			}
			total++
			if len(l.Text) > 1000 {
				long++
			}
		}
	}
	return long > 0 && (long*2 >= total || long >= 3)
}
