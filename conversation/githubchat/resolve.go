package githubchat

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/githubapi"
)

// Resolve resolves the review thread whose first comment is root; one
// already resolved costs no write. REST cannot resolve a thread.
func (f *Forge) Resolve(ctx context.Context, root conversation.Note) error {
	th, err := f.findThread(ctx, root.ID)
	if err != nil || th.IsResolved {
		return err
	}
	if err := f.gql.ResolveThread(ctx, th.ID); err != nil {
		return gqlError(err, "resolve the thread of review comment "+fmt.Sprint(root.ID))
	}
	return nil
}

// findThread reads the review threads until the one whose first comment
// is root.
func (f *Forge) findThread(ctx context.Context, root int64) (githubapi.ReviewThread, error) {
	isRoot := func(th githubapi.ReviewThread) bool { return th.Root() == root }
	all, err := f.gql.ReviewThreads(ctx, f.o.Owner, f.o.Repo, f.o.PR, isRoot)
	if err != nil {
		return githubapi.ReviewThread{}, gqlError(err, "list the review threads")
	}
	if i := slices.IndexFunc(all, isRoot); i >= 0 {
		return all[i], nil
	}
	return githubapi.ReviewThread{}, fmt.Errorf("no review thread starts with comment %d (deleted?)", root)
}

func gqlError(err error, what string) error {
	var ge *githubapi.GraphQLError
	if errors.As(err, &ge) && ge.Forbidden() {
		return fmt.Errorf("could not %s: the token may not (the workflow needs `permissions: pull-requests: write`): %w", what, err)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}
