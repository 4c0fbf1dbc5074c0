package reporters_test

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/anchor"
)

// gitlabFake is a strict fake of the GitLab merge request endpoints
// gitlab-discussion uses. It computes line codes from the stored diff the
// way GitLab's diff parser does and answers 400 "line_code can't be blank"
// for positions that name the wrong lines (a context line without
// old_line, say); it paginates with X-Next-Page, can answer one 429, and
// can refuse writes like a job token.
type gitlabFake struct {
	t   testing.TB
	srv *httptest.Server

	refs      [3]string                   // base, start, head of the latest version
	lines     map[string]map[string]gLine // path → "new:12"/"old:3" → line
	perPage   int
	forbidden bool
	once429   bool
	undiffOne bool // create the next positioned discussion as a plain note
	latency   time.Duration

	mu     sync.Mutex
	calls  map[string]int
	nextID int
	discs  []*fakeDiscussion
	posted []fakeDiscReq
}

type gLine struct {
	kind     anchor.LineKind
	old, new int
	code     string
}

type fakeNote struct {
	ID         int64          `json:"id"`
	Type       *string        `json:"type"`
	Body       string         `json:"body"`
	System     bool           `json:"system"`
	Resolvable bool           `json:"resolvable"`
	Resolved   bool           `json:"resolved"`
	Position   map[string]any `json:"position,omitempty"`
	Author     map[string]any `json:"author"`
}

type fakeDiscussion struct {
	ID             string      `json:"id"`
	IndividualNote bool        `json:"individual_note"`
	Notes          []*fakeNote `json:"notes"`
}

func newGitLabFake(t testing.TB, diff string, tls bool) *gitlabFake {
	f := &gitlabFake{t: t, perPage: 100, calls: map[string]int{},
		refs: [3]string{postBase, "3333333333333333333333333333333333333333", postHead}}
	files, err := anchor.Parse([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	f.lines = map[string]map[string]gLine{}
	for _, file := range files {
		f.lines[file.Path()] = gitlabLines(file)
	}
	if tls {
		f.srv = httptest.NewTLSServer(http.HandlerFunc(f.serve))
	} else {
		f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	}
	t.Cleanup(f.srv.Close)
	return f
}

// gitlabLines numbers hunk lines like Gitlab::Diff::Parser: an added line
// carries the old counter, a deleted one the new counter.
func gitlabLines(file anchor.File) map[string]gLine {
	sum := sha1.Sum([]byte(file.Path()))
	prefix := hex.EncodeToString(sum[:])
	m := map[string]gLine{}
	for _, h := range file.Hunks {
		o, n := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			gl := gLine{kind: l.Kind, old: l.OldLine, new: l.NewLine, code: fmt.Sprintf("%s_%d_%d", prefix, o, n)}
			switch l.Kind {
			case anchor.Added:
				m["new:"+strconv.Itoa(n)] = gl
				n++
			case anchor.Deleted:
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

const glMR = "/api/v4/projects/42/merge_requests/5"

var (
	reGLDisc     = regexp.MustCompile(`^` + glMR + `/discussions/([0-9a-f]+)$`)
	reGLDiscNote = regexp.MustCompile(`^` + glMR + `/discussions/([0-9a-f]+)/notes/(\d+)$`)
	reGLNote     = regexp.MustCompile(`^` + glMR + `/notes/(\d+)$`)
)

func (f *gitlabFake) serve(w http.ResponseWriter, r *http.Request) {
	time.Sleep(f.latency)
	f.mu.Lock()
	defer f.mu.Unlock()
	key := r.Method + " " + r.URL.Path
	f.calls[key]++
	if r.Header.Get("Private-Token") != "tok" {
		f.t.Errorf("%s: PRIVATE-TOKEN = %q", key, r.Header.Get("Private-Token"))
	}
	if r.Method != http.MethodGet && f.refuse(w) {
		return
	}
	switch p := r.URL.Path; {
	case r.Method == http.MethodGet && p == glMR+"/discussions":
		f.listDiscussions(w, r)
	case r.Method == http.MethodGet && p == glMR+"/versions":
		fakeJSON(w, 200, []map[string]any{{"id": 2, "base_commit_sha": f.refs[0], "start_commit_sha": f.refs[1],
			"head_commit_sha": f.refs[2], "state": "collected"}, {"id": 1, "base_commit_sha": f.refs[0],
			"start_commit_sha": f.refs[1], "head_commit_sha": "9999999999999999999999999999999999999999", "state": "collected"}})
	case r.Method == http.MethodPost && p == glMR+"/discussions":
		f.createDiscussion(w, r)
	case r.Method == http.MethodPut && reGLDisc.MatchString(p):
		f.resolve(w, r, reGLDisc.FindStringSubmatch(p)[1])
	case r.Method == http.MethodPut && reGLDiscNote.MatchString(p):
		f.editNote(w, r, reGLDiscNote.FindStringSubmatch(p)[2])
	case r.Method == http.MethodPost && p == glMR+"/notes":
		f.createNote(w, r)
	case r.Method == http.MethodPut && reGLNote.MatchString(p):
		f.editNote(w, r, reGLNote.FindStringSubmatch(p)[1])
	default:
		f.t.Errorf("unexpected request %s", key)
		fakeJSON(w, 404, map[string]string{"message": "404 Not found"})
	}
}

func (f *gitlabFake) refuse(w http.ResponseWriter) bool {
	switch {
	case f.forbidden:
		fakeJSON(w, 403, map[string]string{"message": "403 Forbidden"})
		return true
	case f.once429:
		f.once429 = false
		w.Header().Set("Retry-After", "2")
		w.Header().Set("RateLimit-Limit", "300")
		w.Header().Set("RateLimit-Remaining", "0")
		w.Header().Set("RateLimit-Reset", strconv.FormatInt(time.Now().Add(2*time.Second).Unix(), 10))
		fakeJSON(w, 429, map[string]string{"message": "Retry later"})
		return true
	}
	return false
}

func (f *gitlabFake) listDiscussions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("per_page") != "100" {
		f.t.Errorf("discussions: per_page = %q, want 100", q.Get("per_page"))
	}
	page := max(1, atoi(q.Get("page")))
	per := f.perPage
	last := max(1, (len(f.discs)+per-1)/per)
	out := []*fakeDiscussion{}
	for i := (page - 1) * per; i < min(len(f.discs), page*per); i++ {
		out = append(out, f.discs[i])
	}
	w.Header().Set("X-Page", strconv.Itoa(page))
	w.Header().Set("X-Per-Page", strconv.Itoa(per))
	w.Header().Set("X-Total", strconv.Itoa(len(f.discs)))
	w.Header().Set("X-Total-Pages", strconv.Itoa(last))
	w.Header().Set("X-Next-Page", "")
	if page < last {
		w.Header().Set("X-Next-Page", strconv.Itoa(page+1))
	}
	fakeJSON(w, 200, out)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func (f *gitlabFake) newID() int { f.nextID++; return f.nextID }

func (f *gitlabFake) snapshot() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.calls {
		out[k] = v
	}
	return out
}

func (f *gitlabFake) resetCalls() {
	f.mu.Lock()
	f.calls = map[string]int{}
	f.mu.Unlock()
}
