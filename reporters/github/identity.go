package github

import (
	"context"

	"github.com/google/go-github/v62/github"
)

// Ours reports whether a comment by the account (login, id, type "User"
// or "Bot") counts as ocr's own: the account the token posts as
// (githubapi.Account), learnt once. The conversation uses it so that ocr
// never answers itself and reads only its own markers.
func (g *Review) Ours(ctx context.Context, login string, id int64, typ string) (bool, error) {
	pr, err := g.pr()
	if err != nil {
		return false, err
	}
	return pr.Account(ctx).Owns(&github.User{Login: &login, ID: &id, Type: &typ}), nil
}
