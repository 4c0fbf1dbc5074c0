package gitlab

import (
	"context"
	"fmt"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// owner learns once per GitLabDiscussion, on first need, the ID of the user
// the token posts as: a project or group access token's bot user. Only
// notes by that user count as ocr's (see glExisting.add).
// https://docs.gitlab.com/api/users/#get-the-current-user
func (run *glRun) owner(ctx context.Context) (int64, error) {
	g := run.g
	g.ownerMu.Lock()
	defer g.ownerMu.Unlock()
	if g.ownerID != 0 {
		return g.ownerID, nil
	}
	u, _, err := run.c.Users.CurrentUser(gitlab.WithContext(ctx))
	if err != nil {
		return 0, glError(err, "learn which user the token posts as (GET /user), needed to tell ocr's "+
			"own notes from look-alikes")
	}
	if u.ID == 0 {
		return 0, fmt.Errorf("could not learn which user the token posts as: GET /user named no user; " +
			"check that OCR_GITLAB_TOKEN is a project or group access token")
	}
	g.logf("ocr: the token posts as %s (user %d): only their notes count as ocr's own", u.Username, u.ID)
	g.ownerID = u.ID
	return u.ID, nil
}
