package tools

import (
	"context"
	"sort"
	"strings"
)

// mapSource is an in-memory Source for tests of the tools' formatting.
type mapSource map[string]string

func (m mapSource) ReadFile(_ context.Context, p string) ([]byte, error) {
	s, ok := m[p]
	if !ok {
		return nil, ErrNotFound
	}
	return []byte(s), nil
}

func (m mapSource) ListFiles(context.Context) ([]string, error) {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

func (m mapSource) Grep(_ context.Context, q SearchQuery) ([]Match, error) {
	var out []Match
	files, _ := m.ListFiles(context.Background())
	for _, p := range files {
		for i, l := range strings.Split(m[p], "\n") {
			if strings.Contains(l, q.Text) {
				out = append(out, Match{Path: p, Line: i + 1, Text: l})
			}
		}
	}
	return out, nil
}

// panicSource panics on every call, to test Call's recovery.
type panicSource struct{}

func (panicSource) ReadFile(context.Context, string) ([]byte, error)   { panic("boom") }
func (panicSource) ListFiles(context.Context) ([]string, error)        { panic("boom") }
func (panicSource) Grep(context.Context, SearchQuery) ([]Match, error) { panic("boom") }
