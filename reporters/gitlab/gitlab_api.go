package gitlab

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// GitLab declares position[line_range][start|end][old_line|new_line] as
// String parameters, so the notes it returns carry them as JSON strings
// ("new_line": "59") or null. client-go's LinePosition decodes them as
// int64 and fails the whole answer (xanzy/go-gitlab#1265): creating a
// multi-line discussion reported an error although the note existed, and
// every later listing of the merge request failed. ocr therefore sends
// requests through client-go (auth, base URL, errors, pagination headers)
// but decodes notes and discussions itself, one note at a time.
// https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff

// glDiscussion is a discussion as ocr reads it.
type glDiscussion struct {
	ID    string
	Notes []*glNote
}

// glNote is a note as ocr reads it. A note that cannot be read at all is
// kept as Unreadable: it is nobody's (never ocr's own), so it counts as a
// reply and never hides the notes around it.
type glNote struct {
	ID         int64  `json:"id"`
	Type       string `json:"type"` // "DiffNote", "DiscussionNote" or null
	Body       string `json:"body"`
	System     bool   `json:"system"`
	Resolvable bool   `json:"resolvable"`
	Resolved   bool   `json:"resolved"`
	Author     struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
	} `json:"author"`
	// Position is nil for general notes and for a position that could
	// not be read (see PositionErr).
	Position    *glPosition     `json:"-"`
	RawPosition json.RawMessage `json:"position"`
	PositionErr error           `json:"-"`
	Unreadable  error           `json:"-"`
}

// glPosition is a diff note's position; every line number is tolerant
// (see lineNum) and line_range may be absent or null.
type glPosition struct {
	OldPath   string  `json:"old_path"`
	NewPath   string  `json:"new_path"`
	OldLine   lineNum `json:"old_line"`
	NewLine   lineNum `json:"new_line"`
	HeadSHA   string  `json:"head_sha"`
	LineRange *struct {
		Start glLinePos `json:"start"`
		End   glLinePos `json:"end"`
	} `json:"line_range"`
}

// glLinePos is one end of a line_range.
type glLinePos struct {
	LineCode string  `json:"line_code"`
	Type     string  `json:"type"`
	OldLine  lineNum `json:"old_line"`
	NewLine  lineNum `json:"new_line"`
}

// lineNum is a line number GitLab sends as a number, a numeric string or
// null (0).
type lineNum int64

// UnmarshalJSON accepts 59, "59", null and "".
func (n *lineNum) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*n = 0
		return nil
	}
	if uq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(uq)
	}
	if s == "" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("line number %.40s is neither a number nor a numeric string", b)
	}
	*n = lineNum(v)
	return nil
}

// decodeNote reads one note; it never fails (see glNote.Unreadable,
// glNote.PositionErr).
func decodeNote(raw json.RawMessage) *glNote {
	n := &glNote{}
	if err := json.Unmarshal(raw, n); err != nil {
		return &glNote{Unreadable: err}
	}
	if len(n.RawPosition) == 0 || string(n.RawPosition) == "null" {
		return n
	}
	var p glPosition
	if err := json.Unmarshal(n.RawPosition, &p); err != nil {
		n.PositionErr = err
		return n
	}
	n.Position = &p
	return n
}

// decodeDiscussion reads one discussion, each note on its own.
func decodeDiscussion(raw json.RawMessage) (*glDiscussion, error) {
	var d struct {
		ID    string            `json:"id"`
		Notes []json.RawMessage `json:"notes"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	out := &glDiscussion{ID: d.ID}
	for _, n := range d.Notes {
		out.Notes = append(out.Notes, decodeNote(n))
	}
	return out, nil
}

// do sends one request through client-go and decodes the answer into v
// (nil: the answer is not read).
func (run *glRun) do(ctx context.Context, method, path string, opt, v any) (*gitlab.Response, error) {
	req, err := run.c.NewRequest(method, path, opt, []gitlab.RequestOptionFunc{gitlab.WithContext(ctx)})
	if err != nil {
		return nil, err
	}
	return run.c.Do(req, v)
}

// mrPath is the API path of the merge request followed by suffix.
func (run *glRun) mrPath(suffix string) string {
	return fmt.Sprintf("projects/%s/merge_requests/%d%s", gitlab.PathEscape(run.g.Project), run.g.MR, suffix)
}

// listDiscussions reads every discussion of the merge request (all pages).
// A discussion that cannot be read at all is left out and counted in
// skipped; its notes cannot be ocr's to act on.
func (run *glRun) listDiscussions(ctx context.Context) (all []*glDiscussion, skipped int, err error) {
	opt := &gitlab.ListMergeRequestDiscussionsOptions{ListOptions: gitlab.ListOptions{PerPage: 100}}
	for {
		var page []json.RawMessage
		resp, err := run.do(ctx, "GET", run.mrPath("/discussions"), opt, &page)
		if err != nil {
			return nil, 0, err
		}
		for _, raw := range page {
			d, err := decodeDiscussion(raw)
			if err != nil {
				skipped++
				continue
			}
			all = append(all, d)
		}
		if resp.NextPage == 0 {
			return all, skipped, nil
		}
		opt.Page = resp.NextPage
	}
}

// createDiscussion starts a discussion and reads back what GitLab made.
func (run *glRun) postDiscussion(ctx context.Context, opt *gitlab.CreateMergeRequestDiscussionOptions) (*glDiscussion, error) {
	var raw json.RawMessage
	if _, err := run.do(ctx, "POST", run.mrPath("/discussions"), opt, &raw); err != nil {
		return nil, err
	}
	d, err := decodeDiscussion(raw)
	if err != nil {
		return nil, fmt.Errorf("GitLab created the discussion but its answer could not be read: %w", err)
	}
	return d, nil
}
