package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// A model that sends code_comment's comments as a JSON string instead of an
// array must escape the string once more than usual, and it often misses
// one level: a double quote inside its prose ("the name suggests "ok" but")
// or a raw newline. Such a string does not parse, and every finding in it
// would be lost. repairComments fixes exactly these two mistakes, and
// accepts the result only when it still holds every comment the text
// described, as Open Code Review does.

// commentsString parses comments sent as a JSON string, repairing the
// escaping a model got wrong (see repairComments) before giving up.
func commentsString(s string) ([]json.RawMessage, error) {
	var list []json.RawMessage
	err := json.Unmarshal([]byte(s), &list)
	if err == nil {
		return list, nil
	}
	if fixed, _, ok := repairComments(s); ok {
		return fixed, nil
	}
	return nil, fmt.Errorf("failed to parse 'comments' JSON string: %s", toolargs.JSONError(err))
}

// contentKey counts the comment objects a text describes. A `"content":`
// inside prose only raises the count, which makes the check stricter.
var contentKey = regexp.MustCompile(`"content"\s*:`)

// repairComments returns the comments of a serialized array that failed to
// parse, after escaping its stray quotes and raw control characters; ok is
// false when nothing needed escaping, the result still does not parse, or
// it lost a comment (fewer entries than "content" keys, or one without
// content), and then the original parse error stands.
func repairComments(s string) (list []json.RawMessage, escaped int, ok bool) {
	fixed, escaped := escapeStrays(s)
	if escaped == 0 || json.Unmarshal([]byte(fixed), &list) != nil {
		return nil, 0, false
	}
	if len(list) == 0 || len(list) < len(contentKey.FindAllStringIndex(s, -1)) {
		return nil, 0, false
	}
	for _, el := range list {
		var c struct {
			Content any `json:"content"`
		}
		if json.Unmarshal(el, &c) != nil {
			return nil, 0, false
		}
		if text, isStr := c.Content.(string); !isStr || strings.TrimSpace(text) == "" {
			return nil, 0, false
		}
	}
	return list, escaped, true
}

// escapeStrays walks the JSON text and, inside strings, escapes raw
// newlines, carriage returns and tabs, and every double quote that cannot
// end the string: one not followed (after spaces) by ',', ':', '}', ']' or
// the end of the text. Existing escapes are copied as they are. Working on
// bytes is safe for UTF-8: no byte of a multi-byte rune is ASCII.
func escapeStrays(s string) (string, int) {
	var b strings.Builder
	b.Grow(len(s) + 8)
	n, inString := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case !inString:
			inString = c == '"'
			b.WriteByte(c)
		case c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
		case c == '"' && endsString(s[i+1:]):
			inString = false
			b.WriteByte(c)
		case c == '"':
			b.WriteString(`\"`)
			n++
		case c == '\n' || c == '\r' || c == '\t':
			b.WriteString(map[byte]string{'\n': `\n`, '\r': `\r`, '\t': `\t`}[c])
			n++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), n
}

// endsString reports whether a quote followed by rest can close a JSON
// string: the next non-space byte is a separator or there is none.
func endsString(rest string) bool {
	rest = strings.TrimLeft(rest, " \t\r\n")
	return rest == "" || strings.ContainsRune(",:}]", rune(rest[0]))
}
