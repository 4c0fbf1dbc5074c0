package github

import (
	"context"

	"github.com/google/go-github/v62/github"
)

// Ours reports whether a comment by the account (login, id, type "User"
// or "Bot") counts as ocr's own, by the rule of ghTrust: the account the
// token posts as, learnt once per Review on first need. The conversation
// uses it so that ocr never answers itself and reads only its own markers.
func (g *Review) Ours(ctx context.Context, login string, id int64, typ string) (bool, error) {
	c, err := g.client()
	if err != nil {
		return false, err
	}
	u := &github.User{Login: &login, ID: &id, Type: &typ}
	return (&ghRun{g: g, c: c}).trust(ctx).ours(u), nil
}
