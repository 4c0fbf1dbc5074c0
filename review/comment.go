package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Severity orders findings; the zero value is unknown.
type Severity string

// The four severities, most severe first.
const (
	SeverityCritical Severity = "critical"
	SeverityHigh     Severity = "high"
	SeverityMedium   Severity = "medium"
	SeverityLow      Severity = "low"
)

// ParseSeverity case-folds s; unknown values become low, as the tools spec says.
func ParseSeverity(s string) Severity {
	switch v := Severity(strings.ToLower(strings.TrimSpace(s))); v {
	case SeverityCritical, SeverityHigh, SeverityMedium, SeverityLow:
		return v
	}
	return SeverityLow
}

// Rank is 4 for critical down to 1 for low, 0 for anything else.
func (s Severity) Rank() int {
	switch s {
	case SeverityCritical:
		return 4
	case SeverityHigh:
		return 3
	case SeverityMedium:
		return 2
	case SeverityLow:
		return 1
	}
	return 0
}

// Category classifies a finding.
type Category string

// The categories of the code_comment tool.
const (
	CategoryBug             Category = "bug"
	CategorySecurity        Category = "security"
	CategoryPerformance     Category = "performance"
	CategoryMaintainability Category = "maintainability"
	CategoryTest            Category = "test"
	CategoryStyle           Category = "style"
	CategoryDocumentation   Category = "documentation"
	CategoryOther           Category = "other"
)

// Categories lists every category in a stable order.
var Categories = []Category{CategoryBug, CategorySecurity, CategoryPerformance,
	CategoryMaintainability, CategoryTest, CategoryStyle, CategoryDocumentation, CategoryOther}

// ParseCategory case-folds s; unknown values become other.
func ParseCategory(s string) Category {
	v := Category(strings.ToLower(strings.TrimSpace(s)))
	for _, c := range Categories {
		if v == c {
			return v
		}
	}
	return CategoryOther
}

// Side says which version of a file a location refers to.
type Side string

// Sides of a diff. A file-level location has no side.
const (
	SideNew  Side = "new"
	SideOld  Side = "old"
	SideNone Side = ""
)

// Method says how a location was found.
type Method string

// Anchoring methods, in the order the resolver tries them.
const (
	MethodHunkNew    Method = "hunk_new"
	MethodHunkOld    Method = "hunk_old"
	MethodWholeFile  Method = "whole_file"
	MethodOtherFile  Method = "other_file"
	MethodFuzzy      Method = "fuzzy"
	MethodRelocation Method = "relocation"
	MethodFileLevel  Method = "file_level"
)

// Location is where a comment lands. StartLine and EndLine are 1-based and
// inclusive, numbered on Side's version of the file; both are 0 for a
// file-level comment.
type Location struct {
	Path string `json:"path"`
	// OldPath is the path on the old side when the file was renamed.
	OldPath   string `json:"old_path,omitempty"`
	Side      Side   `json:"side,omitempty"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	// InHunk is true when every line of the range lies inside one hunk of the
	// diff on Side (GitHub accepts inline comments only there).
	InHunk bool   `json:"in_diff"`
	Method Method `json:"method"`
	// Candidates are the start lines of other places that matched equally
	// well when the match was ambiguous.
	Candidates []int `json:"candidates,omitempty"`
}

// FileLevel reports whether the location has no line.
func (l Location) FileLevel() bool { return l.StartLine == 0 }

// Comment is one finding.
type Comment struct {
	Location
	Content string `json:"content"`
	// ExistingCode is the code the comment is about, as it is in the file
	// at its location.
	ExistingCode string `json:"existing_code"`
	// QuotedCode is the model's quote when it differs from ExistingCode:
	// a quote placed by approximation (the fuzzy step, a re-quote).
	QuotedCode string   `json:"quoted_code,omitempty"`
	Suggestion string   `json:"suggestion,omitempty"`
	Category   Category `json:"category"`
	Severity   Severity `json:"severity"`
	// RuleID is the review rule that applied to the file (SARIF ruleId).
	RuleID string `json:"rule_id,omitempty"`
	// Fingerprint identifies the finding across runs; see Fingerprint.
	Fingerprint string `json:"fingerprint"`
	// Thinking is the model's reasoning: kept, never shown to people.
	Thinking string `json:"-"`
	// Suppressed is set when someone ignored the finding (Review.Suppress):
	// it stays in the file reports, marked, and is neither posted, nor
	// annotated, nor counted by the --fail-on gate.
	Suppressed *Suppression `json:"suppressed,omitempty"`
	// Carried is set on a finding an earlier review of the pull request
	// made and this run carried forward (an incremental review, a re-run,
	// a rebase), re-anchored in the new head: the thread it started, if
	// any, is its thread, even one the platform shows as outdated, and it
	// is never posted again.
	Carried bool `json:"-"`
	// Votes is how many of the review's passes found the finding; nil
	// when the review made one pass.
	Votes *Votes `json:"votes,omitempty"`
}

// Fingerprint identifies a finding across runs: path, category and the
// anchored code with whitespace normalised — not the line number, not the
// model's wording, so moving code or rephrasing does not make it new.
func Fingerprint(path string, cat Category, code string) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(cat))
	h.Write([]byte{0})
	h.Write([]byte(NormalizeCode(code)))
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// NormalizeCode trims every line, drops blank lines and joins the rest with
// "\n", so indentation and line endings do not change fingerprints.
func NormalizeCode(code string) string {
	var b strings.Builder
	for _, line := range strings.Split(code, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// Votes says how many of a review's independent passes (--passes) found a
// finding: Found of Passes. It is written "2/3" in the JSON report.
type Votes struct {
	Found  int
	Passes int
}

// String is "Found/Passes".
func (v Votes) String() string { return strconv.Itoa(v.Found) + "/" + strconv.Itoa(v.Passes) }

// Share is Found/Passes, 0 without passes.
func (v Votes) Share() float64 {
	if v.Passes <= 0 {
		return 0
	}
	return float64(v.Found) / float64(v.Passes)
}

// MarshalJSON writes "Found/Passes".
func (v Votes) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(v.String())), nil }

// UnmarshalJSON reads "Found/Passes" with 1 <= Found <= Passes.
func (v *Votes) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return fmt.Errorf("votes %s: want a string such as \"2/3\"", b)
	}
	f, p, ok := strings.Cut(s, "/")
	found, err1 := strconv.Atoi(f)
	passes, err2 := strconv.Atoi(p)
	if !ok || err1 != nil || err2 != nil || found < 1 || found > passes {
		return fmt.Errorf("votes %q: want FOUND/PASSES such as \"2/3\"", s)
	}
	*v = Votes{Found: found, Passes: passes}
	return nil
}
