package git

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestOpenWithoutWorkTree: a bare repository and git's own directory are
// ErrNoWorkTree, never ErrNotRepository (whose callers read the directory
// as plain files, which would show git's internals).
func TestOpenWithoutWorkTree(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	bare := filepath.Join(t.TempDir(), "bare.git")
	gitT(t, dir, "clone", "-q", "--bare", dir, bare)
	for name, d := range map[string]string{"bare": bare, ".git": filepath.Join(dir, ".git")} {
		_, err := Open(context.Background(), d, Options{})
		wantErr(t, err, ErrNoWorkTree)
		if errors.Is(err, ErrNotRepository) {
			t.Errorf("%s: %v also matches ErrNotRepository", name, err)
		}
	}
}
