package github

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ocr-ci/ocr/internal/infra/githubapi"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/posting"

	"github.com/google/go-github/v62/github"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/review"
)

// Review posts a finished review to a GitHub pull request: one review
// (event COMMENT) with inline comments, file-level comments for what cannot
// be inline, and one sticky summary issue comment edited in place. Re-runs
// are idempotent through hidden fingerprint markers.
// https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request
type Review struct {
	// BaseURL is the REST API root (GITHUB_API_URL); "" means api.github.com.
	BaseURL string
	// GraphQLURL is the GraphQL endpoint (GITHUB_GRAPHQL_URL), used to
	// resolve ocr's threads whose finding is gone; "" derives it from BaseURL.
	GraphQLURL string
	// Token authenticates (OCR_GITHUB_TOKEN or GITHUB_TOKEN); never logged.
	Token string
	// BotLogin is the account a bot token posts as (OCR_GITHUB_LOGIN, e.g.
	// "my-app[bot]" for a GitHub App token); "" means ActionsBot, the
	// account of GITHUB_TOKEN. GitHub does not tell an installation token
	// its own login, so only comments by this account count as ocr's.
	BotLogin string
	// ServerURL is the web root (GITHUB_SERVER_URL); "" means
	// https://github.com. Model text keeps links to its host only, and to
	// those of LinkAllow.
	ServerURL string
	// LinkAllow are more hosts whose links model text keeps (OCR_LINK_ALLOW).
	LinkAllow []string
	// HTTPClient is the client to send through; nil means a default one.
	// The runner gives every client of a run one readonce transport, so
	// what they read of the pull request is read once.
	HTTPClient *http.Client
	// Owner, Repo and PR name the pull request.
	Owner string
	Repo  string
	PR    int
	// HeadSHA is the pull request's head commit (from the event, never
	// GITHUB_SHA); "" means the review's Head.
	HeadSHA string
	// Changes is the pull request's diff; every location is checked
	// against it before anything is sent.
	Changes *anchor.ChangeSet
	// MaxInline caps the new inline comments of a push (default 10); the
	// rest are counted in the summary.
	MaxInline int
	// MinSeverity is the posting floor (default medium): findings below it
	// are listed in the summary's folded section, not posted.
	MinSeverity review.Severity
	// MaxFileComments caps file-level comments per run (default 10).
	MaxFileComments int
	// Fork is set for a pull request from a fork under pull_request, whose
	// token is read-only: like a missing Token, the review goes to
	// Fallback without a single API call.
	Fork bool
	// Fallback receives the review when posting is impossible (no token,
	// a fork's read-only token, 403): annotations and the step summary.
	Fallback reporters.Reporter
	// FallbackWhere names where the findings are when the review cannot
	// be posted ("the annotations and the step summary"); "" means the
	// annotations, the step summary and the SARIF file.
	FallbackWhere string
	// ConfigHash fingerprints the configuration, recorded in the summary
	// for incremental reviews (see posting.ReadState).
	ConfigHash string
	// Incremental is set when the review covers only the commits since the
	// last reviewed head: earlier findings missing from it are not resolved.
	Incremental bool
	// Paused, when set, is the note of a pause (package conversation):
	// nothing is posted inline and no thread is resolved; the sticky
	// summary shows the note.
	Paused string
	// Ignored are the fingerprints ignored on this pull request: never
	// posted (see githubreview_chat.go).
	Ignored map[string]bool
	// Logf receives notices; nil discards them.
	Logf func(format string, args ...any)
	// Sleep waits between rate-limited retries; nil uses a real timer.
	Sleep func(ctx context.Context, d time.Duration) error

	// conn is the pull request's connection (githubapi.PR), built on
	// first need and kept: LastState and Report learn who ocr is once.
	connMu sync.Mutex
	conn   *githubapi.PR
	// saidWho says who the token posts as once (trust).
	saidWho sync.Once
}

var _ reporters.Reporter = (*Review)(nil)

// ghRun is the state of one Report call.
type ghRun struct {
	g       *Review
	pr      *githubapi.PR
	c       *github.Client
	head    string
	ex      ghExisting
	notes   []string
	changes *posting.DiffIndex
	style   posting.Style
}

// What a workflow needs to post, named in every message about a token.
const (
	permissionsHelp = "give the job `permissions:` with `pull-requests: write` and `contents: read`"
	noTokenHelp     = "no GitHub token: set GITHUB_TOKEN (the action passes its `github-token` input, " +
		"default `${{ github.token }}`) or OCR_GITHUB_TOKEN, and " + permissionsHelp
	forkHelp = "the pull request comes from a fork, and GitHub gives a fork's pull_request workflow a read-only token " +
		"(to post on fork pull requests, use the pull_request_target workflow of docs/github-forks.md)"
)

// Report posts r. Permission problems fall back to g.Fallback and return
// nil: a fork pull request or a missing permission is not a failure of the
// review. The notice says which it is: no token, a fork's read-only token,
// or a token GitHub refused (403) on a same-repository pull request.
func (g *Review) Report(ctx context.Context, r *review.Review) error {
	switch {
	case g.Token == "":
		return g.fallback(ctx, r, noTokenHelp)
	case g.Fork:
		return g.fallback(ctx, r, forkHelp)
	}
	run, err := g.newRun(r)
	if err != nil {
		return err
	}
	err = run.report(ctx, r)
	if errors.Is(err, posting.ErrNoWriteAccess) {
		return g.fallback(ctx, r, "the token cannot write to it ("+err.Error()+"): "+permissionsHelp+
			", and check that the repository's or organisation's default GITHUB_TOKEN permissions allow it")
	}
	return err
}

