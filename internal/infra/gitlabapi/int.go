package gitlabapi

import (
	"fmt"
	"strconv"
	"strings"
)

// Int is an id or line number as GitLab sends it: a number, or a numeric
// string, because GitLab echoes parameters it declares as String verbatim
// (position[line_range][start|end][old_line|new_line] are JSON strings,
// xanzy/go-gitlab#1265; webhook payloads carry ids either way). null, ""
// and "null" (what a client that stringified a missing value stored) are
// 0: a line or id that is not there. Anything else, a fraction included,
// is an error, so that a note's unreadable field is never read as line 0
// of something.
type Int int64

// UnmarshalJSON accepts 59, "59", " 59 ", null, "" and "null".
func (n *Int) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if uq, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		s = strings.TrimSpace(uq)
	}
	if s == "" || s == "null" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%.40s is neither a whole number nor a numeric string", b)
	}
	*n = Int(v)
	return nil
}
