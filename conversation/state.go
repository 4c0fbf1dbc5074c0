package conversation

import (
	"cmp"
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/review"
)

// State is what the pull request's comments say of ocr's conversation
// state. It is read back on every run, so a re-run, another runner or a
// fresh cache sees the same.
type State struct {
	// Paused is set when ocr's latest acknowledged pause or resume is a
	// pause; By is who asked for it.
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

// ReadState reads the state from the pull request's comments. Only
// ocr's acknowledgements count, in comments by ocr's own account (the
// token's user, Forge.Own): the reply to an accepted pause or resume
// (ackMarker) and to an ignore (ignoredMarker). A comment that merely
// holds command text never changes the state, whoever wrote it, and an
// edit is never a command. It costs the listing and, once a marker is
// found, the one lookup of who ocr is.
func ReadState(ctx context.Context, f Forge) (State, error) {
	notes, err := f.Notes(ctx)
	if err != nil {
		return State{}, err
	}
	s := State{Ignored: map[string]bool{}, Why: map[string]review.Suppression{}}
	for _, n := range notes {
		if !markedByOCR(n.Body) {
			continue
		}
		if own, err := f.Own(ctx, n.Author); err != nil || !own {
			continue
		}
		s.apply(n.Body)
	}
	return s, nil
}

// apply adds what one of ocr's own comments acknowledges.
func (s *State) apply(body string) {
	if fp, why, ok := ignoredFingerprint(body); ok {
		s.Ignored[fp], s.Why[fp] = true, why
		return
	}
	if v, by, ok := readAck(body); ok {
		s.Paused, s.By = v == VerbPause, by
	}
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

// PausedNote is the line the sticky summary shows while ocr is paused;
// the summary escapes it (the login cannot mention anyone there).
func (s State) PausedNote(handle string) string {
	return fmt.Sprintf("Paused by @%s: no inline comments are posted; the findings are in the SARIF report and the annotations. "+
		"`/%s resume` to resume.", s.By, handle)
}
