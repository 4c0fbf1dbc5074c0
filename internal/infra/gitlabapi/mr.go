package gitlabapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// MR is one merge request as ocr reads it through the API: the client,
// who the token posts as (asked once) and the merge request's
// discussions. A run's clients share one readonce transport, so what the
// last review's state, pause and ignore, and the poster read is read
// once. Safe for concurrent use.
type MR struct {
	Client  *gitlab.Client
	Project string // id or path (CI_MERGE_REQUEST_PROJECT_ID, CI_PROJECT_ID)
	IID     int

	who *identity
}

// NewMR connects to merge request iid of project; nothing is sent.
func NewMR(c Config, project string, iid int) (*MR, error) {
	cl, err := New(c)
	if err != nil {
		return nil, err
	}
	return &MR{Client: cl, Project: project, IID: iid, who: &identity{}}, nil
}

// identity is who the token posts as, learnt once.
type identity struct {
	mu   sync.Mutex
	user *User
}

// Path is the API path of the merge request followed by suffix.
func (m *MR) Path(suffix string) string {
	return fmt.Sprintf("projects/%s/merge_requests/%d%s", gitlab.PathEscape(m.Project), m.IID, suffix)
}

// Do sends one request through client-go and decodes the answer into v
// (nil: not read); the query of path is kept. Errors are client-go's:
// wrap them with Wrap.
func (m *MR) Do(ctx context.Context, method, path string, opt, v any) (*gitlab.Response, error) {
	p, query, _ := strings.Cut(path, "?")
	req, err := m.Client.NewRequest(method, p, opt, []gitlab.RequestOptionFunc{gitlab.WithContext(ctx)})
	if err != nil {
		return nil, err
	}
	if query != "" {
		req.URL.RawQuery = query
	}
	return m.Client.Do(req, v)
}

// Discussions lists every discussion of the merge request, all pages.
// skipped counts the discussions that could not be read at all (left
// out; see DecodeDiscussion). Errors are client-go's: the caller names
// what failed (Wrap).
func (m *MR) Discussions(ctx context.Context) (all []*Discussion, skipped int, err error) {
	opt := &gitlab.ListMergeRequestDiscussionsOptions{ListOptions: gitlab.ListOptions{PerPage: 100}}
	err = eachPage(ctx, m, m.Path("/discussions"), opt, func(raw json.RawMessage) {
		d, err := DecodeDiscussion(raw)
		if err != nil {
			skipped++
			return
		}
		all = append(all, d)
	})
	if err != nil {
		return nil, 0, err
	}
	return all, skipped, nil
}

// User is who the token posts as (GET /user), asked once: a project or
// group access token's bot user. Only notes by that user are ocr's own.
// Errors are client-go's: the caller names what failed (Wrap).
// https://docs.gitlab.com/api/users/#get-the-current-user
func (m *MR) User(ctx context.Context) (User, error) {
	who := m.who
	if who == nil { // an MR not made by NewMR: nothing is kept
		who = &identity{}
	}
	who.mu.Lock()
	defer who.mu.Unlock()
	if who.user != nil {
		return *who.user, nil
	}
	var u User
	if _, err := m.Do(ctx, http.MethodGet, "user", nil, &u); err != nil {
		return User{}, err
	}
	if u.ID == 0 {
		return User{}, errors.New("GET /user named no user; check that OCR_GITLAB_TOKEN is a project or group access token")
	}
	who.user = &u
	return u, nil
}
