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
