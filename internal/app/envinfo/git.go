package envinfo

import (
	"context"
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// Git is the row of the git that runs in dir; the error says ocr needs one.
func Git(ctx context.Context, dir string) ([]Row, error) {
	v, err := git.Version(ctx, dir)
	if err != nil {
		return []Row{{"git", "not found"}}, fmt.Errorf("git not found: ocr needs git %s or later on PATH", git.MinVersion)
	}
	return []Row{{"git", fmt.Sprintf("%s (ocr needs %s or later)", strings.TrimPrefix(v, "git version "), git.MinVersion)}}, nil
}
