package runner

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
)

// spreadRepo is a change of six files in three directories: several
// groups, reviewed concurrently.
func spreadRepo(t *testing.T) *testRepo {
	r := newTestRepo(t)
	for _, d := range []string{"api", "db", "web"} {
		for _, f := range []string{"a.go", "b.go"} {
			r.write(d+"/"+f, "package "+d+"\n")
		}
	}
	r.commit("root")
	for i, d := range []string{"api", "db", "web"} {
		for _, f := range []string{"a.go", "b.go"} {
			r.write(d+"/"+f, fmt.Sprintf("package %s\n\nfunc F%d() int {\n\treturn %d / 0\n}\n", d, i, i))
		}
	}
	r.commit("divide")
	return r
}

// echoModel answers every review request with a comment on each file it
// names, and task_done, as a function of the request alone (call ids left
// to ocr, as some servers do), so that the same requests get the same
// answers whatever order they arrive in.
func echoModel(t *testing.T) *llmtest.Server {
	srv := llmtest.New(t)
	path := regexp.MustCompile(`<file path="([^"]+)">`)
	srv.Handle(func(r llmtest.Request) llmtest.Answer {
		if slices.Contains(r.ToolNames(), "drop_comments") {
			return llmtest.Answer{Text: "nothing to drop"}
		}
		var cs []map[string]string
		for _, m := range path.FindAllStringSubmatch(r.FirstUser(), -1) {
			cs = append(cs, map[string]string{"content": "division by zero in " + m[1], "existing_code": "/ 0",
				"category": "bug", "severity": "high"})
		}
		return llmtest.Answer{OmitIDs: true, Calls: []llmtest.Call{llmtest.Tool("code_comment", map[string]any{"comments": cs}), llmtest.Done()}}
	})
	return srv
}

// requestLog is a run's request bodies, each re-encoded with sorted keys,
// in sorted order (concurrent groups arrive in any order).
func requestLog(t *testing.T, srv *llmtest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		b, err := json.Marshal(r.Raw)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// TestSameInputsSameRequests: two runs of the same review, groups and
// passes running concurrently, send byte-identical requests — temperature
// 0, the same seeds, groups, files and tools in the same order.
func TestSameInputsSameRequests(t *testing.T) {
	t.Parallel()
	r := spreadRepo(t)
	var logs [2][]string
	for i := range logs {
		env := testEnv{}
		srv := echoModel(t)
		env.useLLM(srv)
		code, _, errs := env.run(t, "review", "--repo", r.dir, "--commit", "HEAD", "--format", "json",
			"--passes", "3", "--concurrency", "4", "--max-comments", "100")
		if code != reporters.ExitOK {
			t.Fatalf("run %d: exit %d\n%s", i+1, code, errs)
		}
		logs[i] = requestLog(t, srv)
	}
	if len(logs[0]) < 6 {
		t.Fatalf("only %d requests: the change should make several groups of three passes", len(logs[0]))
	}
	if !slices.Equal(logs[0], logs[1]) {
		for i := range min(len(logs[0]), len(logs[1])) {
			if logs[0][i] != logs[1][i] {
				t.Fatalf("request %d differs between two runs:\n%.600s\n%.600s", i, logs[0][i], logs[1][i])
			}
		}
		t.Fatalf("the runs sent %d and %d requests", len(logs[0]), len(logs[1]))
	}
	for _, body := range logs[0] {
		if !strings.Contains(body, `"seed":`) || !strings.Contains(body, `"temperature":1e-45`) {
			t.Fatalf("a request without seed or temperature 0: %.300s", body)
		}
	}
}
