// Package githubfake is a strict fake of the GitHub REST endpoints that
// ocr's github-review reporter and runner use, for tests. It stores the
// pull request's diff and validates review comments the way GitHub does
// (422 with GitHub's messages, all or nothing), paginates with Link, can
// answer one secondary rate limit with retry-after, and can be read-only
// like a fork's token. GET /user answers like GitHub for the token's kind
// (Config.PATUser): 403 for GITHUB_TOKEN, whose comments are by a Bot; the
// account of a personal access token. Handlers report with t.Errorf: an unexpected route,
// a wrong token or an unknown body field fails the test, and so does an
// expected route (Expect) that is never requested.
package githubfake

import (
	"cmp"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// Config describes the pull request the fake serves. Zero fields take the
// defaults o/r, #7, token "tok".
type Config struct {
	Owner, Repo string
	PR          int
	// Token is the bearer token every request must carry.
	Token string
	// Base and Head are the pull request's base and head SHAs.
	Base, Head string
	// Diff is the pull request's unified diff: review comments are
	// accepted only on its lines.
	Diff string
	// HeadRepo is the head repository's full name (a fork's differs).
	HeadRepo string
	// HeadRepoDeleted answers head.repo: null, as GitHub does once the
	// fork of the pull request is deleted.
	HeadRepoDeleted bool
	// State is the pull request's state ("open" by default, "closed"),
	// Merged whether it was merged.
	State  string
	Merged bool
	// PATUser makes Token a personal access token of this user: ocr's
	// comments are posted as them (type User) and GET /user answers them.
	// "" makes it GITHUB_TOKEN (an installation token): comments are posted
	// as github-actions[bot] (type Bot) and GET /user answers 403.
	PATUser string
	// Title, Body and Author are the pull request's (GET answers them).
	Title, Body string
	Author      User
}

// Server is the fake. Configure it before the first request or through its
// setters, which are safe while requests run.
type Server struct {
	// URL is the API root to give the client (GITHUB_API_URL).
	URL string

	t   testing.TB
	srv *httptest.Server
	rec *fakes.Recorder
	cfg Config

	reComments, reIssueComments, reReviews, reReview, reIssueComment, rePR *regexp.Regexp

	mu             sync.Mutex
	lines          map[string]map[string]int    // path → "RIGHT:12" → hunk index
	texts          map[string]map[string]string // path → "RIGHT:12" → the line's text
	perPage        int
	readOnly       bool
	secondaryOnce  bool
	failReviewOnce int
	// failUncreatedOnce fails the next COMMENT review before creating it.
	failUncreatedOnce int
	userStatus        int
	latency           time.Duration
	nextID            int64
	comments          []Comment
	issues            []IssueComment
	pending           map[int64]bool
	reviews           [][]byte       // request bodies of COMMENT reviews
	resolved          map[int64]bool // review threads by root comment ID
	gqlFailOnce       []string       // type, message
	deleted           map[int64]bool // review comments deleted (replies answer 404)
	replyFault        Fault
	commentFault      Fault
	reactions         map[int64][]reaction
	permissions       map[string]string // login → repository permission
	permForbidden     bool
}

// New starts the fake; it is closed, and unused expected routes reported,
// when the test ends.
func New(t testing.TB, cfg Config) *Server {
	t.Helper()
	cfg = withDefaults(cfg)
	s := &Server{t: t, cfg: cfg, rec: fakes.NewRecorder(t), perPage: 100, nextID: 1000, pending: map[int64]bool{}, resolved: map[int64]bool{}}
	s.routes()
	if err := s.setDiff(cfg.Diff); err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

func withDefaults(c Config) Config {
	if c.Owner == "" {
		c.Owner = "o"
	}
	if c.Repo == "" {
		c.Repo = "r"
	}
	if c.PR == 0 {
		c.PR = 7
	}
	if c.Token == "" {
		c.Token = "tok"
	}
	if c.HeadRepo == "" {
		c.HeadRepo = c.Owner + "/" + c.Repo
	}
	return c
}

func (s *Server) routes() {
	repo := "^/repos/" + regexp.QuoteMeta(s.cfg.Owner) + "/" + regexp.QuoteMeta(s.cfg.Repo)
	pr := strconv.Itoa(s.cfg.PR)
	s.reComments = regexp.MustCompile(repo + "/pulls/" + pr + "/comments$")
	s.reIssueComments = regexp.MustCompile(repo + "/issues/" + pr + "/comments$")
	s.reReviews = regexp.MustCompile(repo + "/pulls/" + pr + "/reviews$")
	s.reReview = regexp.MustCompile(repo + `/pulls/` + pr + `/reviews/(\d+)$`)
	s.reIssueComment = regexp.MustCompile(repo + `/issues/comments/(\d+)$`)
	s.rePR = regexp.MustCompile(repo + "/pulls/" + pr + "$")
}

// setDiff indexes the diff's lines by side and hunk, and keeps their text.
func (s *Server) setDiff(diff string) error {
	files, err := udiff.Parse([]byte(diff))
	if err != nil {
		return fmt.Errorf("githubfake: the pull request's diff does not parse: %w", err)
	}
	lines := map[string]map[string]int{}
	texts := map[string]map[string]string{}
	for _, file := range files {
		m, tx := map[string]int{}, map[string]string{}
		for hi, h := range file.Hunks {
			for _, l := range h.Lines {
				if l.NewLine > 0 {
					m["RIGHT:"+strconv.Itoa(l.NewLine)] = hi
					tx["RIGHT:"+strconv.Itoa(l.NewLine)] = l.Text
				}
				if l.OldLine > 0 {
					m["LEFT:"+strconv.Itoa(l.OldLine)] = hi
					tx["LEFT:"+strconv.Itoa(l.OldLine)] = l.Text
				}
			}
		}
		lines[file.Path()], texts[file.Path()] = m, tx
	}
	s.mu.Lock()
	s.lines, s.texts = lines, texts
	s.mu.Unlock()
	return nil
}

// Push moves the pull request's head: a new commit was pushed and diff is
// the pull request's diff now. A line comment whose line left the diff or
// changed becomes outdated, as on GitHub: line and start_line turn null
// (and its thread isOutdated).
func (s *Server) Push(head, diff string) {
	s.t.Helper()
	s.mu.Lock()
	before := s.texts
	s.mu.Unlock()
	if err := s.setDiff(diff); err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Head, s.cfg.Diff = head, diff
	for i, c := range s.comments {
		if c.Line == nil {
			continue
		}
		key := c.Side + ":" + strconv.Itoa(*c.Line)
		now, ok := s.texts[c.Path][key]
		if !ok || now != before[c.Path][key] {
			s.comments[i].Line, s.comments[i].StartLine = nil, nil
		}
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	lat := s.latency
	s.mu.Unlock()
	time.Sleep(lat)
	key := r.Method + " " + r.URL.Path
	if key != RouteGraphQL { // counted by operation (see graphql)
		s.rec.Add(key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if got, want := r.Header.Get("Authorization"), "Bearer "+s.cfg.Token; got != want {
		s.t.Errorf("githubfake: %s: Authorization is not the configured token", key)
		fakes.WriteJSON(w, 401, map[string]string{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
		return
	}
	if key == RouteGraphQL {
		s.graphql(w, r)
		return
	}
	if r.Method != http.MethodGet && s.refuseWrite(w) {
		return
	}
	s.route(w, r, key)
}

func (s *Server) route(w http.ResponseWriter, r *http.Request, key string) {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && p == "/user":
		s.getUser(w)
	case r.Method == http.MethodGet && s.rePR.MatchString(p):
		s.getPR(w)
	case r.Method == http.MethodGet && s.reComments.MatchString(p):
		s.page(w, r, len(s.comments), func(i int) any { return s.withReactions(s.comments[i]) })
	case r.Method == http.MethodGet && s.reIssueComments.MatchString(p):
		s.page(w, r, len(s.issues), func(i int) any { return s.issues[i] })
	case r.Method == http.MethodPost && s.reReviews.MatchString(p):
		s.createReview(w, r)
	case r.Method == http.MethodDelete && s.reReview.MatchString(p):
		s.deletePending(w, r)
	case r.Method == http.MethodPost && s.reComments.MatchString(p):
		s.createFileComment(w, r)
	case r.Method == http.MethodPost && s.reIssueComments.MatchString(p):
		s.createIssueComment(w, r)
	case r.Method == http.MethodPatch && s.reIssueComment.MatchString(p):
		s.editIssueComment(w, r)
	case s.routeConversation(w, r):
	case s.routeReactions(w, r):
	default:
		s.t.Errorf("githubfake: unexpected request %s", key)
		fakes.WriteJSON(w, 404, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
	}
}

// refuseWrite answers a fork's read-only token or one secondary limit.
// https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
func (s *Server) refuseWrite(w http.ResponseWriter) bool {
	switch {
	case s.readOnly:
		fakes.WriteJSON(w, 403, map[string]string{"message": "Resource not accessible by integration",
			"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"})
		return true
	case s.secondaryOnce:
		s.secondaryOnce = false
		w.Header().Set("Retry-After", "7")
		fakes.WriteJSON(w, 403, map[string]string{"message": "You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.",
			"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"})
		return true
	}
	return false
}

// page serves items with per_page/page and a Link header like GitHub's.
func (s *Server) page(w http.ResponseWriter, r *http.Request, n int, item func(int) any) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per != 100 {
		s.t.Errorf("githubfake: %s: per_page = %q, want 100", r.URL.Path, r.URL.Query().Get("per_page"))
	}
	per = min(max(per, 1), s.perPage)
	pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
	pg = max(pg, 1)
	last := max(1, (n+per-1)/per)
	out := []any{}
	for i := (pg - 1) * per; i < min(n, pg*per); i++ {
		out = append(out, item(i))
	}
	if pg < last {
		u := fmt.Sprintf("%s%s?per_page=%d&page=", s.URL, r.URL.Path, per)
		w.Header().Set("Link", fmt.Sprintf(`<%s%d>; rel="next", <%s%d>; rel="last"`, u, pg+1, u, last))
	}
	fakes.WriteJSON(w, 200, out)
}

func (s *Server) unprocessable(w http.ResponseWriter, msg string) {
	fakes.WriteJSON(w, 422, map[string]any{"message": "Unprocessable Entity", "errors": []string{msg},
		"documentation_url": "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request", "status": "422"})
}

func (s *Server) id() int64 { s.nextID++; return s.nextID }

// getPR answers GET /repos/{o}/{r}/pulls/{n}.
// https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func (s *Server) getPR(w http.ResponseWriter) {
	full := s.cfg.Owner + "/" + s.cfg.Repo
	var head any = map[string]any{"full_name": s.cfg.HeadRepo}
	if s.cfg.HeadRepoDeleted {
		head = nil
	}
	fakes.WriteJSON(w, 200, map[string]any{"number": s.cfg.PR, "state": cmp.Or(s.cfg.State, "open"), "merged": s.cfg.Merged,
		"title": s.cfg.Title, "body": s.cfg.Body, "user": s.cfg.Author,
		"base": map[string]any{"sha": s.cfg.Base, "repo": map[string]any{"full_name": full}},
		"head": map[string]any{"sha": s.cfg.Head, "repo": head}})
}
