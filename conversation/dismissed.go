package conversation

import (
	"context"
	"slices"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/reporters/posting"
)

// Dismisser is the optional ability of a Forge to say who dismissed one of
// ocr's comments with a 👎 (GitHub reaction content "-1", GitLab award
// emoji "thumbsdown"). A 👎 by a trusted person counts as "/ocr ignore"
// without a reason, and findings like the dismissed one are suppressed
// too (review.Dismissal).
type Dismisser interface {
	// Dismissers lists who reacted 👎 to root, the first comment of one
	// of ocr's threads; a forge whose listing counted none answers
	// without a request. Each Author carries what Trusted needs.
	Dismissers(ctx context.Context, root Note) ([]Author, error)
}

// Dismissed is one of ocr's findings a trusted person dismissed: FP is
// its fingerprint, By the first trusted person's login, Root its comment.
type Dismissed struct {
	FP   string
	By   string
	Root Note
}

// ReadDismissed lists ocr's findings dismissed by a trusted, non-bot
// person's 👎, oldest first; none when f cannot tell (no Dismisser).
// Only first comments of threads written by ocr's own account count.
func ReadDismissed(ctx context.Context, f Forge, trust []string) ([]Dismissed, error) {
	d, ok := f.(Dismisser)
	if !ok {
		return nil, nil
	}
	notes, err := f.Notes(ctx)
	if err != nil {
		return nil, err
	}
	g, err := newGate(ctx, f, trust)
	if err != nil {
		return nil, err
	}
	var out []Dismissed
	for _, n := range notes {
		fp, ok := posting.MarkerFingerprint(n.Body)
		if !ok || (n.InThread && n.Root != n.ID) {
			continue
		}
		if own, err := f.Own(ctx, n.Author); err != nil || !own {
			continue
		}
		by, err := trustedDismisser(ctx, f, d, &g, n)
		if err != nil {
			return out, err
		}
		if by != "" {
			out = append(out, Dismissed{FP: fp, By: by, Root: n})
		}
	}
	return out, nil
}

// newGate is the trust rule of f's pull request.
func newGate(ctx context.Context, f Forge, trust []string) (gate, error) {
	var pr PullRequest
	if slices.Contains(trust, config.ChatTrustAuthor) {
		var err error
		if pr, err = f.PullRequest(ctx); err != nil {
			return gate{}, err
		}
	}
	return gate{trust: trust, prAuthor: pr.Author}, nil
}

// trustedDismisser is the login of the first trusted person who reacted
// 👎 to n, "" when none did.
func trustedDismisser(ctx context.Context, f Forge, d Dismisser, g *gate, n Note) (string, error) {
	who, err := d.Dismissers(ctx, n)
	if err != nil {
		return "", err
	}
	for _, a := range who {
		ok, err := g.trusted(ctx, f, a)
		if err != nil {
			return "", err
		}
		if ok {
			return a.Login, nil
		}
	}
	return "", nil
}
