package github

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"

	"github.com/google/go-github/v62/github"
)

// ghExisting is what earlier runs left on the pull request.
type ghExisting struct {
	// current maps fingerprints to ocr's root comments still attached to
	// the diff (not outdated): those findings are not posted again.
	current map[string]*github.PullRequestComment
	// all holds every ocr root comment by fingerprint, outdated included,
	// in first-seen order, for the resolved list.
	all     map[string]*github.PullRequestComment
	order   []string
	summary *github.IssueComment
}

// load reads the pull request's review comments and issue comments (all
// pages, once per run: githubapi.PR) before anything is written.
func (run *ghRun) load(ctx context.Context) error {
	cs, err := run.pr.ReviewComments(ctx)
	if err != nil {
		return ghError(err, fmt.Sprintf("list the review comments of pull request #%d", run.g.PR))
	}
	run.ex = run.indexComments(ctx, cs)
	run.ex.summary, err = run.findSummary(ctx)
	return err
}

// indexComments keeps ocr's own findings among the review comments: a
// marker in anyone else's comment is theirs and suppresses nothing.
func (run *ghRun) indexComments(ctx context.Context, cs []*github.PullRequestComment) ghExisting {
	e := ghExisting{current: map[string]*github.PullRequestComment{},
		all: map[string]*github.PullRequestComment{}}
	for _, c := range cs {
		// Replies are never ocr's findings; ocr never edits or deletes a
		// thread, so a human reply is always kept.
		fp, ours := run.ownComment(ctx, c)
		if !ours {
			continue
		}
		if _, seen := e.all[fp]; !seen {
			e.all[fp] = c
			e.order = append(e.order, fp)
		}
		if c.Line != nil || c.GetSubjectType() == "file" {
			e.current[fp] = c
		}
	}
	return e
}

// posted are the fingerprints of the findings of cs not to post again:
// those whose comment is still attached to the diff, and carried findings
// (review.Comment.Carried) whose thread GitHub shows as outdated after a
// push or a rebase: they keep that thread.
func (e ghExisting) posted(cs []review.Comment) map[string]bool {
	out := make(map[string]bool, len(e.current))
	for fp := range e.current {
		out[fp] = true
	}
	for _, c := range cs {
		fp := cmp.Or(c.Fingerprint, review.Fingerprint(c.Path, c.Category, c.ExistingCode))
		if _, ok := e.all[fp]; ok && c.Carried {
			out[fp] = true
		}
	}
	return out
}

// findSummary is ocr's sticky summary among the issue comments, nil when
// there is none.
func (run *ghRun) findSummary(ctx context.Context) (*github.IssueComment, error) {
	cs, err := run.pr.IssueComments(ctx)
	if err != nil {
		return nil, ghError(err, fmt.Sprintf("list the comments of pull request #%d", run.g.PR))
	}
	for _, c := range cs {
		if run.ownSummary(ctx, c) {
			return c, nil
		}
	}
	return nil, nil
}

// LastState reads the state recorded in the sticky summary by the last
// complete review: the head it reviewed, its configuration fingerprint and
// its findings (see posting.State). ok is false when no complete review left one.
// Only the first comment that starts with the summary marker and was
// written by the account ocr posts as is read (see ghTrust): a summary
// forged by anyone else is ignored.
// Without a token, or with a fork's read-only one, ocr cannot have left
// one: nothing is read.
func (g *Review) LastState(ctx context.Context) (s posting.State, ok bool, err error) {
	switch {
	case g.Token == "":
		return posting.State{}, false, errors.New("no token to read the pull request, so its earlier review could not be looked up: " +
			"set GITHUB_TOKEN (the action's `github-token` input, default `${{ github.token }}`) or OCR_GITHUB_TOKEN")
	case g.Fork:
		return posting.State{}, false, nil
	}
	pr, err := g.pr()
	if err != nil {
		return posting.State{}, false, err
	}
	sum, err := (&ghRun{g: g, pr: pr, c: pr.REST()}).findSummary(ctx)
	if err != nil || sum == nil {
		return posting.State{}, false, err
	}
	s, ok = posting.ReadState(sum.GetBody())
	return s, ok, nil
}

// ghError says what failed, with GitHub's own status and message
// (githubapi.Wrap), and marks permission refusals with
// posting.ErrNoWriteAccess.
func ghError(err error, what string) error {
	err = githubapi.Wrap(err, what)
	if githubapi.Status(err) == http.StatusForbidden {
		return fmt.Errorf("%w: %w", err, posting.ErrNoWriteAccess)
	}
	return err
}

// ghStatus is the HTTP status of a go-github error, 0 when there is none.
func ghStatus(err error) int { return githubapi.Status(err) }
