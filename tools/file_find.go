package tools

import (
	"context"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// extensionless are the file names without an extension that file_find
// still returns (spec).
var extensionless = map[string]bool{
	"Makefile": true, "Dockerfile": true, "LICENSE": true, "Vagrantfile": true, "Containerfile": true,
}

// findable reports whether file_find considers a path: it must have an
// extension or be one of the known extensionless names.
func findable(p string) bool {
	base := path.Base(p)
	return path.Ext(base) != "" || extensionless[base]
}

// fileFind returns up to findMaxResults paths whose base name contains the
// query; only when none does, paths that contain it anywhere.
func fileFind(ctx context.Context, s *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	query := a.Str("query_name", false)
	sensitive := a.Bool("case_sensitive", false)
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	query = strings.TrimSpace(strings.ReplaceAll(query, `\`, "/"))
	if query == "" {
		return text(fileNotFoundText)
	}
	ix, err := sourceIndex(ctx, s)
	if err != nil {
		return errorf("could not list the repository's files: %v", err)
	}
	hits := ix.search(query, sensitive)
	if len(hits) == 0 {
		return text(fileNotFoundText)
	}
	return text(strings.Join(hits, "\n"))
}

// sourceIndex returns the run-wide index of the session's source, or, for
// a Source from elsewhere (see Cached), one built once per session.
func sourceIndex(ctx context.Context, s *Session) (*fileIndex, error) {
	if s.Source == nil {
		return newFileIndex(nil), nil
	}
	if ixr, ok := s.Source.(indexer); ok {
		return ixr.index(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix == nil {
		files, err := s.Source.ListFiles(ctx)
		if err != nil {
			return nil, err
		}
		s.ix = newFileIndex(files)
	}
	return s.ix, nil
}

// find returns at most findMaxResults candidates containing q, in the
// base name only or in the whole path, in list order, by scanning the
// joined list (for queries too short for the trigram index).
func (ix *fileIndex) find(q string, sensitive, baseOnly bool) []string {
	t := &ix.exact
	if !sensitive {
		t, q = &ix.lower, strings.ToLower(q)
	}
	if q == "" || strings.Contains(q, "\n") {
		return nil
	}
	var out []string
	for pos := 0; pos < len(t.s) && len(out) < findMaxResults; {
		k := strings.Index(t.s[pos:], q)
		if k < 0 {
			break
		}
		at := pos + k
		i := sort.SearchInts(t.start, at+1) - 1 // the path holding the match
		if baseOnly && at < t.base[i] {
			pos = max(at+1, t.base[i])
			continue
		}
		out = append(out, ix.paths[i])
		pos = t.start[i+1]
	}
	return out
}
