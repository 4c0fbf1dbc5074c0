// Package gitlabfake is a strict fake of the GitLab merge request endpoints
// that ocr's gitlab-discussion reporter uses, for tests. It computes line
// codes from the stored diff the way GitLab's diff parser does and answers
// 400 "line_code can't be blank" for positions that name the wrong lines (a
// context line without old_line, say); it paginates with X-Next-Page, can
// answer one 429, and can refuse writes like a job token. GET /user
// answers the token's bot user (Config.Bot), the author of every note the
// token posts; AddNote posts as anyone else. Handlers report
// with t.Errorf: an unexpected route, a wrong token or an unknown body
// field fails the test, and so does an expected route (Expect) that is
// never requested.
package gitlabfake

import (
	"crypto/sha1"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/testkit/fakes"
)

// Config describes the merge request the fake serves. Zero fields take the
// defaults project "42", MR !5, token "tok".
type Config struct {
	Project string
	MR      int
	Token   string
	// Base, Start and Head are the SHAs of the merge request's latest
	// version (diff_refs): merge base, target branch tip, source head.
	Base, Start, Head string
	// Diff is the merge request's unified diff (Base..Head).
	Diff string
	// TLS serves HTTPS with a self-signed certificate (see Certificate).
	TLS bool
	// Bot is the user the token posts as (GET /user); the zero value is
	// the project access token's bot user of project 42.
	Bot User
}

// Server is the fake. Configure it before the first request or through its
// setters, which are safe while requests run.
type Server struct {
	// URL is the server root; the API base (CI_API_V4_URL) is URL+"/api/v4".
	URL string

	t   testing.TB
	srv *httptest.Server
	rec *fakes.Recorder
	cfg Config
	mr  string // "/api/v4/projects/42/merge_requests/5"

	reDisc, reDiscNote, reNote *regexp.Regexp

	mu      sync.Mutex
	lines   map[string]map[string]line // path → "new:12"/"old:3" → line
	perPage int
	paging  Paging
	// refuseReads answers every GET with this status (RefuseReads).
	refuseReads int
	forbidden   bool
	once429     bool
	userCode    int
	undiffOne   bool
	latency     time.Duration
	nextID      int
	discs       []*Discussion
	posted      []DiscussionRequest
	// chat is the conversation's part (chat.go).
	chat chatState
}

type line struct {
	kind     udiff.LineKind
	old, new int
	code     string
}

