package selection

import (
	"context"
	"sync"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/secretscan"
	"github.com/ocr-ci/ocr/tools"
)

// contentMemo remembers, per path, the kind of credential a file holds
// (secretscan), so a search hit in a key file is dropped without reading
// the file again for every hit.
type contentMemo struct {
	mu    sync.Mutex
	kinds map[string]secretscan.Kind
}

// find scans data, the content of path, and remembers the result.
func (m *contentMemo) find(path string, data []byte) secretscan.Kind {
	kind := secretscan.Find(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kinds == nil {
		m.kinds = map[string]secretscan.Kind{}
	}
	m.kinds[path] = kind
	return kind
}

// hides reports whether a search hit must not be shown: its line holds a
// credential, or its file does (a private key's body lines hold no marker
// of their own). A file that cannot be read is hidden.
func (m *contentMemo) hides(ctx context.Context, src tools.Source, hit tools.Match) bool {
	if secretscan.FindString(hit.Text) != "" {
		return true
	}
	m.mu.Lock()
	kind, ok := m.kinds[hit.Path]
	m.mu.Unlock()
	if ok {
		return kind != ""
	}
	data, err := src.ReadFile(ctx, hit.Path)
	if err != nil {
		return true
	}
	return m.find(hit.Path, data) != ""
}

// SecretMoves returns the new paths of the change's renames and copies of
// credentials files (git's rename detection pairs them): `git mv .env
// notes.txt` must not make .env readable as notes.txt.
func SecretMoves(files []udiff.File) []string {
	var out []string
	for i := range files {
		f := &files[i]
		if old := oldPathIfMoved(f); old != "" && isSecretPath(old) {
			out = append(out, f.NewPath)
		}
	}
	return out
}

// setOf returns the set of paths.
func setOf(paths []string) map[string]bool {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[p] = true
	}
	return set
}
