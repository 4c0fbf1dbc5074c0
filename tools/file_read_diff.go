package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// fileReadDiff returns the diffs of the requested files of the change set,
// each under a "==== FILE: <path> ====" header, paged by diffPageChars.
func fileReadDiff(_ context.Context, s *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	paths := a.Strings("path_array", false)
	page := a.Int("page")
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, p := range paths {
		p = knownPath(p, func(q string) bool { _, ok := s.Diffs[q]; return ok })
		d, ok := s.Diffs[p]
		if alt, prefixed := diffPrefixed(p); !ok && prefixed {
			if d, ok = s.Diffs[alt]; ok {
				p = alt
			}
		}
		if p == "" || seen[p] || !ok {
			continue
		}
		seen[p] = true
		b.WriteString("==== FILE: " + p + " ====\n")
		b.WriteString(d)
		if !strings.HasSuffix(d, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	switch {
	case len(cleanAll(paths)) == 0:
		return errText(noFilesText)
	case len(seen) == 0:
		return errText(noDiffText)
	}
	return pageOf(b.String(), max(page, 1))
}

// cleanAll drops blank paths.
func cleanAll(paths []string) []string {
	var out []string
	for _, p := range paths {
		if c := cleanPath(p); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// pageOf returns page n (1-based) of out, cut at line ends into pages of
// at most diffPageChars, with a note saying how to get the next one.
func pageOf(out string, n int) Result {
	pages := splitPages(out, diffPageChars)
	if n > len(pages) {
		return errorf("page %d does not exist; this answer has %d page(s)", n, len(pages))
	}
	body := pages[n-1]
	if n < len(pages) {
		if !strings.HasSuffix(body, "\n") {
			body += "\n" // a page that cut a long line: the note starts its own
		}
		body += fmt.Sprintf("Note: Output truncated (page %d of %d). Call file_read_diff again with the same path_array and \"page\": %d for the rest.\n", n, len(pages), n+1)
	}
	return text(body)
}

// splitPages cuts s after a newline so that each page has at most size
// bytes; a single longer line is cut on a rune boundary.
func splitPages(s string, size int) []string {
	var pages []string
	for len(s) > size {
		cut := strings.LastIndexByte(s[:size], '\n') + 1
		if cut == 0 {
			cut = len(clip(s, size)) - len("…")
		}
		pages = append(pages, s[:cut])
		s = s[cut:]
	}
	return append(pages, s)
}
