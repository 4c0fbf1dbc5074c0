package githubapi

import (
	"context"
	"fmt"
)

// The REST API cannot resolve a review thread; GraphQL can, with the same
// token and pull-requests: write.
// https://docs.github.com/graphql/reference/objects#pullrequestreviewthread
// https://docs.github.com/graphql/reference/mutations#resolvereviewthread

// threadsQuery lists a pull request's review threads, 100 a page, with
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

// ReviewThread is one review thread as ReviewThreads reads it.
type ReviewThread struct {
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

// Root is the database id of the thread's first comment (0 for none).
func (t ReviewThread) Root() int64 {
	if len(t.Comments.Nodes) == 0 {
		return 0
	}
	return t.Comments.Nodes[0].DatabaseID
}

type threadsPage struct {
	Repository struct {
		PullRequest struct {
			ReviewThreads struct {
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
				Nodes []ReviewThread `json:"nodes"`
			} `json:"reviewThreads"`
		} `json:"pullRequest"`
	} `json:"repository"`
}

// ReviewThreads lists every review thread of pull request number of
// owner/name, page by page. stop, when not nil, ends the listing early
// once it returns true for a page's thread.
func (g *GraphQL) ReviewThreads(ctx context.Context, owner, name string, number int, stop func(ReviewThread) bool) ([]ReviewThread, error) {
	vars := map[string]any{"owner": owner, "name": name, "number": number, "cursor": nil}
	var all []ReviewThread
	for {
		var page threadsPage
		if err := g.Do(ctx, threadsQuery, vars, &page); err != nil {
			return nil, err
		}
		rt := page.Repository.PullRequest.ReviewThreads
		all = append(all, rt.Nodes...)
		for _, th := range rt.Nodes {
			if stop != nil && stop(th) {
				return all, nil
			}
		}
		if !rt.PageInfo.HasNextPage {
			return all, nil
		}
		vars["cursor"] = rt.PageInfo.EndCursor
	}
}

// ResolveThread resolves review thread id; an error when GitHub left it
// open.
func (g *GraphQL) ResolveThread(ctx context.Context, id string) error {
	var out struct {
		ResolveReviewThread struct {
			Thread struct {
				IsResolved bool `json:"isResolved"`
			} `json:"thread"`
		} `json:"resolveReviewThread"`
	}
	if err := g.Do(ctx, resolveMutation, map[string]any{"threadId": id}, &out); err != nil {
		return err
	}
	if !out.ResolveReviewThread.Thread.IsResolved {
		return fmt.Errorf("GitHub left review thread %s open", id)
	}
	return nil
}
