package github

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/internal/githubapi"
	"github.com/ocr-ci/ocr/reporters/posting"
)

// The REST API cannot resolve a review thread; GraphQL can, with the same
// token and pull-requests: write.
// https://docs.github.com/graphql/reference/objects#pullrequestreviewthread
// https://docs.github.com/graphql/reference/mutations#resolvereviewthread

// threadsQuery lists the pull request's review threads, 100 a page, with
// the comments that tell whose thread it is and whether anyone answered.
const threadsQuery = `query($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          isOutdated
          comments(first: 100) {
            totalCount
            nodes { databaseId author { __typename login ... on User { databaseId } ... on Bot { databaseId } } }
          }
        }
      }
    }
  }
}`

const resolveMutation = `mutation($threadId: ID!) {
  resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } }
}`

// ghThread is one review thread as threadsQuery reads it.
type ghThread struct {
	ID         string `json:"id"`
	IsResolved bool   `json:"isResolved"`
	IsOutdated bool   `json:"isOutdated"`
	Comments   struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			DatabaseID int64 `json:"databaseId"`
			// Author is null for a deleted account.
			Author *struct {
				DatabaseID int64 `json:"databaseId"`
			} `json:"author"`
		} `json:"nodes"`
	} `json:"comments"`
}

type threadsPage struct {
	Repository struct {
		PullRequest struct {
			ReviewThreads struct {
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
				Nodes []ghThread `json:"nodes"`
			} `json:"reviewThreads"`
		} `json:"pullRequest"`
	} `json:"repository"`
}

// What happened to the thread of a finding that is gone (ResolvedItem.Thread).
const (
	threadResolved = "thread resolved"
	threadAnswered = "thread left open: someone replied"
)

// answered reports whether someone other than the thread's first author
// (ocr: the thread is known to be ocr's) wrote after ocr's last comment:
// the GitLab rule. A thread with more comments than were read counts as
// answered.
func (t ghThread) answered() bool {
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
	gql, err := run.g.graphQL()
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
		case t.answered():
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
	vars := map[string]any{"owner": g.Owner, "name": g.Repo, "number": g.PR, "cursor": nil}
	var all []ghThread
	for {
		var page threadsPage
		if err := gql.Do(ctx, threadsQuery, vars, &page); err != nil {
			return nil, gqlError(err, fmt.Sprintf("list the review threads of pull request #%d", g.PR))
		}
		rt := page.Repository.PullRequest.ReviewThreads
		all = append(all, rt.Nodes...)
		if !rt.PageInfo.HasNextPage {
			return all, nil
		}
		vars["cursor"] = rt.PageInfo.EndCursor
	}
}

func (run *ghRun) resolveThread(ctx context.Context, gql *githubapi.GraphQL, id string) error {
	var out struct {
		ResolveReviewThread struct {
			Thread struct {
				IsResolved bool `json:"isResolved"`
			} `json:"thread"`
		} `json:"resolveReviewThread"`
	}
	if err := gql.Do(ctx, resolveMutation, map[string]any{"threadId": id}, &out); err != nil {
		return gqlError(err, "resolve review thread "+id)
	}
	if !out.ResolveReviewThread.Thread.IsResolved {
		return fmt.Errorf("could not resolve review thread %s: GitHub left it open", id)
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
