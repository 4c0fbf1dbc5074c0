package github

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
	"github.com/ocr-ci/ocr/reporters/posting"
)

// ghThread is one review thread (githubapi.ReviewThreads).
type ghThread = githubapi.ReviewThread

// What happened to the thread of a finding that is gone (ResolvedItem.Thread).
const (
	threadResolved = "thread resolved"
	threadAnswered = "thread left open: someone replied"
)

// answered reports whether someone other than the thread's first author
// (ocr: the thread is known to be ocr's) wrote after ocr's last comment:
// the GitLab rule. A thread with more comments than were read counts as
// answered.
func answered(t ghThread) bool {
	cs := t.Comments.Nodes
	if len(cs) == 0 || t.Comments.TotalCount > len(cs) || cs[0].Author == nil {
		return true
	}
	ocr := cs[0].Author.DatabaseID
	last := 0
	for i, c := range cs {
		if c.Author != nil && c.Author.DatabaseID == ocr {
			last = i
		}
	}
	return last < len(cs)-1
}

// resolveThreads resolves the threads of ocr's gone findings (fingerprints)
// that are open and that nobody answered. It returns what happened to each
// finding's thread; nothing gone means no request at all, and threads
// already resolved mean no write.
func (run *ghRun) resolveThreads(ctx context.Context, gone []string) (map[string]string, error) {
	roots := map[int64]string{}
	for _, fp := range gone {
		if id := run.ex.all[fp].GetID(); id != 0 {
			roots[id] = fp
		}
	}
	if len(roots) == 0 {
		return nil, nil
	}
	gql, err := run.pr.GraphQL()
	if err != nil {
		return nil, err
	}
	threads, err := run.listThreads(ctx, gql)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var resolved, outdated int
	defer func() {
		if resolved > 0 {
			run.g.logf("ocr: resolved %d review thread(s) whose finding is gone (%d of them outdated by later commits)", resolved, outdated)
		}
	}()
	for _, t := range threads {
		if len(t.Comments.Nodes) == 0 {
			continue
		}
		fp, ours := roots[t.Comments.Nodes[0].DatabaseID]
		switch {
		case !ours:
		case t.IsResolved:
			out[fp] = threadResolved
		case answered(t):
			out[fp] = threadAnswered
		default:
			if err := run.resolveThread(ctx, gql, t.ID); err != nil {
				return out, err
			}
			out[fp] = threadResolved
			resolved++
			if t.IsOutdated {
				outdated++
			}
		}
	}
	return out, nil
}

func (run *ghRun) listThreads(ctx context.Context, gql *githubapi.GraphQL) ([]ghThread, error) {
	g := run.g
	all, err := gql.ReviewThreads(ctx, g.Owner, g.Repo, g.PR, nil)
	if err != nil {
		return nil, gqlError(err, fmt.Sprintf("list the review threads of pull request #%d", g.PR))
	}
	return all, nil
}

func (run *ghRun) resolveThread(ctx context.Context, gql *githubapi.GraphQL, id string) error {
	if err := gql.ResolveThread(ctx, id); err != nil {
		return gqlError(err, "resolve review thread "+id)
	}
	return nil
}

// gqlError adds what failed and marks permission refusals with
// posting.ErrNoWriteAccess.
func gqlError(err error, what string) error {
	var ge *githubapi.GraphQLError
	if errors.As(err, &ge) && ge.Forbidden() {
		return fmt.Errorf("could not %s: %w: %w", what, err, posting.ErrNoWriteAccess)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}
