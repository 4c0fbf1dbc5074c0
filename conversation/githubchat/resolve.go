package githubchat

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/githubapi"
)

// threadsQuery is the review poster's document (reporters/github): the
// pull request's review threads, 100 a page, with their comments' ids.
// https://docs.github.com/graphql/reference/objects#pullrequestreviewthread
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

// https://docs.github.com/graphql/reference/mutations#resolvereviewthread
const resolveMutation = `mutation($threadId: ID!) {
  resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } }
}`

type threadNode struct {
	ID         string `json:"id"`
	IsResolved bool   `json:"isResolved"`
	Comments   struct {
		Nodes []struct {
			DatabaseID int64 `json:"databaseId"`
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
				Nodes []threadNode `json:"nodes"`
			} `json:"reviewThreads"`
		} `json:"pullRequest"`
	} `json:"repository"`
}

// Resolve resolves the review thread whose first comment is root; one
// already resolved costs no write. REST cannot resolve a thread.
func (f *Forge) Resolve(ctx context.Context, root conversation.Note) error {
	th, err := f.findThread(ctx, root.ID)
	if err != nil || th == nil || th.IsResolved {
		return err
	}
	var out struct{}
	if err := f.gql.Do(ctx, resolveMutation, map[string]any{"threadId": th.ID}, &out); err != nil {
		return gqlError(err, "resolve the thread of review comment "+fmt.Sprint(root.ID))
	}
	return nil
}

func (f *Forge) findThread(ctx context.Context, root int64) (*threadNode, error) {
	vars := map[string]any{"owner": f.o.Owner, "name": f.o.Repo, "number": f.o.PR, "cursor": nil}
	for {
		var page threadsPage
		if err := f.gql.Do(ctx, threadsQuery, vars, &page); err != nil {
			return nil, gqlError(err, "list the review threads")
		}
		rt := page.Repository.PullRequest.ReviewThreads
		for i, th := range rt.Nodes {
			if len(th.Comments.Nodes) > 0 && th.Comments.Nodes[0].DatabaseID == root {
				return &rt.Nodes[i], nil
			}
		}
		if !rt.PageInfo.HasNextPage {
			return nil, fmt.Errorf("no review thread starts with comment %d (deleted?)", root)
		}
		vars["cursor"] = rt.PageInfo.EndCursor
	}
}

func gqlError(err error, what string) error {
	var ge *githubapi.GraphQLError
	if errors.As(err, &ge) && ge.Forbidden() {
		return fmt.Errorf("could not %s: the token may not (the workflow needs `permissions: pull-requests: write`): %w", what, err)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}
