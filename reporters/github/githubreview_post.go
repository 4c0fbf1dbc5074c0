package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/review"
)

// maxReviewRounds bounds how often a review is re-sent after GitHub
// rejected positions in it.
const maxReviewRounds = 3

// reviewNotPosted is the note on inline findings moved to the summary
// because their review could not be posted.
const reviewNotPosted = "the review could not be posted"

// post sends the inline review, then the file-level comments, one write at
// a time. It returns the placements as they ended up.
func (run *ghRun) post(ctx context.Context, ps []posting.Placement) ([]posting.Placement, error) {
	ps, err := run.postReview(ctx, ps)
	if err != nil {
		return ps, err
	}
	return run.postFileComments(ctx, ps)
}

// postReview sends one COMMENT review with every inline posting.Placement. A 422
// means some position is not in the diff as GitHub sees it: the offenders
// are found (bisecting with pending reviews, which notify nobody and are
// deleted), degraded, and the review is sent again without them.
func (run *ghRun) postReview(ctx context.Context, ps []posting.Placement) ([]posting.Placement, error) {
	for round := 0; round < maxReviewRounds; round++ {
		idx := posting.InlineIndexes(ps)
		if len(idx) == 0 {
			return ps, nil
		}
		err := run.createReview(ctx, ps, idx, "COMMENT")
		switch {
		case err == nil:
			return ps, nil
		case ghStatus(err) == http.StatusUnprocessableEntity && mentionsCommit(err):
			return toSummary(ps, idx, reviewNotPosted), fmt.Errorf("%w (the head commit %.12s must be "+
				"the pull request's head SHA from the event, never GITHUB_SHA's merge commit)", err, run.head)
		case ghStatus(err) == http.StatusUnprocessableEntity:
			bad, berr := run.rejected(ctx, ps, idx)
			if berr != nil {
				return toSummary(ps, idx, reviewNotPosted), berr
			}
			if err := run.degradeRejected(ctx, ps, bad); err != nil {
				return toSummary(ps, idx, reviewNotPosted), err
			}
		case errors.Is(err, posting.ErrNoWriteAccess):
			return ps, err
		default:
			return run.reconcile(ctx, ps, idx, err)
		}
	}
	return toSummary(ps, posting.InlineIndexes(ps), "GitHub kept rejecting the review's positions"), nil
}

// reconcile handles a review POST that failed without a verdict (5xx,
// timeout): the review may exist. Only when the markers show it does not is
// it sent once more.
func (run *ghRun) reconcile(ctx context.Context, ps []posting.Placement, idx []int, postErr error) ([]posting.Placement, error) {
	run.g.logf("ocr: posting the review failed (%v); checking whether it was created before retrying", postErr)
	cs, err := run.pr.ReviewComments(ctx) // read again: the failed write made a run's readonce memory forget
	if err != nil {
		return toSummary(ps, idx, reviewNotPosted), errors.Join(postErr, ghError(err, fmt.Sprintf("list the review comments of pull request #%d", run.g.PR)))
	}
	if ex := run.indexComments(ctx, cs); ex.current[ps[idx[0]].FP] != nil {
		return ps, nil
	}
	if err := run.createReview(ctx, ps, idx, "COMMENT"); err != nil {
		return toSummary(ps, idx, reviewNotPosted), err
	}
	return ps, nil
}

// degradeRejected moves each rejected comment one step down; a range that
// became a single line is checked on its own before it is sent again.
func (run *ghRun) degradeRejected(ctx context.Context, ps []posting.Placement, bad []int) error {
	const why = "GitHub did not accept this position"
	for _, i := range bad {
		ps[i] = posting.Degrade(ps[i], why)
		if ps[i].Kind != posting.PlaceInline {
			continue
		}
		ok, err := run.tryPending(ctx, ps, []int{i})
		if err != nil {
			return err
		}
		if !ok {
			ps[i] = posting.Degrade(ps[i], why)
		}
	}
	return nil
}

// rejected finds the inline placements GitHub refuses, by bisection.
func (run *ghRun) rejected(ctx context.Context, ps []posting.Placement, idx []int) ([]int, error) {
	if len(idx) == 1 {
		return idx, nil
	}
	var bad []int
	for _, half := range [][]int{idx[:len(idx)/2], idx[len(idx)/2:]} {
		ok, err := run.tryPending(ctx, ps, half)
		if err != nil {
			return nil, err
		}
		if !ok {
			b, err := run.rejected(ctx, ps, half)
			if err != nil {
				return nil, err
			}
			bad = append(bad, b...)
		}
	}
	return bad, nil
}

