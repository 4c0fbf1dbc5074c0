package runner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/envinfo"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/build"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/gitlab"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// buildReporters is the one place that turns report specs into reporters.
// It returns them and a func that closes their files and returns the paths
// of the report files written in full. A file that cannot be opened (it
// became a symlink since the check) leaves out its report only: the others
// are still written, and closing returns its error.
func (c *Command) buildReporters(j *job, ch *change.Change, h heard) (reporters.Multi, func() ([]string, error), error) {
	var (
		multi    reporters.Multi
		closers  []io.Closer
		files    []*fileReport
		sarif    string
		openErrs []error
	)
	closeAll := func() ([]string, error) {
		var errs []error
		for _, cl := range closers {
			errs = append(errs, cl.Close())
		}
		var wrote []string
		for i, f := range files {
			if f.ok && errs[f.closer] == nil && !slices.ContainsFunc(files[:i], func(g *fileReport) bool { return g.path == f.path }) {
				wrote = append(wrote, f.path)
			}
		}
		return wrote, errors.Join(append(openErrs, errs...)...)
	}
	// On a build error nothing was written: that error is the one to report,
	// so closing's result is dropped.
	closeOnErr := func() { _, _ = closeAll() }
	for _, s := range j.specs {
		if s.Kind.API() {
			if r := c.apiReporter(j, ch, s.Kind); r != nil {
				multi = append(multi, h.applied(r))
			}
			continue
		}
		w, err := reporters.Open(s, c.Stdout)
		if err != nil {
			openErrs = append(openErrs, err)
			continue
		}
		closers = append(closers, w)
		if s.Kind == reportspec.KindSARIF {
			sarif = s.Path
		}
		r, err := c.fileReporter(j, s, w)
		if err != nil {
			closeOnErr()
			return nil, nil, err
		}
		if s.Path != reportspec.Stdout {
			f := &fileReport{Reporter: r, path: s.Path, closer: len(closers) - 1}
			files, r = append(files, f), f
		}
		multi = append(multi, r)
	}
	if j.env.GitHub.Output != "" {
		multi = append(multi, &reporters.Lazy{Path: j.env.GitHub.Output, Make: func(w io.Writer) reporters.Reporter {
			return &github.Output{W: w, SARIFPath: sarif}
		}})
	}
	return multi, closeAll, nil
}

// fileReport remembers whether its reporter wrote its file in full, so the
// run can say "wrote PATH" once per file.
type fileReport struct {
	reporters.Reporter
	path   string
	closer int // index of its file among the closers
	ok     bool
}

// Report runs the reporter and records success.
func (f *fileReport) Report(ctx context.Context, r *review.Review) error {
	err := f.Reporter.Report(ctx, r)
	f.ok = err == nil
	return err
}

// fileReporter builds a reporter that writes to w.
func (c *Command) fileReporter(j *job, s reportspec.Spec, w io.Writer) (reporters.Reporter, error) {
	return build.File(s, w, build.FileOptions{
		SARIFCategory: j.cfg.SarifCategory, RepositoryURI: j.repositoryURL(), Summary: j.summaryOptions(),
		Color:   c.IsTerminal && s.Path == reportspec.Stdout && j.env.Term.NoColor == "",
		Verbose: j.cfg.Verbose,
	})
}

// apiReporter returns the pull/merge request poster of kind k, or nil
// (with a notice) when there is no pull/merge request to post to. It is
// built once per run: reading the last state and posting share what it
// learned (who ocr posts as).
func (c *Command) apiReporter(j *job, ch *change.Change, k reportspec.Kind) reporters.Reporter {
	if r, ok := j.posters[k]; ok {
		return r
	}
	if j.posters == nil {
		j.posters = map[reportspec.Kind]reporters.Reporter{}
	}
	r := c.newPoster(j, ch, k)
	j.posters[k] = r
	return r
}

// applied gives the poster what people said: the one place a poster is
// told, when it becomes one of the run's reporters.
func (h heard) applied(r reporters.Reporter) reporters.Reporter {
	switch p := r.(type) {
	case *github.Review:
		p.Ignored, p.Paused = h.ignored, h.paused
	case *gitlab.Discussion:
		p.Ignored, p.Paused = h.ignored, h.paused
	}
	return r
}

