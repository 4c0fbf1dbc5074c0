package gitlab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/gitlabapi"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
)

// Discussion posts a finished review to a GitLab merge request: one
// diff discussion per finding at its exact position, general notes for
// what cannot be anchored, one sticky summary note edited in place, and
// resolution of its own outdated threads nobody replied to.
// https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff
type Discussion struct {
	// BaseURL is the API root (CI_API_V4_URL), e.g. https://gitlab.example.com/api/v4.
	BaseURL string
	// Token is a project/group access token with api scope
	// (OCR_GITLAB_TOKEN or GITLAB_TOKEN); never logged.
	Token string
	// TokenSource names the variable the token came from; "CI_JOB_TOKEN"
	// is refused up front because job tokens cannot create notes.
	TokenSource string
	// LinkAllow are hosts whose links model text keeps (OCR_LINK_ALLOW),
	// besides the instance's own (BaseURL's host).
	LinkAllow []string
	// CAFile is a PEM bundle trusted in addition to the system roots
	// (CI_SERVER_TLS_CA_FILE).
	CAFile string
	// HTTPClient is the client to send through; nil means a default one.
	// The runner gives every client of a run one readonce transport, so
	// what they read of the merge request is read once.
	HTTPClient *http.Client
	// Project is the numeric ID or path (CI_MERGE_REQUEST_PROJECT_ID or CI_PROJECT_ID).
	Project string
	// MR is the merge request's IID (CI_MERGE_REQUEST_IID).
	MR int
	// HeadSHA is the merge request's head commit; "" means the review's Head.
	HeadSHA string
	// Changes is the merge request's diff.
	Changes *anchor.ChangeSet
	// MaxInline caps the new diff discussions of a push (default 10); the
	// rest are counted in the summary.
	MaxInline int
	// MinSeverity is the posting floor (default medium): findings below it
	// are listed in the summary's folded section, not posted.
	MinSeverity review.Severity
	// MaxFileComments caps general notes (findings that cannot be placed
	// in the diff) per run (default 10).
	MaxFileComments int
	// Concurrency bounds simultaneous writes (default 4).
	Concurrency int
	// Fallback receives the review when the token cannot write.
	Fallback reporters.Reporter
	// ConfigHash and Incremental: as on GitHubReview.
	ConfigHash  string
	Incremental bool
	// Paused, when set, is the note of a pause (package conversation):
	// nothing is posted in the diff and no discussion is resolved; the
	// sticky summary shows the note (see gitlab_chat.go).
	Paused string
	// Ignored are the fingerprints ignored on this merge request: never
	// posted.
	Ignored map[string]bool
	// Logf receives notices; nil discards them.
	Logf func(format string, args ...any)
	// Sleep waits between rate-limited retries; nil uses a real timer.
	Sleep func(ctx context.Context, d time.Duration) error

	// conn is the merge request's connection (gitlabapi.MR), built on
	// first need and kept: LastState and Report learn who ocr is once.
	connMu sync.Mutex
	conn   *gitlabapi.MR
	// saidWho says who the token posts as once (owner).
	saidWho sync.Once
}

var _ reporters.Reporter = (*Discussion)(nil)

// glRun is the state of one Report call.
type glRun struct {
	g       *Discussion
	mr      *gitlabapi.MR
	head    string
	ex      glExisting
	refs    diffRefs
	changes *posting.DiffIndex
	notes   []string
	style   posting.Style
}

// jobTokenHelp is said plainly whenever GitLab refuses to let ocr write.
const jobTokenHelp = "CI_JOB_TOKEN cannot create merge request notes or discussions; set OCR_GITLAB_TOKEN " +
	"to a project or group access token with the api scope (Developer role)"

// Report posts r. Permission problems are reported plainly, the review
// goes to Fallback, and the error wraps posting.ErrNoWriteAccess.
func (g *Discussion) Report(ctx context.Context, r *review.Review) error {
	switch {
	case g.Token == "":
		return g.fallback(ctx, r, fmt.Errorf("cannot post to merge request !%d without a token: set OCR_GITLAB_TOKEN "+
			"to a project or group access token with the api scope: %w", g.MR, posting.ErrNoWriteAccess))
	case g.TokenSource == "CI_JOB_TOKEN":
		return g.fallback(ctx, r, fmt.Errorf("cannot post to merge request !%d: %s: %w", g.MR, jobTokenHelp, posting.ErrNoWriteAccess))
	}
	run, err := g.newRun(r)
	if err != nil {
		return err
	}
	err = run.report(ctx, r)
	if errors.Is(err, posting.ErrNoWriteAccess) {
		return g.fallback(ctx, r, err)
	}
	return err
}

