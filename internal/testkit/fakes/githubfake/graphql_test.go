package githubfake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/internal/testkit/fakes/githubfake"
)

// gql posts a GraphQL document to the fake and returns the answer's body.
func gql(t *testing.T, f *githubfake.Server, query string, vars map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.GraphQLURL(), strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := f.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Errorf("GraphQL answered HTTP %d: GitHub answers 200", resp.StatusCode)
	}
	return string(out)
}

// TestGraphQLThreadsOverREST: threads are the REST comments grouped by
// in_reply_to_id, paged with cursors; a comment whose line changed in a
// push is outdated; resolving is stored, counted as a write, and refused
// (FORBIDDEN, HTTP 200) for a read-only token.
func TestGraphQLThreadsOverREST(t *testing.T) {
	f := githubfake.New(t, githubfake.Config{Diff: diff, Head: head})
	f.SetPerPage(1)
	three, fortyTwo := 3, 42
	root := f.AddComment(githubfake.Comment{Body: "a", Path: "pkg/f0.go", Line: &three, Side: "RIGHT", User: githubfake.ActionsBot()})
	f.AddComment(githubfake.Comment{Body: "reply", Path: "pkg/f0.go", InReplyTo: &root.ID, User: githubfake.User{Login: "alice", ID: 7, Type: "User"}})
	other := f.AddComment(githubfake.Comment{Body: "b", Path: "pkg/f0.go", Line: &fortyTwo, Side: "RIGHT", User: githubfake.ActionsBot()})
	f.Push("3333333333333333333333333333333333333333", strings.Replace(diff, "+func a() {}", "+func z() {}", 1))

	vars := map[string]any{"owner": "o", "name": "r", "number": 7, "cursor": nil}
	first := gql(t, f, githubfake.ThreadsQuery, vars)
	for _, want := range []string{`"id":"` + githubfake.ThreadID(root.ID) + `"`, `"isOutdated":true`, `"totalCount":2`,
		`{"__typename":"User","databaseId":7,"login":"alice"}`, `{"__typename":"Bot","databaseId":41898282,"login":"github-actions"}`,
		`"hasNextPage":true`, `"endCursor":"cursor:1"`} {
		if !strings.Contains(first, want) {
			t.Errorf("first page lacks %s:\n%s", want, first)
		}
	}
	vars["cursor"] = "cursor:1"
	if second := gql(t, f, githubfake.ThreadsQuery, vars); !strings.Contains(second, githubfake.ThreadID(other.ID)) ||
		!strings.Contains(second, `"isOutdated":false`) || !strings.Contains(second, `"hasNextPage":false`) {
		t.Errorf("second page:\n%s", second)
	}
	if got := gql(t, f, githubfake.ResolveMutation, map[string]any{"threadId": githubfake.ThreadID(other.ID)}); !strings.Contains(got, `"isResolved":true`) || !f.Resolved(other.ID) {
		t.Errorf("resolve: %s", got)
	}
	f.SetReadOnly(true)
	if got := gql(t, f, githubfake.ResolveMutation, map[string]any{"threadId": githubfake.ThreadID(root.ID)}); !strings.Contains(got, `"type":"FORBIDDEN"`) || f.Resolved(root.ID) {
		t.Errorf("read-only resolve: %s", got)
	}
	calls := f.Calls()
	if calls[githubfake.QueryThreads] != 2 || calls[githubfake.MutationResolve] != 2 || fakes.Writes(calls) != 2 {
		t.Errorf("calls %v", calls)
	}
}
