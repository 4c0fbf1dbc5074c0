package tools

import (
	"context"
	"encoding/json"
	"path"
	"strings"
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
	a := parseArgs(raw)
	query := a.str("query_name", false)
	sensitive := a.boolean("case_sensitive", false)
	if a.err != nil {
		return a.result()
	}
	query = strings.TrimSpace(strings.ReplaceAll(query, `\`, "/"))
	if query == "" {
		return text(fileNotFoundText)
	}
	ix, err := sourceIndex(ctx, s)
	if err != nil {
		return errorf("could not list the repository's files: %v", err)
	}
	hits := ix.find(query, sensitive, true)
	if len(hits) == 0 {
		hits = ix.find(query, sensitive, false)
	}
	if len(hits) == 0 {
		return text(fileNotFoundText)
	}
	return text(strings.Join(hits, "\n"))
}

// sourceIndex returns the cached index of the session's source, or builds
// one for a Source from elsewhere.
func sourceIndex(ctx context.Context, s *Session) (*fileIndex, error) {
	if s.Source == nil {
		return newFileIndex(nil), nil
	}
	if ixr, ok := s.Source.(indexer); ok {
		return ixr.index(ctx)
	}
	files, err := s.Source.ListFiles(ctx)
	if err != nil {
		return nil, err
	}
	return newFileIndex(files), nil
}

// find returns at most findMaxResults candidates containing q, in the
// base name only or in the whole path.
func (ix *fileIndex) find(q string, sensitive, baseOnly bool) []string {
	hay, base := ix.lower, ix.lbase
	if sensitive {
		hay, base = ix.paths, ix.base
	} else {
		q = strings.ToLower(q)
	}
	var out []string
	for i, h := range hay {
		if baseOnly {
			h = h[base[i]:]
		}
		if strings.Contains(h, q) {
			out = append(out, ix.paths[i])
			if len(out) == findMaxResults {
				break
			}
		}
	}
	return out
}
