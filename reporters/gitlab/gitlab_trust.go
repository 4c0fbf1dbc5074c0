package gitlab

import (
	"context"
)

// owner is the ID of the user the token posts as (gitlabapi.MR.User: asked
// once, shared by everything the run does with the merge request): a
// project or group access token's bot user. Only notes by that user count
// as ocr's (see glExisting.add).
func (run *glRun) owner(ctx context.Context) (int64, error) {
	u, err := run.mr.User(ctx)
	if err != nil {
		return 0, glError(err, "learn which user the token posts as (GET /user), needed to tell ocr's own notes from look-alikes")
	}
	run.g.saidWho.Do(func() {
		run.g.logf("ocr: the token posts as %s (user %d): only their notes count as ocr's own", u.Username, u.ID)
	})
	return int64(u.ID), nil
}
