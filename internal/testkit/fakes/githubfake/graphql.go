package githubfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// The GraphQL side of the fake: POST /graphql answers the two documents
// ocr sends, from the same review comments the REST side serves. A review
// thread is a root comment and its replies (in_reply_to_id); it is
// outdated when its root comment is (line null). Any other document, an
// unknown variable or a wrong owner/name/number fails the test; errors come
// back as GitHub sends them: HTTP 200 with "errors".
// https://docs.github.com/graphql/reference/objects#pullrequestreviewthread

// RouteGraphQL is POST /graphql; Calls counts its documents apart, as
// QueryThreads and MutationResolve.
const RouteGraphQL = "POST /graphql"

// The GraphQL operations as Calls counts them. fakes.Writes counts the
// mutation, not the query.
const (
	QueryThreads    = "QUERY reviewThreads"
	MutationResolve = "MUTATION resolveReviewThread"
)

// ThreadsQuery is the document that lists a pull request's review threads,
// 100 a page, with the comments that decide whether ocr may resolve one.
const ThreadsQuery = `query($owner: String!, $name: String!, $number: Int!, $cursor: String) {
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

// ResolveMutation is the document that resolves one thread.
const ResolveMutation = `mutation($threadId: ID!) {
  resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } }
}`

// SameDocument reports whether two GraphQL documents differ only in
// whitespace.
func SameDocument(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

type gqlRequest struct {
	Query     string          `json:"query"`
	Variables json.RawMessage `json:"variables"`
}

func (s *Server) graphql(w http.ResponseWriter, r *http.Request) {
	var in gqlRequest
	if !fakes.Decode(s.t, r, &in) {
		fakes.WriteJSON(w, 400, map[string]string{"message": "Problems parsing JSON"})
		return
	}
	switch {
	case SameDocument(in.Query, ThreadsQuery):
		s.rec.Add(QueryThreads)
		s.threadsPage(w, in.Variables)
	case SameDocument(in.Query, ResolveMutation):
		s.rec.Add(MutationResolve)
		s.resolveThread(w, in.Variables)
	default:
		s.t.Errorf("githubfake: unexpected GraphQL document:\n%s", in.Query)
		gqlErrors(w, "", "Parse error on unexpected document")
	}
}

// gqlErrors answers like GitHub: 200 with errors and no data.
func gqlErrors(w http.ResponseWriter, typ, msg string) {
	e := map[string]any{"message": msg}
	if typ != "" {
		e["type"] = typ
	}
	fakes.WriteJSON(w, 200, map[string]any{"data": nil, "errors": []any{e}})
}

func (s *Server) threadsPage(w http.ResponseWriter, raw json.RawMessage) {
	var v struct {
		Owner  string  `json:"owner"`
		Name   string  `json:"name"`
		Number int     `json:"number"`
		Cursor *string `json:"cursor"`
	}
	if !s.strictVars(raw, &v) || v.Owner != s.cfg.Owner || v.Name != s.cfg.Repo || v.Number != s.cfg.PR {
		s.t.Errorf("githubfake: reviewThreads variables %s, want %s/%s #%d", raw, s.cfg.Owner, s.cfg.Repo, s.cfg.PR)
		gqlErrors(w, "NOT_FOUND", "Could not resolve to a Repository.")
		return
	}
	if f := s.gqlFailOnce; f != nil {
		s.gqlFailOnce = nil
		gqlErrors(w, f[0], f[1])
		return
	}
	threads := s.threads()
	from := 0
	if v.Cursor != nil {
		n, err := strconv.Atoi(strings.TrimPrefix(*v.Cursor, "cursor:"))
		if err != nil || !strings.HasPrefix(*v.Cursor, "cursor:") {
			s.t.Errorf("githubfake: unknown cursor %q", *v.Cursor)
		}
		from = n
	}
	to := min(len(threads), from+min(100, s.perPage))
	nodes := []any{}
	for _, th := range threads[from:to] {
		nodes = append(nodes, s.threadNode(th))
	}
	page := map[string]any{"pageInfo": map[string]any{"hasNextPage": to < len(threads), "endCursor": "cursor:" + strconv.Itoa(to)},
		"nodes": nodes}
	fakes.WriteJSON(w, 200, map[string]any{"data": map[string]any{"repository": map[string]any{
		"pullRequest": map[string]any{"reviewThreads": page}}}})
}

// strictVars decodes variables, failing the test on an unknown one.
func (s *Server) strictVars(raw json.RawMessage, v any) bool {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		s.t.Errorf("githubfake: GraphQL variables %s: %v", raw, err)
		return false
	}
	return true
}

// thread is one review thread: indexes into s.comments, root first.
type thread []int

// threads groups the review comments into threads, in order of their roots.
func (s *Server) threads() []thread {
	var out []thread
	at := map[int64]int{}
	for i, c := range s.comments {
		if c.InReplyTo == nil {
			at[c.ID] = len(out)
			out = append(out, thread{i})
		}
	}
	for i, c := range s.comments {
		if c.InReplyTo != nil {
			if k, ok := at[*c.InReplyTo]; ok {
				out[k] = append(out[k], i)
			}
		}
	}
	return out
}

// ThreadID is the node ID of the thread whose first comment is root.
func ThreadID(root int64) string { return fmt.Sprintf("PRRT_kwDOfake%d", root) }

func (s *Server) threadNode(th thread) map[string]any {
	root := s.comments[th[0]]
	comments := []any{}
	for _, i := range th[:min(len(th), 100)] {
		c := s.comments[i]
		comments = append(comments, map[string]any{"databaseId": c.ID, "author": gqlActor(c.User)})
	}
	return map[string]any{"id": ThreadID(root.ID), "isResolved": s.resolved[root.ID],
		"isOutdated": root.Line == nil && root.SubjectType == "line",
		"comments":   map[string]any{"totalCount": len(th), "nodes": comments}}
}

// gqlActor is a comment's author in GraphQL: a bot's login has no
// "[bot]" suffix there.
func gqlActor(u User) map[string]any {
	return map[string]any{"__typename": u.Type, "login": strings.TrimSuffix(u.Login, "[bot]"), "databaseId": u.ID}
}

func (s *Server) resolveThread(w http.ResponseWriter, raw json.RawMessage) {
	var v struct {
		ThreadID string `json:"threadId"`
	}
	if !s.strictVars(raw, &v) {
		gqlErrors(w, "", "Variable $threadId of type ID! was provided invalid value")
		return
	}
	if s.readOnly {
		gqlErrors(w, "FORBIDDEN", "Resource not accessible by integration")
		return
	}
	for _, th := range s.threads() {
		root := s.comments[th[0]]
		if ThreadID(root.ID) != v.ThreadID {
			continue
		}
		if s.resolved[root.ID] {
			s.t.Errorf("githubfake: thread %s resolved again", v.ThreadID)
		}
		s.resolved[root.ID] = true
		fakes.WriteJSON(w, 200, map[string]any{"data": map[string]any{"resolveReviewThread": map[string]any{
			"thread": map[string]any{"id": v.ThreadID, "isResolved": true}}}})
		return
	}
	s.t.Errorf("githubfake: resolve of unknown thread %s", v.ThreadID)
	gqlErrors(w, "NOT_FOUND", fmt.Sprintf("Could not resolve to a node with the global id of '%s'", v.ThreadID))
}

// GraphQLURL is the GraphQL endpoint to give the client (GITHUB_GRAPHQL_URL).
func (s *Server) GraphQLURL() string { return s.URL + "/graphql" }

// Resolved reports whether the thread of root comment id is resolved.
func (s *Server) Resolved(id int64) bool { s.mu.Lock(); defer s.mu.Unlock(); return s.resolved[id] }

// FailGraphQLOnce answers the next reviewThreads query with HTTP 200 and
// an error of type typ ("" for none, "FORBIDDEN"...), as GitHub does.
func (s *Server) FailGraphQLOnce(typ, msg string) {
	s.mu.Lock()
	s.gqlFailOnce = []string{typ, msg}
	s.mu.Unlock()
}