// ReadOnly reports whether no API call can write: no token, or a fork's.
func (g *Review) ReadOnly() bool { return g.Token == "" || g.Fork }

func (g *Review) newRun(r *review.Review) (*ghRun, error) {
	pr, err := g.pr()
	if err != nil {
		return nil, err
	}
	head := cmp.Or(g.HeadSHA, r.Head)
	if head == "" {
		return nil, errors.New("github-review needs the pull request's head commit: none was given")
	}
	return &ghRun{g: g, pr: pr, c: pr.REST(), head: head, changes: posting.NewDiffIndex(g.Changes), style: g.style()}, nil
}

// style is how GitHub shows bodies: its suggestion blocks, and links kept
// to the server's host and LinkAllow's.
func (g *Review) style() posting.Style {
	return posting.Style{Flavor: posting.FlavorGitHub, Links: posting.NewLinks(cmp.Or(g.ServerURL, "https://github.com"), g.LinkAllow...)}
}

// pr is the pull request's connection, built on first need.
func (g *Review) pr() (*githubapi.PR, error) {
	g.connMu.Lock()
	defer g.connMu.Unlock()
	if g.conn == nil {
		c, err := githubapi.NewPR(githubapi.PROptions{Token: g.Token, BaseURL: g.BaseURL, GraphQLURL: g.GraphQLURL,
			BotLogin: g.BotLogin, HTTPClient: g.HTTPClient, Owner: g.Owner, Repo: g.Repo, Number: g.PR, Sleep: g.Sleep, Logf: g.logf})
		if err != nil {
			return nil, err
		}
		g.conn = c
	}
	return g.conn, nil
}

func (g *Review) logf(format string, args ...any) {
	if g.Logf != nil {
		g.Logf(format, args...)
	}
}

// fallback hands the review to the fallback reporter with a notice naming
// the permission the workflow lacks.
func (g *Review) fallback(ctx context.Context, r *review.Review, why string) error {
	where := cmp.Or(g.FallbackWhere, "the annotations, the step summary and the SARIF file")
	g.logf("not posting a review on pull request #%d: %s. "+
		"The findings are in %s instead; no review thread is resolved.", g.PR, why, where)
	if g.Fallback == nil {
		return nil
	}
	return g.Fallback.Report(ctx, r)
}

// report is the whole run: read what is there, posting.Plan, post,
// resolve the threads of findings that are gone, summarise.
func (run *ghRun) report(ctx context.Context, r *review.Review) error {
	if err := run.load(ctx); err != nil {
		return err
	}
	all := r // the summary counts the suppressed; the state records them
	if r = run.withoutIgnored(r); run.g.Paused != "" {
		return run.reportPaused(ctx, r, all)
	}
	ps := posting.Plan(r.Comments, run.changes, run.planOptions(r.Comments))
	ps, postErr := run.post(ctx, ps)
	if errors.Is(postErr, posting.ErrNoWriteAccess) {
		return postErr
	}
	gone := posting.GoneFindings(r, run.g.Incremental, run.ex.order)
	threads, resErr := run.resolveThreads(ctx, gone)
	if errors.Is(resErr, posting.ErrNoWriteAccess) {
		run.g.logf("not resolving ocr's review threads on pull request #%d: %v (%s)", run.g.PR, resErr, permissionsHelp)
		resErr = nil
	}
	if run.ex.summary == nil && postErr == nil && resErr == nil && posting.Quiet(r, ps) {
		run.g.logf(posting.QuietNote, fmt.Sprintf("pull request #%d", run.g.PR), posting.BelowFloor(ps))
		return nil
	}
	in := posting.StickyInput{Review: all, Placements: ps, Resolved: run.resolved(gone, threads),
		Notes: posting.Notes(run.notes, r, postErr, resErr), Links: run.style.Links,
		State: posting.RecordedState(all, run.head, run.g.ConfigHash, run.ex.summary.GetBody())}
	if err := run.upsertSummary(ctx, posting.StickySummary(in)); err != nil {
		return errors.Join(postErr, resErr, err)
	}
	return errors.Join(postErr, resErr)
}

// resolved lists ocr's earlier findings that this run no longer reports
// (see posting.GoneFindings), with what happened to their threads.
func (run *ghRun) resolved(gone []string, threads map[string]string) []posting.ResolvedItem {
	var out []posting.ResolvedItem
	for _, fp := range gone {
		c := run.ex.all[fp]
		out = append(out, posting.ResolvedItem{Path: c.GetPath(), Link: c.GetHTMLURL(), Thread: threads[fp]})
	}
	return out
}

// planOptions are the poster's budget and floor; what earlier runs posted
// on this head counts against the push's budget. Of cs, the run's
// findings, those already on the pull request are not posted again (see
// ghExisting.posted).
func (run *ghRun) planOptions(cs []review.Comment) posting.PlanOptions {
	o := posting.NewPlanOptions(run.g.MaxInline, run.g.MaxFileComments, run.g.MinSeverity, run.ex.posted(cs))
	for _, c := range run.ex.current {
		if c.GetOriginalCommitID() == run.head {
			o.PostedAtHead++
		}
	}
	return o
}
