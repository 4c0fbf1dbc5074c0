package gitlab

import (
	"cmp"
	"context"
	"fmt"
	"net/http"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"
	"github.com/ocr-ci/ocr/reporters/posting"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// glThread is one of ocr's earlier discussions.
type glThread struct {
	ID       string
	Path     string
	Resolved bool
	// Resolvable is false for notes GitLab does not let anyone resolve.
	Resolvable bool
	// Replied is true when someone other than ocr answered in the thread:
	// ocr then never touches it.
	Replied bool
	// Head is the head commit the thread was posted on.
	Head string
}

// glExisting is what earlier runs left on the merge request.
type glExisting struct {
	threads map[string]*glThread // by fingerprint
	order   []string
	summary *glNote
}

// diffRefs are the SHAs of the merge request version positions refer to.
type diffRefs struct{ Base, Start, Head string }

// load lists every discussion of the merge request (all pages) and keeps
// ocr's own: the summary and the finding threads it started (see add).
func (run *glRun) load(ctx context.Context) error {
	g := run.g
	all, skipped, err := run.mr.Discussions(ctx)
	if err != nil {
		return glError(err, fmt.Sprintf("list the discussions of merge request !%d", g.MR))
	}
	if skipped > 0 {
		g.logf("ocr: %d discussion(s) of merge request !%d could not be read and are ignored", skipped, g.MR)
	}
	run.ex = glExisting{threads: map[string]*glThread{}}
	if !anyMarked(all) {
		return nil // nothing to judge: no need to ask who ocr is
	}
	owner, err := run.owner(ctx)
	if err != nil {
		return err
	}
	for _, d := range all {
		run.ex.add(d, owner)
	}
	return nil
}

// anyMarked reports whether some discussion starts with an ocr marker.
func anyMarked(ds []*glDiscussion) bool {
	for _, d := range ds {
		if len(d.Notes) == 0 {
			continue
		}
		if _, ok := posting.MarkerFingerprint(d.Notes[0].Body); ok || posting.IsSummary(d.Notes[0].Body) {
			return true
		}
	}
	return false
}

// add indexes d when ocr started it. Markers count only in notes by
// owner, the user ocr posts as: anyone who can comment can write one, and
// a forged summary or fingerprint must not steer ocr. Every other
// non-system note in ocr's thread is a reply, whatever it says.
func (e *glExisting) add(d *glDiscussion, owner int64) {
	if len(d.Notes) == 0 || int64(d.Notes[0].Author.ID) != owner {
		return
	}
	first := d.Notes[0]
	if e.summary == nil && posting.IsSummary(first.Body) {
		e.summary = first
		return
	}
	fp, ours := posting.MarkerFingerprint(first.Body)
	if !ours {
		return
	}
	t := &glThread{ID: d.ID, Resolved: first.Resolved, Resolvable: first.Resolvable}
	if first.Position != nil {
		t.Path, t.Head = cmp.Or(first.Position.NewPath, first.Position.OldPath), first.Position.HeadSHA
	}
	for _, n := range d.Notes[1:] {
		if int64(n.Author.ID) != owner && !n.System {
			t.Replied = true
		}
	}
	if _, seen := e.threads[fp]; !seen {
		e.threads[fp] = t
		e.order = append(e.order, fp)
	}
}

// loadRefs reads the merge request's versions right before posting: the
// version whose head is the reviewed head, else the latest (and says so).
// https://docs.gitlab.com/api/merge_requests/#get-merge-request-diff-versions
func (run *glRun) loadRefs(ctx context.Context) error {
	g := run.g
	vs, _, err := run.mr.Client.MergeRequests.GetMergeRequestDiffVersions(g.Project, int64(g.MR),
		&gitlab.GetMergeRequestDiffVersionsOptions{ListOptions: gitlab.ListOptions{PerPage: 100}}, gitlab.WithContext(ctx))
	if err != nil {
		return glError(err, fmt.Sprintf("read the versions of merge request !%d", g.MR))
	}
	if len(vs) == 0 {
		return fmt.Errorf("merge request !%d has no diff version yet; retry when GitLab has computed its diff", g.MR)
	}
	v := vs[0]
	for _, cand := range vs {
		if cand.HeadCommitSHA == run.head {
			v = cand
			break
		}
	}
	if run.head != "" && v.HeadCommitSHA != run.head {
		run.notes = append(run.notes, fmt.Sprintf("The merge request moved to %.12s while ocr reviewed %.12s; comments are placed on the latest version.", v.HeadCommitSHA, run.head))
	}
	run.refs = diffRefs{Base: v.BaseCommitSHA, Start: v.StartCommitSHA, Head: v.HeadCommitSHA}
	return nil
}

// LastState reads the state recorded in the sticky summary note by the last
// complete review: head, configuration fingerprint and findings (see posting.State).
// Only a summary written by the user ocr posts as counts.
func (g *Discussion) LastState(ctx context.Context) (s posting.State, ok bool, err error) {
	mr, err := g.mr()
	if err != nil {
		return posting.State{}, false, err
	}
	run := &glRun{g: g, mr: mr}
	if err := run.load(ctx); err != nil || run.ex.summary == nil {
		return posting.State{}, false, err
	}
	s, ok = posting.ReadState(run.ex.summary.Body)
	return s, ok, nil
}

// glError says what failed, with GitLab's own status and message
// (gitlabapi.Wrap); a refused token (401, 403) also says which token is
// needed, and wraps posting.ErrNoWriteAccess.
func glError(err error, what string) error {
	err = gitlabapi.Wrap(err, what)
	switch gitlabapi.Status(err) {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w; the token is not valid (expired, revoked or mistyped?); %s: %w", err, jobTokenHelp, posting.ErrNoWriteAccess)
	case http.StatusForbidden:
		return fmt.Errorf("%w; %s: %w", err, jobTokenHelp, posting.ErrNoWriteAccess)
	}
	return err
}

func glStatus(err error) int { return gitlabapi.Status(err) }
