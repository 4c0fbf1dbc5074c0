package gitlabchat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/conversation"
	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

// Options configure a Forge.
type Options struct {
	// BaseURL is the API root (CI_API_V4_URL); Token a project or group
	// access token (never logged); CAFile a PEM bundle trusted besides the
	// system roots (CI_SERVER_TLS_CA_FILE).
	BaseURL, Token, CAFile string
	// HTTPClient sends the requests (a run's, so that what the poster and
	// the forge read is read once; tests: the fake's); nil: a default one.
	HTTPClient *http.Client
	// Project is the merge request's project (id or path), MR its IID.
	Project string
	MR      int
	Sleep   func(ctx context.Context, d time.Duration) error
	Logf    func(format string, args ...any)
}

// Forge is conversation.Forge on one GitLab merge request. It reads the
// merge request and its discussions once per run.
type Forge struct {
	o       Options
	api     *gitlabapi.MR
	notes   []conversation.Note
	read    bool
	mr      *glMR
	members map[int64]int
}

var _ conversation.Forge = (*Forge)(nil)

// New connects to the merge request (gitlabapi.MR); nothing is sent.
func New(o Options) (*Forge, error) {
	api, err := gitlabapi.NewMR(gitlabapi.Config{BaseURL: o.BaseURL, Token: o.Token, CAFile: o.CAFile, HTTPClient: o.HTTPClient,
		Sleep: o.Sleep, Logf: o.Logf}, o.Project, o.MR)
	if err != nil {
		return nil, err
	}
	return &Forge{o: o, api: api, members: map[int64]int{}}, nil
}

// Own reports whether a is the user the token posts as (GET /user, as the
// poster learns it).
func (f *Forge) Own(ctx context.Context, a conversation.Author) (bool, error) {
	u, err := f.api.User(ctx)
	if err != nil {
		return false, glError(err, "learn which user the token posts as (GET /user)")
	}
	return a.ID != 0 && a.ID == int64(u.ID), nil
}

// Refs is what the API says of the merge request: what a review of it
// reads, and whether it is a fork's or still open. The trigger payload
// never decides any of it.
type Refs struct {
	HeadSHA, TargetBranch, State     string
	SourceProjectID, TargetProjectID int64
}

// glMR is the merge request as the API answers it.
// https://docs.gitlab.com/api/merge_requests/#get-single-mr
type glMR struct {
	Title           string         `json:"title"`
	Description     string         `json:"description"`
	Author          gitlabapi.User `json:"author"`
	State           string         `json:"state"`
	TargetBranch    string         `json:"target_branch"`
	SourceProjectID gitlabapi.Int  `json:"source_project_id"`
	TargetProjectID gitlabapi.Int  `json:"target_project_id"`
	DiffRefs        struct {
		HeadSHA string `json:"head_sha"`
	} `json:"diff_refs"`
}

// MergeRequest reads the merge request's refs, once per run (shared
// with PullRequest).
func (f *Forge) MergeRequest(ctx context.Context) (Refs, error) {
	m, err := f.readMR(ctx)
	if err != nil {
		return Refs{}, err
	}
	return Refs{HeadSHA: m.DiffRefs.HeadSHA, TargetBranch: m.TargetBranch, State: m.State,
		SourceProjectID: int64(m.SourceProjectID), TargetProjectID: int64(m.TargetProjectID)}, nil
}

func (f *Forge) readMR(ctx context.Context) (*glMR, error) {
	if f.mr != nil {
		return f.mr, nil
	}
	var mr glMR
	if err := f.do(ctx, http.MethodGet, f.mrPath(""), nil, &mr); err != nil {
		return nil, glError(err, fmt.Sprintf("read merge request !%d", f.o.MR))
	}
	f.mr = &mr
	return f.mr, nil
}

// PullRequest reads the merge request once, from the API (never from the
// payload: anyone holding the trigger token can write one). A merge
// request whose projects are unknown counts as a fork's.
func (f *Forge) PullRequest(ctx context.Context) (conversation.PullRequest, error) {
	mr, err := f.readMR(ctx)
	if err != nil {
		return conversation.PullRequest{}, err
	}
	return conversation.PullRequest{Title: mr.Title, Body: mr.Description, Author: mr.Author.Username,
		Fork:   mr.SourceProjectID == 0 || mr.SourceProjectID != mr.TargetProjectID,
		Closed: mr.State != "" && mr.State != "opened", Merged: mr.State == "merged"}, nil
}

// Notes lists every note of the merge request's discussions, oldest
// first; GitLab's own system notes are left out (nobody wrote them).
// https://docs.gitlab.com/api/discussions/#list-project-merge-request-discussion-items
func (f *Forge) Notes(ctx context.Context) ([]conversation.Note, error) {
	if f.read {
		return f.notes, nil
	}
	ds, _, err := f.api.Discussions(ctx)
	if err != nil {
		return nil, glError(err, fmt.Sprintf("list the discussions of merge request !%d", f.o.MR))
	}
	var all []dated
	for _, d := range ds {
		all = append(all, notesOf(d)...)
	}
	slices.SortStableFunc(all, func(a, b dated) int { return a.at.Compare(b.at) })
	for _, d := range all {
		f.notes = append(f.notes, d.Note)
	}
	f.read = true
	return f.notes, nil
}

