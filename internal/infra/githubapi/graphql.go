package githubapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/retry"
)

// GraphQL sends typed GraphQL requests to GitHub, for what REST cannot
// do (resolving review threads). go-github speaks only REST; a few fixed
// documents do not need a GraphQL library.
// https://docs.github.com/graphql/guides/forming-calls-with-graphql
type GraphQL struct {
	url   string
	token string
	hc    *http.Client
}

// NewGraphQL returns a GraphQL client for token against endpoint
// (GITHUB_GRAPHQL_URL); "" derives it from restURL (GITHUB_API_URL):
// https://api.github.com/graphql, or https://ghe.example/api/graphql for
// a GitHub Enterprise Server whose REST root is .../api/v3. It sends
// through the same rate-limiting transport as New.
func NewGraphQL(token, endpoint, restURL string, opts ...Option) (*GraphQL, error) {
	o := options{retry: retry.Options{Writes: 1}}
	for _, opt := range opts {
		opt(&o)
	}
	if endpoint == "" {
		endpoint = graphQLFromREST(restURL)
	}
	u, err := url.Parse(endpoint)
	if err == nil && (u.Scheme == "" || u.Host == "") {
		err = errors.New("no scheme or host")
	}
	if err != nil {
		return nil, fmt.Errorf("invalid GitHub GraphQL URL %q (check GITHUB_GRAPHQL_URL; e.g. https://ghe.example/api/graphql): %w", endpoint, err)
	}
	base, timeout := retry.Base(o.hc)
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{Transport: retry.NewTransport(base, o.retry), Timeout: timeout}
	return &GraphQL{url: u.String(), token: token, hc: hc}, nil
}

// graphQLFromREST is the GraphQL endpoint beside a REST root.
func graphQLFromREST(rest string) string {
	rest = strings.TrimSuffix(rest, "/")
	switch {
	case rest == "" || rest == "https://api.github.com":
		return "https://api.github.com/graphql"
	case strings.HasSuffix(rest, "/api/v3"):
		return strings.TrimSuffix(rest, "/v3") + "/graphql"
	}
	return rest + "/graphql"
}

// GraphQLError is a GraphQL request that failed: an HTTP status other
// than 200, or a 200 whose body carries "errors" (GitHub answers most
// failures, permissions included, that way).
type GraphQLError struct {
	Status int
	// Errors are the "errors" of the answer; Type is GitHub's
	// classification (FORBIDDEN, NOT_FOUND, RATE_LIMITED...).
	Errors []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"errors"`
	Message string `json:"message"` // an HTTP error's message
}

// Error says what GitHub answered.
func (e *GraphQLError) Error() string {
	if len(e.Errors) == 0 {
		return fmt.Sprintf("GitHub GraphQL answered %d %q", e.Status, e.Message)
	}
	msgs := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		msgs = append(msgs, strings.TrimSpace(x.Type+" "+x.Message))
	}
	return "GitHub GraphQL answered errors: " + strings.Join(msgs, "; ")
}

// Forbidden reports whether the token may not do this: 401/403, or an
// error of type FORBIDDEN ("Resource not accessible by integration").
func (e *GraphQLError) Forbidden() bool {
	if e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden {
		return true
	}
	for _, x := range e.Errors {
		if x.Type == "FORBIDDEN" || strings.Contains(x.Message, "not accessible by") {
			return true
		}
	}
	return false
}

// Do sends query with vars and decodes the answer's "data" into out.
// Any "errors" make it fail with a *GraphQLError, even beside data.
func (g *GraphQL) Do(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if g.token != "" {
		req.Header.Set("Authorization", "Bearer "+g.token)
	}
	resp, err := g.hc.Do(req)
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	_ = resp.Body.Close() // what was read is all there is to keep
	if err != nil {
		return fmt.Errorf("could not read GitHub's GraphQL answer: %w", err)
	}
	return decodeGraphQL(resp.StatusCode, raw, out)
}

func decodeGraphQL(status int, raw []byte, out any) error {
	var ans struct {
		Data json.RawMessage `json:"data"`
		GraphQLError
	}
	jsonErr := json.Unmarshal(raw, &ans)
	if status != http.StatusOK || len(ans.Errors) > 0 {
		ans.Status = status
		return &ans.GraphQLError
	}
	if jsonErr != nil {
		return fmt.Errorf("GitHub's GraphQL answer is not JSON: %w", jsonErr)
	}
	if len(ans.Data) == 0 || string(ans.Data) == "null" {
		return errors.New("GitHub's GraphQL answer carries no data")
	}
	return json.Unmarshal(ans.Data, out)
}

// Endpoint is the URL requests are posted to.
func (g *GraphQL) Endpoint() string { return g.url }
