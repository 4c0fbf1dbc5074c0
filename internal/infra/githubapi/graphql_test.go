package githubapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
)

// TestGraphQL: the document and variables are posted with the token; data
// is decoded; errors in a 200 answer, and HTTP errors, fail; FORBIDDEN is
// told apart.
func TestGraphQL(t *testing.T) {
	answers := []string{`{"data":{"viewer":{"login":"ocr"}}}`,
		`{"data":null,"errors":[{"type":"FORBIDDEN","message":"Resource not accessible by integration"}]}`,
		`{"data":{"viewer":null},"errors":[{"message":"Something went wrong"}]}`}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || r.Method != http.MethodPost || r.URL.Path != "/api/graphql" ||
			r.Header.Get("Authorization") != "Bearer tok" || in.Query != "query { viewer { login } }" || in.Variables["x"] != "y" {
			t.Errorf("request %s %s %q %+v %v", r.Method, r.URL.Path, r.Header.Get("Authorization"), in, err)
		}
		if n == len(answers) {
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`{"message":"Bad gateway"}`)) // fails only when the client has gone
			return
		}
		_, _ = w.Write([]byte(answers[n])) // fails only when the client has gone
		n++
	}))
	defer srv.Close()
	// No GITHUB_GRAPHQL_URL: derived from a GHES REST root.
	g, err := githubapi.NewGraphQL("tok", "", srv.URL+"/api/v3", githubapi.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Viewer struct{ Login string } `json:"viewer"`
	}
	do := func() error {
		return g.Do(context.Background(), "query { viewer { login } }", map[string]any{"x": "y"}, &out)
	}
	if err := do(); err != nil || out.Viewer.Login != "ocr" {
		t.Errorf("data: %+v, %v", out, err)
	}
	var ge *githubapi.GraphQLError
	if err := do(); !errors.As(err, &ge) || !ge.Forbidden() {
		t.Errorf("FORBIDDEN: %v", err)
	}
	if err := do(); !errors.As(err, &ge) || ge.Forbidden() || !strings.Contains(err.Error(), "Something went wrong") {
		t.Errorf("errors beside data: %v", err)
	}
	if err := do(); !errors.As(err, &ge) || ge.Status != 502 || !strings.Contains(err.Error(), "Bad gateway") {
		t.Errorf("HTTP 502: %v", err)
	}
}

func TestNewGraphQLURL(t *testing.T) {
	if _, err := githubapi.NewGraphQL("", "ghe.example/api/graphql", ""); err == nil || !strings.Contains(err.Error(), "GITHUB_GRAPHQL_URL") {
		t.Errorf("bad URL: %v", err)
	}
	for rest, want := range map[string]string{"": "https://api.github.com/graphql", "https://api.github.com/": "https://api.github.com/graphql",
		"https://ghe.example/api/v3": "https://ghe.example/api/graphql"} {
		if g, err := githubapi.NewGraphQL("", "", rest); err != nil || g.Endpoint() != want {
			t.Errorf("REST %q: GraphQL at %v (%v), want %s", rest, g, err, want)
		}
	}
	if g, _ := githubapi.NewGraphQL("", "https://ghe.example/api/graphql/", "https://x/api/v3"); g.Endpoint() != "https://ghe.example/api/graphql/" {
		t.Errorf("GITHUB_GRAPHQL_URL not used: %s", g.Endpoint())
	}
}
