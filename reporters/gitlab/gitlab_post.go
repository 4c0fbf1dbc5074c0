package gitlab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/ocr-ci/ocr/reporters/posting"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

// post creates one discussion per inline or file-level posting.Placement, a few
// at a time. A 400 (GitLab refusing the position) degrades the posting.Placement
// and tries again; a permission error stops everything.
func (run *glRun) post(ctx context.Context, ps []posting.Placement) ([]posting.Placement, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, run.g.concurrency())
	)
	for i := range ps {
		if ps[i].Kind != posting.PlaceInline && ps[i].Kind != posting.PlaceFile {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			p, err := run.postOne(ctx, ps[i])
			mu.Lock()
			defer mu.Unlock()
			ps[i] = p
			if err != nil {
				errs = append(errs, err)
				if errors.Is(err, posting.ErrNoWriteAccess) {
					cancel()
				}
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if errors.Is(err, posting.ErrNoWriteAccess) {
			return ps, err
		}
	}
	return ps, errors.Join(errs...)
}

// postOne posts one finding, degrading it while GitLab refuses its position.
func (run *glRun) postOne(ctx context.Context, p posting.Placement) (posting.Placement, error) {
	for {
		d, err := run.createDiscussion(ctx, p)
		switch {
		case err == nil:
			return run.checkAnchored(ctx, p, d)
		case glStatus(err) == http.StatusBadRequest && p.Kind != posting.PlaceSummary:
			p = posting.Degrade(p, "GitLab did not accept this position")
			if p.Kind == posting.PlaceSummary {
				return p, nil
			}
		default:
			p.Kind, p.Note = posting.PlaceSummary, "could not be posted"
			return p, glError(err, "create a discussion on "+p.Path)
		}
	}
}

// glBody is the note of a posting.Placement; one not anchored in the diff says
// where it belongs.
func glBody(p posting.Placement, st posting.Style) string {
	body := posting.CommentBody(p, st)
	if p.Kind != posting.PlaceInline {
		body = "On " + posting.LocationText(p.Comment) + ":\n\n" + body
	}
	return body
}

func (run *glRun) createDiscussion(ctx context.Context, p posting.Placement) (*glDiscussion, error) {
	body := glBody(p, run.style)
	opt := &gitlab.CreateMergeRequestDiscussionOptions{Body: &body}
	if p.Kind == posting.PlaceInline {
		opt.Position = run.position(p)
	}
	return run.postDiscussion(ctx, opt)
}

// checkAnchored verifies GitLab made a DiffNote; a note that lost its
// anchor is rewritten to say where it belongs.
func (run *glRun) checkAnchored(ctx context.Context, p posting.Placement, d *glDiscussion) (posting.Placement, error) {
	if p.Kind != posting.PlaceInline || len(d.Notes) == 0 || d.Notes[0].Type == string(gitlab.DiffNote) {
		return p, nil
	}
	p.Kind, p.Note = posting.PlaceFile, "GitLab did not anchor this comment to the diff"
	body := glBody(p, run.style)
	path := run.mrPath(fmt.Sprintf("/discussions/%s/notes/%d", d.ID, d.Notes[0].ID))
	_, err := run.do(ctx, "PUT", path, &gitlab.UpdateMergeRequestDiscussionNoteOptions{Body: &body}, nil)
	if err != nil {
		return p, glError(err, "say where an unanchored note belongs")
	}
	return p, nil
}

// position is the text position of an inline posting.Placement: added line →
// new_line, deleted line → old_line, context line → both; a range adds
// line_range with GitLab line codes.
// https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff
func (run *glRun) position(p posting.Placement) *gitlab.PositionOptions {
	end, _ := run.changes.Line(p.Path, p.Side, p.End)
	f := end.File
	oldPath, newPath := cmp.Or(f.OldPath, f.NewPath), cmp.Or(f.NewPath, f.OldPath)
	pos := &gitlab.PositionOptions{PositionType: gitlab.Ptr("text"), BaseSHA: &run.refs.Base, StartSHA: &run.refs.Start,
		HeadSHA: &run.refs.Head, OldPath: &oldPath, NewPath: &newPath}
	pos.OldLine, pos.NewLine = lineNumbers(end)
	if p.Start != p.End {
		start, _ := run.changes.Line(p.Path, p.Side, p.Start)
		pos.LineRange = &gitlab.LineRangeOptions{Start: linePosition(newPath, start), End: linePosition(newPath, end)}
	}
	return pos
}

func lineNumbers(l posting.DiffLine) (oldLine, newLine *int64) {
	switch l.Kind {
	case udiff.Added:
		return nil, gitlab.Ptr(int64(l.NewLine))
	case udiff.Deleted:
		return gitlab.Ptr(int64(l.OldLine)), nil
	}
	return gitlab.Ptr(int64(l.OldLine)), gitlab.Ptr(int64(l.NewLine))
}

func linePosition(path string, l posting.DiffLine) *gitlab.LinePositionOptions {
	typ := "old"
	if l.Kind == udiff.Added {
		typ = "new"
	}
	lp := &gitlab.LinePositionOptions{LineCode: gitlab.Ptr(posting.LineCode(path, l)), Type: &typ}
	lp.OldLine, lp.NewLine = lineNumbers(l)
	return lp
}

// resolveOutdated lists every earlier finding that is gone (see
// posting.GoneFindings) as resolved, and resolves its thread when it is still
// open and nobody answered in it.
func (run *glRun) resolveOutdated(ctx context.Context, r *review.Review) ([]posting.ResolvedItem, error) {
	var out []posting.ResolvedItem
	for _, fp := range posting.GoneFindings(r, run.g.Incremental, run.ex.order) {
		t := run.ex.threads[fp]
		item := posting.ResolvedItem{Path: t.Path, Thread: "thread resolved"}
		switch {
		case t.Replied:
			item.Thread = "thread left open: someone replied"
		case !t.Resolvable:
			item.Thread = ""
		}
		out = append(out, item)
		if t.Resolved || !t.Resolvable || t.Replied {
			continue
		}
		_, err := run.do(ctx, "PUT", run.mrPath("/discussions/"+t.ID),
			&gitlab.ResolveMergeRequestDiscussionOptions{Resolved: gitlab.Ptr(true)}, nil)
		if err != nil {
			return out, glError(err, fmt.Sprintf("resolve discussion %s", t.ID))
		}
	}
	return out, nil
}

// upsertSummary creates the sticky summary note or edits it when changed.
func (run *glRun) upsertSummary(ctx context.Context, body string) error {
	g := run.g
	old := run.ex.summary
	if old != nil && posting.SameSummary(old.Body, body) {
		return nil
	}
	var err error
	// The answers are not read: a note's position is never needed here.
	if old != nil {
		_, err = run.do(ctx, "PUT", run.mrPath(fmt.Sprintf("/notes/%d", old.ID)), &gitlab.UpdateMergeRequestNoteOptions{Body: &body}, nil)
	} else {
		_, err = run.do(ctx, "POST", run.mrPath("/notes"), &gitlab.CreateMergeRequestNoteOptions{Body: &body}, nil)
	}
	if err != nil {
		return glError(err, fmt.Sprintf("write the summary note on merge request !%d", g.MR))
	}
	return nil
}
