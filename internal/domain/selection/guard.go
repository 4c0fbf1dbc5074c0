package selection

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/ocr-ci/ocr/internal/infra/secretscan"
	"github.com/ocr-ci/ocr/tools"
)

// secretGuard keeps credentials files away from the model: the tools can
// neither read nor list nor search them, whatever the model asks.
type secretGuard struct {
	tools.Source

	// secrets are the SHA-256 sums of the credentials files' contents,
	// read once: reads follow symlinks, so "notes.txt -> .env" (which a
	// pull request can add) would otherwise show .env under another name.
	mu      sync.Mutex
	secrets map[[sha256.Size]byte]bool

	// moved are files the change renamed or copied from a credentials
	// file (git mv .env notes.txt): they keep its status.
	moved map[string]bool
	// content remembers which files hold a private key or a token.
	content contentMemo
}

// GuardSecrets wraps a tool source with the secret-path rules of selection,
// also applied to moved (the change's renames and copies of credentials
// files, see SecretMoves); tools.Cached lists and indexes the filtered
// files once per run.
func GuardSecrets(s tools.Source, moved ...string) tools.Source {
	return tools.Cached(&secretGuard{Source: s, moved: setOf(moved)})
}

// secret reports whether path is a credentials file by its name, or by the
// name it was renamed or copied from.
func (g *secretGuard) secret(path string) bool { return isSecretPath(path) || g.moved[path] }

// ReadFile refuses credentials files, under their own name or another
// (a symlink, a copy).
func (g *secretGuard) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if g.secret(path) {
		return nil, fmt.Errorf("%s looks like a credentials file; ocr does not show it to the model", path)
	}
	data, err := g.Source.ReadFile(ctx, path)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return data, err
	}
	if kind := g.content.find(path, data); kind != "" {
		return nil, fmt.Errorf("%s holds what looks like a %s; ocr does not show it to the model", path, kind)
	}
	secrets, err := g.secretSums(ctx)
	if err != nil {
		return nil, fmt.Errorf("could not check %s against the credentials files: %w", path, err)
	}
	if secrets[sha256.Sum256(data)] {
		return nil, fmt.Errorf("%s has the content of a credentials file (a symlink or a copy); ocr does not show it to the model", path)
	}
	return data, nil
}

// secretSums reads the credentials files once and returns their sums;
// a failure is not cached.
func (g *secretGuard) secretSums(ctx context.Context) (map[[sha256.Size]byte]bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.secrets != nil {
		return g.secrets, nil
	}
	files, err := g.Source.ListFiles(ctx)
	if err != nil {
		return nil, err
	}
	sums := map[[sha256.Size]byte]bool{}
	for _, f := range files {
		if !isSecretPath(f) {
			continue
		}
		data, err := g.Source.ReadFile(ctx, f)
		if err == nil && len(bytes.TrimSpace(data)) > 0 {
			sums[sha256.Sum256(data)] = true
		}
	}
	g.secrets = sums
	return sums, nil
}

// ListFiles hides credentials files.
func (g *secretGuard) ListFiles(ctx context.Context) ([]string, error) {
	files, err := g.Source.ListFiles(ctx)
	out := files[:0:0]
	for _, f := range files {
		if !g.secret(f) {
			out = append(out, f)
		}
	}
	return out, err
}

// Grep drops matches in credentials files.
func (g *secretGuard) Grep(ctx context.Context, q tools.SearchQuery) ([]tools.Match, error) {
	ms, err := g.Source.Grep(ctx, q)
	out := ms[:0:0]
	for _, m := range ms {
		if !g.secret(m.Path) && !g.content.hides(ctx, g.Source, m) {
			out = append(out, m)
		}
	}
	return out, err
}

// PublicDiffs leaves the diffs of credentials files (by name, by the name
// they were moved from, or by content) out of what file_read_diff can show
// the model.
func PublicDiffs(diffs map[string]string, moved ...string) map[string]string {
	out := make(map[string]string, len(diffs))
	was := setOf(moved)
	for p, d := range diffs {
		if !isSecretPath(p) && !was[p] && secretscan.FindString(d) == "" {
			out[p] = d
		}
	}
	return out
}
