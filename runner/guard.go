package runner

import (
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/tools"
)

// secretGuard keeps credentials files away from the model: the tools can
// neither read nor list nor search them, whatever the model asks.
type secretGuard struct{ tools.Source }

// guardSecrets wraps a tool source with the secret-path rules of selection;
// tools.Cached lists and indexes the filtered files once per run.
func guardSecrets(s tools.Source) tools.Source { return tools.Cached(&secretGuard{Source: s}) }

// ReadFile refuses credentials files.
func (g *secretGuard) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if isSecretPath(path) {
		return nil, fmt.Errorf("%s looks like a credentials file; ocr does not show it to the model", path)
	}
	return g.Source.ReadFile(ctx, path)
}

// ListFiles hides credentials files.
func (g *secretGuard) ListFiles(ctx context.Context) ([]string, error) {
	files, err := g.Source.ListFiles(ctx)
	out := files[:0:0]
	for _, f := range files {
		if !isSecretPath(f) {
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
		if !isSecretPath(m.Path) {
			out = append(out, m)
		}
	}
	return out, err
}

// publicDiffs leaves the diffs of credentials files out of what
// file_read_diff can show the model.
func publicDiffs(diffs map[string]string) map[string]string {
	out := make(map[string]string, len(diffs))
	for p, d := range diffs {
		if !isSecretPath(p) {
			out[p] = d
		}
	}
	return out
}
