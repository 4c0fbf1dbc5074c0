package reporters

import "github.com/ocr-ci/ocr/review"

// orText is s, or def when s is empty.
func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// orInt is v, or def when v is not positive (an unset cap or limit).
func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// skipReason says why a file was not reviewed: its reason ("unknown" when
// none was given) and the detail, when there is one.
func skipReason(f review.FileCoverage) string {
	reason := orText(string(f.Reason), "unknown")
	if f.Detail != "" {
		reason += ": " + f.Detail
	}
	return reason
}
