package reporters_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/anchor"
)

// githubFake is a strict fake of the GitHub REST endpoints github-review
// uses. It stores the pull request's diff and validates review comments the
// way GitHub does (422 with GitHub's messages), paginates with Link, can
// answer one secondary rate limit, and can be read-only like a fork's token.
type githubFake struct {
	t   testing.TB
	srv *httptest.Server

	head           string
	lines          map[string]map[string]int // path → "RIGHT:12" → hunk index
	perPage        int                       // page size cap (GitHub: 100)
	readOnly       bool
	secondaryOnce  bool
	failReviewOnce int // answer the next COMMENT review with this status after creating it
	latency        time.Duration

	mu       sync.Mutex
	calls    map[string]int
	nextID   int64
	comments []fakePRComment
	issues   []fakeIssueComment
	pending  map[int64]bool
	reviews  []json.RawMessage // request bodies of COMMENT reviews
}

type fakePRComment struct {
	ID          int64  `json:"id"`
	Body        string `json:"body"`
	Path        string `json:"path"`
	Line        *int   `json:"line"`
	StartLine   *int   `json:"start_line"`
	Side        string `json:"side,omitempty"`
	StartSide   string `json:"start_side,omitempty"`
	CommitID    string `json:"commit_id"`
	InReplyTo   *int64 `json:"in_reply_to_id,omitempty"`
	SubjectType string `json:"subject_type"`
	HTMLURL     string `json:"html_url"`
	ReviewID    int64  `json:"pull_request_review_id,omitempty"`
	User        struct {
		Login string `json:"login"`
	} `json:"user"`
}

type fakeIssueComment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

func newGitHubFake(t testing.TB, diff string, head string) *githubFake {
	f := &githubFake{t: t, head: head, perPage: 100, calls: map[string]int{}, nextID: 1000, pending: map[int64]bool{}}
	files, err := anchor.Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	f.lines = map[string]map[string]int{}
	for _, file := range files {
		m := map[string]int{}
		for hi, h := range file.Hunks {
			for _, l := range h.Lines {
				if l.NewLine > 0 {
					m["RIGHT:"+strconv.Itoa(l.NewLine)] = hi
				}
				if l.OldLine > 0 {
					m["LEFT:"+strconv.Itoa(l.OldLine)] = hi
				}
			}
		}
		f.lines[file.Path()] = m
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

var (
	rePullComments  = regexp.MustCompile(`^/repos/o/r/pulls/7/comments$`)
	reIssueComments = regexp.MustCompile(`^/repos/o/r/issues/7/comments$`)
	reReviews       = regexp.MustCompile(`^/repos/o/r/pulls/7/reviews$`)
	reReview        = regexp.MustCompile(`^/repos/o/r/pulls/7/reviews/(\d+)$`)
	reIssueComment  = regexp.MustCompile(`^/repos/o/r/issues/comments/(\d+)$`)
)

func (f *githubFake) serve(w http.ResponseWriter, r *http.Request) {
	time.Sleep(f.latency)
	f.mu.Lock()
	defer f.mu.Unlock()
	key := r.Method + " " + r.URL.Path
	f.calls[key]++
	if r.Header.Get("Authorization") != "Bearer tok" {
		f.t.Errorf("%s: Authorization = %q", key, r.Header.Get("Authorization"))
	}
	if r.Method != http.MethodGet && f.refuseWrite(w) {
		return
	}
	switch {
	case r.Method == http.MethodGet && rePullComments.MatchString(r.URL.Path):
		f.page(w, r, len(f.comments), func(i int) any { return f.comments[i] })
	case r.Method == http.MethodGet && reIssueComments.MatchString(r.URL.Path):
		f.page(w, r, len(f.issues), func(i int) any { return f.issues[i] })
	case r.Method == http.MethodPost && reReviews.MatchString(r.URL.Path):
		f.createReview(w, r)
	case r.Method == http.MethodDelete && reReview.MatchString(r.URL.Path):
		f.deletePending(w, r)
	case r.Method == http.MethodPost && rePullComments.MatchString(r.URL.Path):
		f.createFileComment(w, r)
	case r.Method == http.MethodPost && reIssueComments.MatchString(r.URL.Path):
		f.createIssueComment(w, r)
	case r.Method == http.MethodPatch && reIssueComment.MatchString(r.URL.Path):
		f.editIssueComment(w, r)
	default:
		f.t.Errorf("unexpected request %s", key)
		fakeJSON(w, 404, map[string]string{"message": "Not Found"})
	}
}

// refuseWrite answers a fork's read-only token or one secondary limit.
func (f *githubFake) refuseWrite(w http.ResponseWriter) bool {
	switch {
	case f.readOnly:
		fakeJSON(w, 403, map[string]string{"message": "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"})
		return true
	case f.secondaryOnce:
		f.secondaryOnce = false
		w.Header().Set("Retry-After", "7")
		fakeJSON(w, 403, map[string]string{"message": "You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.",
			"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
		return true
	}
	return false
}

// page serves items with per_page/page and a Link header like GitHub's.
func (f *githubFake) page(w http.ResponseWriter, r *http.Request, n int, item func(int) any) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per != 100 {
		f.t.Errorf("%s: per_page = %q, want 100", r.URL.Path, r.URL.Query().Get("per_page"))
	}
	per = min(max(per, 1), f.perPage)
	pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
	pg = max(pg, 1)
	last := max(1, (n+per-1)/per)
	out := []any{}
	for i := (pg - 1) * per; i < min(n, pg*per); i++ {
		out = append(out, item(i))
	}
	if pg < last {
		u := fmt.Sprintf("%s%s?per_page=%d&page=", f.srv.URL, r.URL.Path, per)
		w.Header().Set("Link", fmt.Sprintf(`<%s%d>; rel="next", <%s%d>; rel="last"`, u, pg+1, u, last))
	}
	fakeJSON(w, 200, out)
}

func fakeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // the platforms send "=>" and "<" as they are
	enc.Encode(v)
}

func (f *githubFake) unprocessable(w http.ResponseWriter, msg string) {
	fakeJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{msg},
		"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request", "status": "422"})
}