// tryPending creates a pending review (no event: nobody is notified) with
// the given comments and deletes it; ok says whether GitHub accepted them.
func (run *ghRun) tryPending(ctx context.Context, ps []posting.Placement, idx []int) (bool, error) {
	g := run.g
	rv, _, err := run.c.PullRequests.CreateReview(ctx, g.Owner, g.Repo, g.PR, run.reviewRequest(ps, idx, ""))
	if ghStatus(err) == http.StatusUnprocessableEntity {
		return false, nil
	}
	if err != nil {
		return false, ghError(err, "check review positions")
	}
	if _, _, err := run.c.PullRequests.DeletePendingReview(ctx, g.Owner, g.Repo, g.PR, rv.GetID()); err != nil {
		return true, ghError(err, "delete the pending review used to check positions")
	}
	return true, nil
}

func (run *ghRun) createReview(ctx context.Context, ps []posting.Placement, idx []int, event string) error {
	g := run.g
	_, _, err := run.c.PullRequests.CreateReview(ctx, g.Owner, g.Repo, g.PR, run.reviewRequest(ps, idx, event))
	if err != nil {
		return ghError(err, fmt.Sprintf("create a review on pull request #%d", g.PR))
	}
	return nil
}

func (run *ghRun) reviewRequest(ps []posting.Placement, idx []int, event string) *github.PullRequestReviewRequest {
	body := fmt.Sprintf("ocr left %d comment(s) on this commit; the summary comment lists everything.\n\n%s", len(idx), posting.ReviewMarker)
	req := &github.PullRequestReviewRequest{CommitID: github.String(run.head), Body: github.String(body)}
	if event != "" {
		req.Event = github.String(event)
	}
	for _, i := range idx {
		req.Comments = append(req.Comments, draftComment(ps[i], run.style))
	}
	return req
}

// draftComment is one inline comment: line/side, and start_line/start_side
// for a range. https://docs.github.com/rest/pulls/comments
func draftComment(p posting.Placement, st posting.Style) *github.DraftReviewComment {
	side := "RIGHT"
	if p.Side == review.SideOld {
		side = "LEFT"
	}
	d := &github.DraftReviewComment{Path: github.String(p.Path), Body: github.String(posting.CommentBody(p, st)),
		Line: github.Int(p.End), Side: github.String(side)}
	if p.Start != p.End {
		d.StartLine, d.StartSide = github.Int(p.Start), github.String(side)
	}
	return d
}

// postFileComments posts each file-level comment (they cannot be part of
// a review). A rejected one goes to the summary.
func (run *ghRun) postFileComments(ctx context.Context, ps []posting.Placement) ([]posting.Placement, error) {
	g := run.g
	for i := range ps {
		if ps[i].Kind != posting.PlaceFile {
			continue
		}
		c := &github.PullRequestComment{Body: github.String(posting.CommentBody(ps[i], run.style)),
			CommitID: github.String(run.head), Path: github.String(ps[i].Path), SubjectType: github.String("file")}
		_, _, err := run.c.PullRequests.CreateComment(ctx, g.Owner, g.Repo, g.PR, c)
		switch {
		case err == nil:
		case ghStatus(err) == http.StatusUnprocessableEntity:
			ps[i] = posting.Degrade(ps[i], "GitHub did not accept a file-level comment on this file")
		default:
			err = ghError(err, "create a file-level comment on "+ps[i].Path)
			if errors.Is(err, posting.ErrNoWriteAccess) {
				return ps, err
			}
			return toSummary(ps, posting.FileIndexes(ps), "could not be posted"), err
		}
	}
	return ps, nil
}

// upsertSummary creates the sticky summary or edits it, only when its
// content changed.
func (run *ghRun) upsertSummary(ctx context.Context, body string) error {
	g := run.g
	old := run.ex.summary
	if old != nil && posting.SameSummary(old.GetBody(), body) {
		return nil
	}
	var err error
	if old != nil {
		_, _, err = run.c.Issues.EditComment(ctx, g.Owner, g.Repo, old.GetID(), &github.IssueComment{Body: github.String(body)})
	} else {
		_, _, err = run.c.Issues.CreateComment(ctx, g.Owner, g.Repo, g.PR, &github.IssueComment{Body: github.String(body)})
	}
	if err != nil {
		return ghError(err, fmt.Sprintf("write the summary comment on pull request #%d", g.PR))
	}
	return nil
}

// toSummary moves the given placements to the summary with a reason.
func toSummary(ps []posting.Placement, idx []int, why string) []posting.Placement {
	for _, i := range idx {
		ps[i].Kind, ps[i].Suggest, ps[i].Note = posting.PlaceSummary, false, why
	}
	return ps
}

// mentionsCommit tells a 422 about commit_id (no point bisecting: every
// comment would fail) from one about positions.
func mentionsCommit(err error) bool {
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		return false
	}
	msgs := er.Message
	for _, e := range er.Errors {
		msgs += " " + e.Message
	}
	return strings.Contains(strings.ToLower(msgs), "commit")
}
