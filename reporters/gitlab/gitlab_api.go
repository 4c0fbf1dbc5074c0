package gitlab

import (
	"context"
	"encoding/json"
	"fmt"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
)

// Notes and discussions are read by gitlabapi, tolerantly: GitLab sends
// line_range's line numbers as strings (xanzy/go-gitlab#1265), and one
// note that cannot be read never hides the others.
type (
	glDiscussion = gitlabapi.Discussion
	glNote       = gitlabapi.Note
)

// do sends one request through the merge request's client and decodes the
// answer into v (nil: the answer is not read).
func (run *glRun) do(ctx context.Context, method, path string, opt, v any) (*gitlab.Response, error) {
	return run.mr.Do(ctx, method, path, opt, v)
}

// mrPath is the API path of the merge request followed by suffix.
func (run *glRun) mrPath(suffix string) string { return run.mr.Path(suffix) }

// postDiscussion starts a discussion and reads back what GitLab made.
func (run *glRun) postDiscussion(ctx context.Context, opt *gitlab.CreateMergeRequestDiscussionOptions) (*glDiscussion, error) {
	var raw json.RawMessage
	if _, err := run.do(ctx, "POST", run.mrPath("/discussions"), opt, &raw); err != nil {
		return nil, err
	}
	d, err := gitlabapi.DecodeDiscussion(raw)
	if err != nil {
		return nil, fmt.Errorf("GitLab created the discussion but its answer could not be read: %w", err)
	}
	return d, nil
}