// New starts the fake; it is closed, and unused expected routes reported,
// when the test ends.
func New(t testing.TB, cfg Config) *Server {
	t.Helper()
	cfg = withDefaults(cfg)
	s := &Server{t: t, cfg: cfg, rec: fakes.NewRecorder(t), perPage: 100}
	s.mr = fmt.Sprintf("/api/v4/projects/%s/merge_requests/%d", cfg.Project, cfg.MR)
	mr := regexp.QuoteMeta(s.mr)
	s.reDisc = regexp.MustCompile(`^` + mr + `/discussions/([0-9a-f]+)$`)
	s.reDiscNote = regexp.MustCompile(`^` + mr + `/discussions/([0-9a-f]+)/notes/(\d+)$`)
	s.reNote = regexp.MustCompile(`^` + mr + `/notes/(\d+)$`)
	if err := s.setDiff(cfg.Diff); err != nil {
		t.Fatal(err)
	}
	if cfg.TLS {
		s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	} else {
		s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	}
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

func withDefaults(c Config) Config {
	if c.Project == "" {
		c.Project = "42"
	}
	if c.MR == 0 {
		c.MR = 5
	}
	if c.Token == "" {
		c.Token = "tok"
	}
	if c.Bot.ID == 0 {
		c.Bot = User{ID: 9042, Username: "project_42_bot_3f1e0c2a"}
	}
	return c
}

func (s *Server) setDiff(diff string) error {
	files, err := udiff.Parse([]byte(diff))
	if err != nil {
		return fmt.Errorf("gitlabfake: the merge request's diff does not parse: %w", err)
	}
	lines := map[string]map[string]line{}
	for _, file := range files {
		lines[file.Path()] = linesOf(file)
	}
	s.mu.Lock()
	s.lines = lines
	s.mu.Unlock()
	return nil
}

// linesOf numbers hunk lines like Gitlab::Diff::Parser: an added line
// carries the old counter, a deleted one the new counter, and the line code
// is sha1(path)_old_new.
// https://docs.gitlab.com/api/discussions/#line-code
func linesOf(file udiff.File) map[string]line {
	sum := sha1.Sum([]byte(file.Path()))
	prefix := hex.EncodeToString(sum[:])
	m := map[string]line{}
	for _, h := range file.Hunks {
		o, n := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			gl := line{kind: l.Kind, old: l.OldLine, new: l.NewLine, code: fmt.Sprintf("%s_%d_%d", prefix, o, n)}
			switch l.Kind {
			case udiff.Added:
				m["new:"+strconv.Itoa(n)] = gl
				n++
			case udiff.Deleted:
				m["old:"+strconv.Itoa(o)] = gl
				o++
			default:
				m["new:"+strconv.Itoa(n)] = gl
				m["old:"+strconv.Itoa(o)] = gl
				o, n = o+1, n+1
			}
		}
	}
	return m
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	lat := s.latency
	s.mu.Unlock()
	time.Sleep(lat)
	key := r.Method + " " + r.URL.Path
	s.rec.Add(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Header.Get("Private-Token") != s.cfg.Token {
		s.t.Errorf("gitlabfake: %s: PRIVATE-TOKEN is not the configured token", key)
		fakes.WriteJSON(w, 401, map[string]string{"message": "401 Unauthorized"})
		return
	}
	if r.Method != http.MethodGet && s.refuse(w) {
		return
	}
	if r.Method == http.MethodGet && s.refuseReads != 0 {
		fakes.WriteJSON(w, s.refuseReads, map[string]string{"message": fmt.Sprintf("%d %s", s.refuseReads, http.StatusText(s.refuseReads))})
		return
	}
	s.route(w, r, key)
}

func (s *Server) route(w http.ResponseWriter, r *http.Request, key string) {
	switch p := r.URL.Path; {
	case r.Method == http.MethodGet && p == "/api/v4/user":
		s.currentUser(w)
	case r.Method == http.MethodGet && p == s.mr+"/discussions":
		s.listDiscussions(w, r)
	case r.Method == http.MethodGet && p == s.mr+"/versions":
		s.versions(w)
	case r.Method == http.MethodPost && p == s.mr+"/discussions":
		s.createDiscussion(w, r)
	case r.Method == http.MethodPut && s.reDisc.MatchString(p):
		s.resolve(w, r, s.reDisc.FindStringSubmatch(p)[1])
	case r.Method == http.MethodPut && s.reDiscNote.MatchString(p):
		s.editNote(w, r, s.reDiscNote.FindStringSubmatch(p)[2])
	case r.Method == http.MethodPost && p == s.mr+"/notes":
		s.createNote(w, r)
	case r.Method == http.MethodPut && s.reNote.MatchString(p):
		s.editNote(w, r, s.reNote.FindStringSubmatch(p)[1])
	case s.routeChat(w, r):
	default:
		s.t.Errorf("gitlabfake: unexpected request %s", key)
		fakes.WriteJSON(w, 404, map[string]string{"message": "404 Not found"})
	}
}

// versions answers the merge request's diff versions, newest first.
// https://docs.gitlab.com/api/merge_requests/#get-merge-request-diff-versions
func (s *Server) versions(w http.ResponseWriter) {
	c := s.cfg
	fakes.WriteJSON(w, 200, []map[string]any{
		{"id": 2, "base_commit_sha": c.Base, "start_commit_sha": c.Start, "head_commit_sha": c.Head, "state": "collected"},
		{"id": 1, "base_commit_sha": c.Base, "start_commit_sha": c.Start, "head_commit_sha": "9999999999999999999999999999999999999999", "state": "collected"}})
}

func (s *Server) refuse(w http.ResponseWriter) bool {
	switch {
	case s.forbidden:
		fakes.WriteJSON(w, 403, map[string]string{"message": "403 Forbidden"})
		return true
	case s.once429:
		s.once429 = false
		w.Header().Set("Retry-After", "2")
		w.Header().Set("RateLimit-Limit", "300")
		w.Header().Set("RateLimit-Remaining", "0")
		w.Header().Set("RateLimit-Reset", strconv.FormatInt(time.Now().Add(2*time.Second).Unix(), 10))
		fakes.WriteJSON(w, 429, map[string]string{"message": "Retry later"})
		return true
	}
	return false
}

// listDiscussions pages like GitLab (see Paging): X-Page, X-Next-Page,
// X-Total-Pages and a Link header whose URLs are on GitLab's external URL,
// which need not be the API URL ocr was given.
func (s *Server) listDiscussions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("per_page") != "100" {
		s.t.Errorf("gitlabfake: discussions: per_page = %q, want 100", q.Get("per_page"))
	}
	page := s.requestedPage(q)
	per := s.perPage
	last := max(1, (len(s.discs)+per-1)/per)
	out := []*Discussion{}
	for i := (page - 1) * per; i < min(len(s.discs), page*per); i++ {
		out = append(out, s.discs[i])
	}
	s.pageHeaders(w.Header(), r.URL.Path, page, last)
	fakes.WriteJSON(w, 200, out)
}