// decode reads a JSON body strictly: unknown fields are a test failure.
func fakeDecode(t testing.TB, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s %s: body: %v", r.Method, r.URL.Path, err)
		return false
	}
	return true
}

func (f *githubFake) id() int64 { f.nextID++; return f.nextID }

func (f *githubFake) createIssueComment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakeDecode(f.t, r, &in) {
		return
	}
	if len(in.Body) >= 65536 {
		f.unprocessable(w, "Body is too long (maximum is 65536 characters)")
		return
	}
	c := fakeIssueComment{ID: f.id(), Body: in.Body}
	f.issues = append(f.issues, c)
	fakeJSON(w, 201, c)
}

func (f *githubFake) editIssueComment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Body string `json:"body"`
	}
	if !fakeDecode(f.t, r, &in) {
		return
	}
	id, _ := strconv.ParseInt(reIssueComment.FindStringSubmatch(r.URL.Path)[1], 10, 64)
	for i := range f.issues {
		if f.issues[i].ID == id {
			f.issues[i].Body = in.Body
			fakeJSON(w, 200, f.issues[i])
			return
		}
	}
	f.t.Errorf("PATCH of unknown issue comment %d", id)
	fakeJSON(w, 404, map[string]string{"message": "Not Found"})
}

// count returns the calls made to "METHOD path".
func (f *githubFake) snapshot() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.calls {
		out[k] = v
	}
	return out
}

func (f *githubFake) resetCalls() {
	f.mu.Lock()
	f.calls = map[string]int{}
	f.mu.Unlock()
}

func writesOf(calls map[string]int) int {
	n := 0
	for k, v := range calls {
		if !strings.HasPrefix(k, "GET ") {
			n += v
		}
	}
	return n
}