func (g *Discussion) fallback(ctx context.Context, r *review.Review, err error) error {
	g.logf("ocr: %v", err)
	if g.Fallback != nil {
		err = errors.Join(err, g.Fallback.Report(ctx, r))
	}
	return err
}

func (g *Discussion) newRun(r *review.Review) (*glRun, error) {
	mr, err := g.mr()
	if err != nil {
		return nil, err
	}
	return &glRun{g: g, mr: mr, head: cmp.Or(g.HeadSHA, r.Head), changes: posting.NewDiffIndex(g.Changes), style: g.style()}, nil
}

// style is how GitLab shows bodies: its suggestion syntax, and links kept
// to the instance's host and LinkAllow's.
func (g *Discussion) style() posting.Style {
	return posting.Style{Flavor: posting.FlavorGitLab, Links: posting.NewLinks(cmp.Or(g.BaseURL, "https://gitlab.com"), g.LinkAllow...)}
}

// mr is the merge request's connection, built on first need.
func (g *Discussion) mr() (*gitlabapi.MR, error) {
	g.connMu.Lock()
	defer g.connMu.Unlock()
	if g.conn == nil {
		c, err := gitlabapi.NewMR(g.apiConfig(), g.Project, g.MR)
		if err != nil {
			return nil, err
		}
		g.conn = c
	}
	return g.conn, nil
}

// apiConfig is the client configuration of this poster.
func (g *Discussion) apiConfig() gitlabapi.Config {
	return gitlabapi.Config{BaseURL: g.BaseURL, Token: g.Token, CAFile: g.CAFile, HTTPClient: g.HTTPClient,
		Writes: g.concurrency(), Sleep: g.Sleep, Logf: g.Logf}
}

func (g *Discussion) logf(format string, args ...any) {
	if g.Logf != nil {
		g.Logf(format, args...)
	}
}

// concurrency is how many writes may run at once.
func (g *Discussion) concurrency() int { return reporters.OrDefault(g.Concurrency, 4) }

// report is the whole run: read, posting.Plan, re-read the SHAs, post, resolve,
// summarise.
func (run *glRun) report(ctx context.Context, r *review.Review) error {
	if err := run.load(ctx); err != nil {
		return err
	}
	all := r // the summary counts the suppressed; the state records them
	if r = run.withoutIgnored(r); run.g.Paused != "" {
		return run.reportPaused(ctx, r, all)
	}
	ps := posting.Plan(r.Comments, run.changes, run.planOptions())
	if len(posting.InlineIndexes(ps)) > 0 {
		if err := run.loadRefs(ctx); err != nil {
			return err
		}
	}
	ps, postErr := run.post(ctx, ps)
	if errors.Is(postErr, posting.ErrNoWriteAccess) {
		return postErr
	}
	resolved, resErr := run.resolveOutdated(ctx, r)
	if errors.Is(resErr, posting.ErrNoWriteAccess) {
		return resErr
	}
	if run.ex.summary == nil && postErr == nil && resErr == nil && posting.Quiet(r, ps) {
		run.g.logf(posting.QuietNote, fmt.Sprintf("merge request !%d", run.g.MR), posting.BelowFloor(ps))
		return nil
	}
	var old string
	if run.ex.summary != nil {
		old = run.ex.summary.Body
	}
	in := posting.StickyInput{Review: all, Placements: ps, Resolved: resolved, Notes: posting.Notes(run.notes, r, postErr, resErr), Links: run.style.Links,
		State: posting.RecordedState(all, run.head, run.g.ConfigHash, old)}
	return errors.Join(postErr, resErr, run.upsertSummary(ctx, posting.StickySummary(in)))
}

// planOptions are the poster's budget and floor; what earlier runs posted
// on this head counts against the push's budget.
func (run *glRun) planOptions() posting.PlanOptions {
	o := posting.NewPlanOptions(run.g.MaxInline, run.g.MaxFileComments, run.g.MinSeverity, run.ex.threads)
	for _, t := range run.ex.threads {
		if t.Head != "" && t.Head == run.head {
			o.PostedAtHead++
		}
	}
	return o
}