// requestedPage is the page a request asks for: page=N, or in keyset
// mode the cursor of the previous answer's Link (a page number sent
// instead is an error: keyset answers name none).
func (s *Server) requestedPage(q url.Values) int {
	if s.paging == PagingKeyset {
		if q.Get("page") != "" {
			s.t.Errorf("gitlabfake: keyset pagination: the request asks for page=%s, but no answer named a page", q.Get("page"))
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(q.Get("cursor"), "c"))
		return max(1, n)
	}
	n, _ := strconv.Atoi(q.Get("page"))
	return max(1, n)
}

// externalURL is where GitLab's Link headers point: its external_url,
// not the address the fake listens on.
const externalURL = "https://gitlab.external.invalid"

// pageHeaders writes the pagination headers of page of last, by s.paging.
func (s *Server) pageHeaders(h http.Header, path string, page, last int) {
	link := func(rel string, n int) string {
		q := fmt.Sprintf("page=%d&per_page=100", n)
		if s.paging == PagingKeyset {
			q = fmt.Sprintf("cursor=c%d&pagination=keyset&per_page=100", n)
		}
		return fmt.Sprintf(`<%s%s?%s>; rel="%s"`, externalURL, path, q, rel)
	}
	var links []string
	if page < last {
		links = append(links, link("next", page+1))
	}
	if s.paging == PagingKeyset {
		h.Set("Link", strings.Join(links, ", "))
		return
	}
	h.Set("X-Page", strconv.Itoa(page))
	h.Set("X-Per-Page", strconv.Itoa(s.perPage))
	h.Set("X-Next-Page", "")
	if page < last {
		h.Set("X-Next-Page", strconv.Itoa(page+1))
	}
	links = append(links, link("first", 1))
	if s.paging == PagingOffset {
		h.Set("X-Total", strconv.Itoa(len(s.discs)))
		h.Set("X-Total-Pages", strconv.Itoa(last))
		links = append(links, link("last", last))
	}
	h.Set("Link", strings.Join(links, ", "))
}

func (s *Server) newID() int { s.nextID++; return s.nextID }

// Certificate is the TLS server's certificate (Config.TLS).
func (s *Server) Certificate() *x509.Certificate { return s.srv.Certificate() }
