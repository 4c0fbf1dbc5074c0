package gitlab

import (
	"context"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// Client is the poster's API client (base URL, token, CA file, the
// rate-limiting transport), for the conversation (conversation/gitlabchat),
// which talks to the same merge request.
func (g *Discussion) Client() (*gitlab.Client, error) {
	mr, err := g.mr()
	if err != nil {
		return nil, err
	}
	return mr.Client, nil
}

// OwnerID is the ID of the user the token posts as (GET /user, asked once
// and shared with the poster): only notes by that user are ocr's own.
func (g *Discussion) OwnerID(ctx context.Context) (int64, error) {
	mr, err := g.mr()
	if err != nil {
		return 0, err
	}
	return (&glRun{g: g, mr: mr}).owner(ctx)
}
