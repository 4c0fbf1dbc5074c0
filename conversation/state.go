package conversation

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/review"
)

// State is what the pull request's comments say of ocr's conversation
// state. It is read back on every run, so a re-run, another runner or a
// fresh cache sees the same.
type State struct {
	// Paused is set when the latest pause or resume by a trusted author is
	// a pause; By is that author's login.
	Paused bool
	By     string
	// Ignored holds the fingerprints ignored on this pull request (from
	// ocr's own replies to "ignore"), and Why who ignored each and why
	// (By empty for replies of older versions).
	Ignored map[string]bool
	Why     map[string]review.Suppression
}

// Suppression is why the state suppresses c: it was ignored on this pull
// request (By "someone" when the reply did not record who).
func (s State) Suppression(c review.Comment) (review.Suppression, bool) {
	fp := review.FingerprintOf(c)
	if !s.Ignored[fp] {
		return review.Suppression{}, false
	}
	w := s.Why[fp]
	w.By = cmp.Or(w.By, "someone")
	return w, true
}

// ReadState reads the state from the pull request's comments: pause and
// resume commands count only by trusted, non-bot authors; ignored
// fingerprints only from comments by ocr's own account.
func ReadState(ctx context.Context, f Forge, trust []string, handle string) (State, error) {
	notes, err := f.Notes(ctx)
	if err != nil {
		return State{}, err
	}
	var pr PullRequest
	if slices.Contains(trust, config.ChatTrustAuthor) { // only then does the author matter
		if pr, err = f.PullRequest(ctx); err != nil {
			return State{}, err
		}
	}
	return stateOf(ctx, f, notes, gate{trust: trust, prAuthor: pr.Author}, handle)
}

// gate is the trust rule of one pull request, remembered per author so a
// platform that asks an API (GitLab's members) asks once.
type gate struct {
	trust    []string
	prAuthor string
	seen     map[int64]bool
}

func (g *gate) trusted(ctx context.Context, f Forge, a Author) (bool, error) {
	if a.Bot {
		return false, nil
	}
	if ok, known := g.seen[a.ID]; known && a.ID != 0 {
		return ok, nil
	}
	ok, err := f.Trusted(ctx, a, g.trust, g.prAuthor)
	if err != nil {
		return false, fmt.Errorf("could not tell whether %s may command ocr: %w", a.Login, err)
	}
	if g.seen == nil {
		g.seen = map[int64]bool{}
	}
	g.seen[a.ID] = ok
	return ok, nil
}

func stateOf(ctx context.Context, f Forge, notes []Note, g gate, handle string) (State, error) {
	s := State{Ignored: map[string]bool{}, Why: map[string]review.Suppression{}}
	for _, n := range notes {
		if fp, why, ok := ignoredFingerprint(n.Body); ok {
			if own, err := f.Own(ctx, n.Author); err != nil || !own {
				continue
			}
			s.Ignored[fp], s.Why[fp] = true, why
			continue
		}
		r := Parse(n.Body, handle)
		if !r.Command || (r.Verb != VerbPause && r.Verb != VerbResume) {
			continue
		}
		ok, err := g.trusted(ctx, f, n.Author)
		if err != nil {
			return s, err
		}
		if ok {
			s.Paused, s.By = r.Verb == VerbPause, n.Author.Login
		}
	}
	return s, nil
}

// PausedNote is the line the sticky summary shows while ocr is paused;
// the summary escapes it (the login cannot mention anyone there).
func (s State) PausedNote(handle string) string {
	return fmt.Sprintf("Paused by @%s: no inline comments are posted; the findings are in the SARIF report and the annotations. "+
		"`/%s resume` to resume.", s.By, handle)
}