// dated is a note and when it was written.
type dated struct {
	conversation.Note
	at time.Time
}

// notesOf reads one discussion's notes (gitlabapi decodes each on its
// own): a note that cannot be read is left out (it can be nobody's
// command nor ocr's marker), and so are GitLab's system notes.
func notesOf(d *gitlabapi.Discussion) []dated {
	var out []dated
	var root *gitlabapi.Note
	for _, n := range d.Notes {
		if n.Unreadable != nil || n.System {
			continue
		}
		if root == nil {
			root = n
		}
		c := conversation.Note{ID: int64(n.ID), Author: author(n.Author), Body: n.Body}
		if !d.Individual {
			c.InThread, c.Root, c.Thread = true, int64(root.ID), d.ID
			if p := root.Position; p != nil {
				c.Path, c.Line = strings.TrimSpace(p.NewPath), int(p.NewLine)
			}
		}
		out = append(out, dated{c, n.Created()})
	}
	return out
}

// Confirm replaces what the payload says of ev's note (author, body,
// thread) with what the API says: the payload is untrusted, the listing
// is not. A note the merge request does not hold is an error.
func (f *Forge) Confirm(ctx context.Context, ev *conversation.Event) error {
	notes, err := f.Notes(ctx)
	if err != nil {
		return err
	}
	for _, n := range notes {
		if n.ID == ev.Comment.ID {
			ev.Comment, ev.Kind = n, conversation.PRComment
			if n.InThread {
				ev.Kind = conversation.ThreadReply
			}
			return nil
		}
	}
	return fmt.Errorf("note %d is not on merge request !%d (deleted since, or the payload names another): nothing to answer",
		ev.Comment.ID, f.o.MR)
}

// Reply answers in root's discussion; GitLab answers 404 for a discussion
// that is gone.
// https://docs.gitlab.com/api/discussions/#add-note-to-existing-merge-request-thread
func (f *Forge) Reply(ctx context.Context, root conversation.Note, body string) error {
	if root.Thread == "" {
		return errors.New("gitlabchat: a reply needs the discussion id")
	}
	err := f.do(ctx, http.MethodPost, f.mrPath("/discussions/"+root.Thread+"/notes"), map[string]string{"body": body}, nil)
	return glError(err, fmt.Sprintf("reply in discussion %s of merge request !%d", root.Thread, f.o.MR))
}

// Comment posts a note on the merge request.
// https://docs.gitlab.com/api/notes/#create-new-merge-request-note
func (f *Forge) Comment(ctx context.Context, body string) error {
	err := f.do(ctx, http.MethodPost, f.mrPath("/notes"), map[string]string{"body": body}, nil)
	return glError(err, fmt.Sprintf("comment on merge request !%d", f.o.MR))
}

// Resolve resolves root's discussion.
// https://docs.gitlab.com/api/discussions/#resolve-a-merge-request-thread
func (f *Forge) Resolve(ctx context.Context, root conversation.Note) error {
	if root.Thread == "" {
		return errors.New("gitlabchat: resolving needs the discussion id")
	}
	err := f.do(ctx, http.MethodPut, f.mrPath("/discussions/"+root.Thread+"?resolved=true"), nil, nil)
	return glError(err, fmt.Sprintf("resolve discussion %s of merge request !%d", root.Thread, f.o.MR))
}

func (f *Forge) mrPath(suffix string) string { return f.api.Path(suffix) }

func (f *Forge) do(ctx context.Context, method, path string, opt, v any) error {
	_, err := f.send(ctx, method, path, opt, v)
	return err
}

// send sends one request through the merge request's client
// (gitlabapi.MR.Do) and decodes the answer into v (nil: not read).
func (f *Forge) send(ctx context.Context, method, path string, opt, v any) (*gitlab.Response, error) {
	return f.api.Do(ctx, method, path, opt, v)
}

// glError says what failed; 401 and 403 say which token is needed.
func glError(err error, what string) error {
	if err == nil {
		return nil
	}
	switch status(err) {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("could not %s: GitLab answered %d (%w): OCR_GITLAB_TOKEN must be a project or group access token "+
			"with the api scope (CI_JOB_TOKEN cannot write notes): %w", what, status(err), conversation.ErrForbidden, err)
	case http.StatusNotFound:
		return fmt.Errorf("could not %s: GitLab answered 404 (%w: deleted, or the token cannot see it): %w", what, conversation.ErrGone, err)
	case http.StatusTooManyRequests:
		return fmt.Errorf("could not %s: GitLab answered 429 (%w); ask again later: %w", what, conversation.ErrRateLimited, err)
	}
	return fmt.Errorf("could not %s: %w", what, err)
}

func status(err error) int {
	var er *gitlab.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	if errors.Is(err, gitlab.ErrNotFound) {
		return http.StatusNotFound
	}
	return 0
}
