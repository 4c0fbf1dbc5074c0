package review

import (
	"fmt"
	"strings"
)

// Reason says why a file was not reviewed: a stable string, part of the
// JSON output (files[].reason) and of the SARIF and summary reports. File
// selection (internal/domain/selection) and the agent loop (agent) both
// use these constants; no other list exists.
type Reason string

// Reasons decided by file selection, before any model call. The order in
// which selection checks them is part of the contract (internal/domain/selection).
const (
	ReasonBinary      Reason = "binary"
	ReasonSecret      Reason = "secret"
	ReasonUserExclude Reason = "user_exclude"
	ReasonVendored    Reason = "vendored"
	ReasonLockfile    Reason = "lockfile"
	ReasonGenerated   Reason = "generated"
	ReasonMinified    Reason = "minified"
	ReasonUnsupported Reason = "unsupported"
	ReasonTest        Reason = "test"
	// ReasonData: a data file (JSON, YAML, CSV, snapshots, fixtures) that a
	// scan leaves out unless --include names it.
	ReasonData      Reason = "data"
	ReasonDeleted   Reason = "deleted"
	ReasonNoContent Reason = "no_content"
	// ReasonTooLarge is decided by selection (the file's diff exceeds
	// --max-file-tokens) and by the agent (the group exceeds the model's
	// context).
	ReasonTooLarge Reason = "too_large"
	// ReasonTooMany: the file is past the cap of files reviewed per run
	// (--max-files).
	ReasonTooMany Reason = "too_many"
)

// Reasons a selected file ends not reviewed, decided by the agent loop.
const (
	ReasonProvider  Reason = "provider_error"
	ReasonTimeout   Reason = "timeout"
	ReasonRoundCap  Reason = "round_cap"
	ReasonBudget    Reason = "budget"
	ReasonMalformed Reason = "malformed_answers"
	ReasonFailed    Reason = "model_failed"
)

// notReviewedMark is what every coverage line of Review.Errors holds after
// its count (CoverageError), so a report that lists the files not
// reviewed can leave out the error that repeats them (IsCoverageError).
const notReviewedMark = " file(s) not reviewed, "

// CoverageError is the Review.Errors line of one cause of files not
// reviewed: "2 file(s) not reviewed, provider_error: HTTP 401 (a.go, b.go)".
func CoverageError(n int, cause, paths string) string {
	return fmt.Sprintf("%d%s%s (%s)", n, notReviewedMark, cause, paths)
}

// IsCoverageError reports whether e is a CoverageError line: it says
// nothing the review's FileCoverage does not.
func IsCoverageError(e string) bool {
	count, _, ok := strings.Cut(e, notReviewedMark)
	return ok && count != "" && strings.Trim(count, "0123456789") == ""
}

// NotReviewed is one line per cause (reason and detail) of the files not
// reviewed, naming the files, in the order the causes first occur.
func NotReviewed(cov []FileCoverage) []string {
	causes := map[string][]string{}
	var order, out []string
	for _, c := range cov {
		if c.Reviewed {
			continue
		}
		key := string(c.Reason) + ": " + c.Detail
		if _, ok := causes[key]; !ok {
			order = append(order, key)
		}
		causes[key] = append(causes[key], c.Path)
	}
	for _, k := range order {
		out = append(out, CoverageError(len(causes[k]), k, listPaths(causes[k])))
	}
	return out
}

// listPaths names at most five paths and counts the others.
func listPaths(paths []string) string {
	if len(paths) > 5 {
		return strings.Join(paths[:5], ", ") + fmt.Sprintf(", … %d more", len(paths)-5)
	}
	return strings.Join(paths, ", ")
}
