package tools

import (
	"strings"
	"sync"
)

// trigrams maps every 3-byte sequence of the lower-cased candidate paths
// to the ascending indexes of the paths holding it. A query of three bytes
// or more then checks only the paths of its rarest trigram, so file_find
// stays well under a millisecond on 50,000 files even when every path
// looks alike. It is built on the first file_find call.
type trigrams struct {
	once sync.Once
	post map[uint32][]int32
}

// tri packs three bytes into a key.
func tri(s string, j int) uint32 {
	return uint32(s[j])<<16 | uint32(s[j+1])<<8 | uint32(s[j+2])
}

// build indexes the lower-cased paths.
func (t *trigrams) build(lower []string) {
	t.post = make(map[uint32][]int32, 1<<14)
	for i, p := range lower {
		for j := 0; j+3 <= len(p); j++ {
			k := tri(p, j)
			l := t.post[k]
			if n := len(l); n == 0 || l[n-1] != int32(i) {
				t.post[k] = append(l, int32(i))
			}
		}
	}
}

// candidates returns the paths that may contain lq (lower-cased, at least
// three bytes): the posting list of its rarest trigram; nil when some
// trigram occurs nowhere.
func (t *trigrams) candidates(lq string) []int32 {
	var best []int32
	for j := 0; j+3 <= len(lq); j++ {
		l, ok := t.post[tri(lq, j)]
		if !ok {
			return nil
		}
		if best == nil || len(l) < len(best) {
			best = l
		}
	}
	return best
}

// search is file_find's two-pass match: paths whose base name contains q;
// only if there are none, paths containing q anywhere. At most
// findMaxResults, in list order.
func (ix *fileIndex) search(q string, sensitive bool) []string {
	lq := strings.ToLower(q)
	if len(lq) < 3 || strings.Contains(q, "\n") {
		if hits := ix.find(q, sensitive, true); len(hits) > 0 {
			return hits
		}
		return ix.find(q, sensitive, false)
	}
	ix.tri.once.Do(func() { ix.tri.build(ix.lowers()) })
	cand := ix.tri.candidates(lq)
	if hits := ix.verify(cand, q, lq, sensitive, true); len(hits) > 0 {
		return hits
	}
	return ix.verify(cand, q, lq, sensitive, false)
}

// verify keeps the candidates that really contain the query.
func (ix *fileIndex) verify(cand []int32, q, lq string, sensitive, baseOnly bool) []string {
	t, needle := &ix.lower, lq
	if sensitive {
		t, needle = &ix.exact, q
	}
	var out []string
	for _, i := range cand {
		from := t.start[i]
		if baseOnly {
			from = t.base[i]
		}
		if strings.Contains(t.s[from:t.start[i+1]-1], needle) {
			out = append(out, ix.paths[i])
			if len(out) == findMaxResults {
				break
			}
		}
	}
	return out
}

// lowers returns the lower-cased candidate paths.
func (ix *fileIndex) lowers() []string {
	out := make([]string, len(ix.paths))
	for i := range ix.paths {
		out[i] = ix.lower.s[ix.lower.start[i] : ix.lower.start[i+1]-1]
	}
	return out
}
