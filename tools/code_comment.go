package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// codeComment collects findings. comments is an array or a JSON string
// holding one; items without content are dropped; path defaults to the
// call's path, then to the file under review.
func codeComment(_ context.Context, s *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	path := a.Str("path", false)
	v, ok := a.Get("comments")
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	var items []CommentInput
	if ok {
		var err error
		if items, err = decodeComments(v); err != nil {
			return errorf("%v", err)
		}
	}
	switch {
	case ok && len(items) == 0:
		return errorf("'comments' is empty: give at least one comment ({\"content\": \"…\", \"existing_code\": \"…\"}), " +
			"or call task_done when there is nothing to say")
	case len(items) == 0:
		return errorf("'comments' array is required. Got args: %s", clip(string(raw), 200))
	}
	known := func(p string) bool {
		_, ok := s.Diffs[p]
		return ok || p == s.File
	}
	def := knownPath(path, known)
	if def == "" {
		def = knownPath(s.File, func(string) bool { return true })
	}
	out := make([]CommentInput, 0, len(items))
	for _, it := range items {
		if c, ok := normalize(it, def, known); ok {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return errorf("no comment had any content, so nothing was recorded; put the finding in content")
	}
	return Result{Text: commentedText, Comments: out}
}

// decodeComments accepts an array of objects or a JSON string of one.
func decodeComments(v json.RawMessage) ([]CommentInput, error) {
	var s string
	var list []json.RawMessage
	if json.Unmarshal(v, &s) == nil {
		var err error
		if list, err = commentsString(s); err != nil {
			return nil, err
		}
	} else if err := json.Unmarshal(v, &list); err != nil {
		return nil, fmt.Errorf("comments must be an array of objects, got %s", toolargs.Kind(v))
	}
	items := make([]CommentInput, len(list))
	for i, el := range list {
		it, err := decodeItem(el, i)
		if err != nil {
			return nil, err
		}
		items[i] = it
	}
	return items, nil
}

// decodeItem decodes comments[i] as sent, naming a field of the wrong
// type. Thinking is not offered in the schema but kept when a model sends it.
func decodeItem(el json.RawMessage, i int) (CommentInput, error) {
	if toolargs.Kind(el) != "an object" {
		return CommentInput{}, fmt.Errorf("comments[%d] must be an object, got %s", i, toolargs.Kind(el))
	}
	a := toolargs.Parse(el)
	a.Prefix = fmt.Sprintf("comments[%d].", i)
	it := CommentInput{
		Path:         a.Str("path", false),
		Content:      a.Str("content", false),
		ExistingCode: a.Str("existing_code", false),
		Suggestion:   a.Str("suggestion_code", false),
		Category:     a.Str("category", false),
		Severity:     a.Str("severity", false),
		Thinking:     a.Str("thinking", false),
	}
	return it, a.Err()
}

// normalize settles a decoded item's path (def when it names no known
// file), trims its content and folds category and severity; false for an
// item without content.
func normalize(it CommentInput, def string, known func(string) bool) (CommentInput, bool) {
	if strings.TrimSpace(it.Content) == "" {
		return CommentInput{}, false
	}
	path := knownPath(it.Path, known)
	if path == "" {
		path = def
	}
	return CommentInput{
		Path:         path,
		Content:      strings.TrimSpace(it.Content),
		ExistingCode: it.ExistingCode,
		Suggestion:   it.Suggestion,
		Category:     string(review.ParseCategory(it.Category)),
		Severity:     string(review.ParseSeverity(it.Severity)),
		Thinking:     it.Thinking,
	}, true
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// utf8RuneStart reports whether b can begin a UTF-8 sequence.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