// newPoster builds the poster of kind k.
func (c *Command) newPoster(j *job, ch *change.Change, k reportspec.Kind) reporters.Reporter {
	if j.ci.PR == 0 {
		c.logf("%s skipped: no pull or merge request in this context (%s)", k, envinfo.OrDash(j.ci.Why))
		return nil
	}
	changes := anchor.NewChangeSet(ch.Files)
	if k == reportspec.KindGitHubReview {
		return &github.Review{
			BaseURL: j.env.GitHub.APIURL, GraphQLURL: j.env.GitHub.GraphQLURL, Token: j.env.GitHub.Token, BotLogin: j.cfg.GitHubLogin, Owner: j.ci.Owner, Repo: j.ci.Name,
			ServerURL: j.env.GitHub.ServerURL, LinkAllow: j.cfg.LinkAllow,
			PR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline,
			Fork: j.ci.ReadOnly, Fallback: c.fallback(j), FallbackWhere: fallbackWhere(j),
			ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep,
		}
	}
	g := j.env.GitLab
	return &gitlab.Discussion{
		BaseURL: g.APIURL, Token: g.Token, TokenSource: "OCR_GITLAB_TOKEN", CAFile: g.CAFile, Project: cmp.Or(g.MRProjectID, g.ProjectID), LinkAllow: j.cfg.LinkAllow,
		MR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline,
		ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep,
	}
}

// fallback is where a review goes when it cannot be posted: the
// annotations and the step summary, unless they are already reports.
func (c *Command) fallback(j *job) reporters.Reporter {
	var m reporters.Multi
	has := map[reportspec.Kind]bool{}
	for _, s := range j.specs {
		has[s.Kind] = true
	}
	if !has[reportspec.KindGitHubAnnotations] {
		m = append(m, &github.Annotations{W: c.Stdout})
	}
	if !has[reportspec.KindGitHubSummary] && j.env.GitHub.StepSummary != "" {
		opt := j.summaryOptions()
		m = append(m, &reporters.Lazy{Path: j.env.GitHub.StepSummary, Make: func(w io.Writer) reporters.Reporter {
			return &github.Summary{W: w, Options: opt}
		}})
	}
	return m
}

// fallbackWhere names where the findings are when a review cannot be
// posted: the fallback's annotations and step summary, and the report
// files the run writes anyway.
func fallbackWhere(j *job) string {
	has := map[reportspec.Kind]bool{reportspec.KindGitHubAnnotations: true}
	for _, s := range j.specs {
		has[s.Kind] = true
	}
	if j.env.GitHub.StepSummary != "" {
		has[reportspec.KindGitHubSummary] = true
	}
	var names []string
	for _, k := range []struct {
		kind reportspec.Kind
		name string
	}{{reportspec.KindGitHubAnnotations, "the annotations"}, {reportspec.KindGitHubSummary, "the step summary"},
		{reportspec.KindSARIF, "the SARIF file"}, {reportspec.KindCodeQuality, "the Code Quality report"},
		{reportspec.KindJSON, "the JSON report"}, {reportspec.KindText, "the text report"}} {
		if has[k.kind] {
			names = append(names, k.name)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (j *job) summaryOptions() github.SummaryOptions {
	if j.ci.Platform != ci.PlatformGitHub {
		return github.SummaryOptions{}
	}
	return github.SummaryOptions{ServerURL: j.env.GitHub.ServerURL, Repository: j.env.GitHub.Repository}
}

func (j *job) repositoryURL() string {
	if j.ci.Platform != ci.PlatformGitHub || j.env.GitHub.Repository == "" {
		return ""
	}
	return strings.TrimRight(j.env.GitHub.ServerURL, "/") + "/" + j.env.GitHub.Repository
}

// configHash fingerprints what shapes a review's findings, so an incremental
// review is only trusted when nothing of it changed.
func (j *job) configHash() string {
	data, _ := json.Marshal([]any{Version, j.llm.ModelName(), j.cfg.Language, j.cfg.Exclude, j.cfg.Include,
		j.cfg.IncludeTests, j.cfg.Rule, j.cfg.Tools, j.cfg.Effort, j.cfg.NoFilter})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
