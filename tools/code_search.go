package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// codeSearch greps the source with git grep: a fixed string unless
// use_perl_regexp, case-insensitive unless case_sensitive, at most
// searchMaxCount matches per file, grouped by file. git is asked for one
// match more than is shown, so the truncation note appears only when a
// file really had more.
func codeSearch(ctx context.Context, s *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	q := SearchQuery{
		Text:       a.Str("search_text", false),
		Pathspecs:  a.Strings("file_patterns", false),
		IgnoreCase: !a.Bool("case_sensitive", false),
		Perl:       a.Bool("use_perl_regexp", false),
		MaxCount:   searchMaxCount + 1,
	}
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	if strings.TrimSpace(q.Text) == "" {
		return errText(blankSearchText)
	}
	specs, r := checkPathspecs(q.Pathspecs)
	if r != nil {
		return *r
	}
	q.Pathspecs = specs
	if s.Source == nil {
		return errText("Error: no repository is open, so nothing can be searched")
	}
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	matches, err := s.Source.Grep(ctx, q)
	switch {
	case errors.Is(err, git.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return errorf("git grep timed out after %s; try narrowing file_patterns to a more specific path", searchTimeout)
	case err != nil:
		return errorf("git grep failed: %s", grepFailure(err))
	case len(matches) == 0:
		return text(noMatchesText)
	}
	return text(renderMatches(matches, searchMaxCount))
}

// checkPathspecs drops blank patterns, reads `\` as `/` (as file_find
// does: models write Windows paths) and rejects any pattern that could
// leave the repository: a ".." component or an absolute path. Magic such
// as ":(exclude)" and ":!" is kept.
func checkPathspecs(specs []string) ([]string, *Result) {
	var out []string
	for _, p := range specs {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.ContainsAny(p, "\x00\n\r") {
			r := errorf("file_patterns must not contain control characters: %q", p)
			return nil, &r
		}
		rest := strings.ReplaceAll(stripMagic(p), `\`, "/")
		for _, part := range strings.Split(rest, "/") {
			if part == ".." {
				r := errText(dotDotPatternText)
				return nil, &r
			}
		}
		if strings.HasPrefix(rest, "/") || isDrive(rest) {
			r := errorf("file_patterns must be relative to the repository root, not %q", p)
			return nil, &r
		}
		out = append(out, strings.ReplaceAll(p, `\`, "/"))
	}
	return out, nil
}

// stripMagic removes a pathspec's magic prefix: ":(words)" or the short
// form ":" followed by the signature characters "!^/".
func stripMagic(p string) string {
	if !strings.HasPrefix(p, ":") {
		return p
	}
	if strings.HasPrefix(p, ":(") {
		if i := strings.IndexByte(p, ')'); i >= 0 {
			return p[i+1:]
		}
		return p[2:]
	}
	rest := strings.TrimLeft(p[1:], "!^/")
	return strings.TrimPrefix(rest, ":")
}

// group is the matches of one file.
type group struct {
	path  string
	lines []string
}

// renderMatches groups matches by file, cuts files with more than
// maxCount matches to maxCount with a note, and bounds the whole answer by
// searchMaxChars.
func renderMatches(ms []Match, maxCount int) string {
	groups := groupMatches(ms)
	capped, total := false, 0
	for i, g := range groups {
		if len(g.lines) > maxCount {
			groups[i].lines, capped = g.lines[:maxCount], true
		}
		total += len(groups[i].lines)
	}
	var b strings.Builder
	if capped {
		b.WriteString(searchCappedNote + "\n\n")
	}
	shownFiles, shownLines := 0, 0
	for i, g := range groups {
		if i > 0 {
			b.WriteByte('\n')
		}
		n := fitLines(g, b.Len(), shownFiles == 0)
		if n == 0 {
			break
		}
		fmt.Fprintf(&b, "File: %s\nMatch lines: %d\n", g.path, n)
		for _, l := range g.lines[:n] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		shownFiles++
		shownLines += n
		if n < len(g.lines) {
			break
		}
	}
	if shownLines < total {
		fmt.Fprintf(&b, "\nNote: Output truncated at %d characters: showing %d of %d matches in %d of %d files. Narrow file_patterns or search_text to see the rest.\n",
			searchMaxChars, shownLines, total, shownFiles, len(groups))
	}
	return b.String()
}

// fitLines is how many of g's lines fit in the budget after used bytes;
// the first group always shows at least one line.
func fitLines(g group, used int, first bool) int {
	room := searchMaxChars - used - len("File: \nMatch lines: 100\n") - len(g.path)
	n := 0
	for _, l := range g.lines {
		room -= len(l) + 1
		if room < 0 {
			break
		}
		n++
	}
	if n == 0 && first {
		return 1
	}
	return n
}

// groupMatches groups consecutive matches of the same file, formatting each
// as "line|text" with the "\r" of a CRLF line dropped (as file_read does)
// and long lines cut.
func groupMatches(ms []Match) []group {
	var out []group
	for _, m := range ms {
		if len(out) == 0 || out[len(out)-1].path != m.Path {
			out = append(out, group{path: m.Path})
		}
		g := &out[len(out)-1]
		g.lines = append(g.lines, fmt.Sprintf("%d|%s", m.Line, cutLine(strings.TrimSuffix(m.Text, "\r"), searchMaxLineChars)))
	}
	return out
}

// grepFailure is the part of a git grep failure the model can act on:
// git's own message when there is one (a bad regexp, an unknown pathspec
// magic), else the whole error.
func grepFailure(err error) string {
	var ge *git.Error
	if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) != "" {
		return clip(strings.Join(strings.Fields(ge.Stderr), " "), 300)
	}
	return err.Error()
}
