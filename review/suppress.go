package review

import "fmt"

// Suppression says who ignored a finding and why: a person on the pull
// request ("/ocr ignore reason", By their login) or a rule file's ignore
// list (By "rule.json").
type Suppression struct {
	By     string `json:"by"`
	Reason string `json:"reason"`
	// Like is the fingerprint of the dismissed finding this one is like
	// (Dismissal.Like): suppressed "like one dismissed by @By".
	Like string `json:"like,omitempty"`
}

// String is "by @alice: reason", "by rule.json", "like one dismissed by
// @alice", for summaries (escape it there: both parts are people's text).
func (s Suppression) String() string {
	if s.Like != "" {
		return likeText(s.By)
	}
	by := s.By
	if by != RuleFileIgnore {
		by = "@" + by
	}
	if s.Reason == "" {
		return "by " + by
	}
	return fmt.Sprintf("by %s: %s", by, s.Reason)
}

// RuleFileIgnore is Suppression.By for a finding of a rule file's ignore
// list (internal/domain/rules).
const RuleFileIgnore = "rule.json"

// Suppress marks the comments that why suppresses (the one place
// Comment.Suppressed is set) and returns how many it marked.
func (r *Review) Suppress(why func(Comment) (Suppression, bool)) int {
	n := 0
	for i, c := range r.Comments {
		if s, ok := why(c); ok && c.Suppressed == nil {
			r.Comments[i].Suppressed = &s
			n++
		}
	}
	return n
}

// Active is the review without its suppressed comments, for what posts,
// annotates or gates; r itself when none is suppressed.
func (r *Review) Active() *Review {
	active := ActiveComments(r.Comments)
	if len(active) == len(r.Comments) {
		return r
	}
	out := *r
	out.Comments = active
	return &out
}

// ActiveComments are cs without the suppressed ones.
func ActiveComments(cs []Comment) []Comment {
	out := make([]Comment, 0, len(cs))
	for _, c := range cs {
		if c.Suppressed == nil {
			out = append(out, c)
		}
	}
	return out
}

// Suppressed are the suppressed comments of cs.
func Suppressed(cs []Comment) []Comment {
	var out []Comment
	for _, c := range cs {
		if c.Suppressed != nil {
			out = append(out, c)
		}
	}
	return out
}

// FingerprintOf is c's fingerprint, computed when it was not set.
func FingerprintOf(c Comment) string {
	if c.Fingerprint != "" {
		return c.Fingerprint
	}
	return Fingerprint(c.Path, c.Category, c.ExistingCode)
}
