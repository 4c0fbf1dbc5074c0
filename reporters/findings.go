package reporters

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/ocr-ci/ocr/internal/infra/logtext"
	"github.com/ocr-ci/ocr/review"
)

// LineSpan renders "line 7" or "lines 7-9".
func LineSpan(start, end int) string {
	if end <= start {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// OldPath is the path of the comment's file before a rename (its path when
// there was none).
func OldPath(l review.Location) string {
	if l.OldPath != "" {
		return l.OldPath
	}
	return l.Path
}

// UniqueFingerprint returns the comment's fingerprint, suffixed when the
// same fingerprint already appeared in this log.
func UniqueFingerprint(seen map[string]int, c review.Comment) string {
	fp := c.Fingerprint
	if fp == "" {
		fp = review.Fingerprint(c.Path, c.Category, c.ExistingCode)
	}
	seen[fp]++
	if n := seen[fp]; n > 1 {
		return fmt.Sprintf("%s/%d", fp, n)
	}
	return fp
}

// MarshalIndent is json.MarshalIndent without HTML escaping, for readable
// reports (the readers are JSON parsers, not browsers).
func MarshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// A "##[" in a string would be a workflow command when the report is
	// printed in an Actions log; the escape keeps the JSON's meaning.
	return []byte(logtext.Inert(buf.String())), nil
}

// RuleID is the stable SARIF ruleId (and Code Quality check_name) of a
// comment: "<rule>/<category>", where <rule> is the catalogue rule that
// applied to the file (e.g. "ocr/go") or "ocr" when none did — so
// "ocr/go/bug", "ocr/maintainability". Security findings append their
// severity ("ocr/go/security/high") because GitHub reads security-severity
// from the rule, not the result; a finding whose severity changes between
// runs therefore becomes a new alert.
func RuleID(c review.Comment) string {
	rule := c.RuleID
	if rule == "" {
		rule = defaultRuleID
	}
	id := rule + "/" + string(review.ParseCategory(string(c.Category)))
	if c.Category == review.CategorySecurity {
		id += "/" + string(review.ParseSeverity(string(c.Severity)))
	}
	return id
}

// defaultRuleID stands for findings whose file matched no catalogue rule.
const defaultRuleID = "ocr"

// BySeverity returns a copy of cs, most severe first, then by path and line,
// so every reporter lists findings in the same stable order.
func BySeverity(cs []review.Comment) []review.Comment {
	out := append([]review.Comment(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
	return out
}

// SeverityCounts counts comments per severity.
func SeverityCounts(cs []review.Comment) map[review.Severity]int {
	n := map[review.Severity]int{}
	for _, c := range cs {
		n[c.Severity]++
	}
	return n
}

// SeverityOrder lists the severities most severe first.
func SeverityOrder() []review.Severity {
	return []review.Severity{review.SeverityCritical, review.SeverityHigh, review.SeverityMedium, review.SeverityLow}
}

// SkipReason says why a file was not reviewed: its reason ("unknown" when
// none was given) and the detail, when there is one.
func SkipReason(f review.FileCoverage) string {
	reason := string(cmp.Or(f.Reason, "unknown"))
	if f.Detail != "" {
		reason += ": " + f.Detail
	}
	return reason
}

// NotReviewed counts the files that were not reviewed.
func NotReviewed(files []review.FileCoverage) int {
	n := 0
	for _, f := range files {
		if !f.Reviewed {
			n++
		}
	}
	return n
}

// Span renders a line span as "7" or "7-9".
func Span(start, end int) string {
	if end > start {
		return fmt.Sprintf("%d-%d", start, end)
	}
	return fmt.Sprint(start)
}

// IsUnsafeControl reports control and bidirectional-formatting characters
// that can hide or reorder text ("Trojan Source").
func IsUnsafeControl(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// OrDefault is v when it is positive, else def: an unset cap or limit.
func OrDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}
