package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/internal/ci"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/reporters/build"
	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/gitlab"
)

// buildReporters is the one place that turns report specs into reporters.
// It returns them and a func that closes their files. A file that cannot
// be opened (it became a symlink since the check) leaves out its report
// only: the others are still written, and closing returns its error.
func (c *Command) buildReporters(j *job, ch *Change) (reporters.Multi, func() error, error) {
	var (
		multi    reporters.Multi
		closers  []io.Closer
		sarif    string
		openErrs []error
	)
	closeAll := func() error {
		errs := openErrs
		for _, cl := range closers {
			errs = append(errs, cl.Close())
		}
		return errors.Join(errs...)
	}
	for _, s := range j.specs {
		if s.Kind.API() {
			if r := c.apiReporter(j, ch, s.Kind); r != nil {
				multi = append(multi, r)
			}
			continue
		}
		w, err := s.Open(c.Stdout)
		if err != nil {
			openErrs = append(openErrs, err)
			continue
		}
		closers = append(closers, w)
		if s.Kind == reporters.KindSARIF {
			sarif = s.Path
		}
		r, err := c.fileReporter(j, s, w)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		multi = append(multi, r)
	}
	if j.env.GitHub.Output != "" {
		multi = append(multi, &lazyFile{path: j.env.GitHub.Output, make: func(w io.Writer) reporters.Reporter {
			return &github.Output{W: w, SARIFPath: sarif}
		}})
	}
	return multi, closeAll, nil
}

// fileReporter builds a reporter that writes to w.
func (c *Command) fileReporter(j *job, s reporters.Spec, w io.Writer) (reporters.Reporter, error) {
	return build.File(s, w, build.FileOptions{
		SARIFCategory: j.cfg.SarifCategory, RepositoryURI: j.repositoryURL(), Summary: j.summaryOptions(),
		Color: c.IsTerminal && s.Path == reporters.Stdout && j.env.Term.NoColor == "",
	})
}

// apiReporter returns the pull/merge request poster of kind k, or nil
// (with a notice) when there is no pull/merge request to post to. It is
// built once per run: reading the last state and posting share what it
// learned (who ocr posts as).
func (c *Command) apiReporter(j *job, ch *Change, k reporters.Kind) reporters.Reporter {
	if r, ok := j.posters[k]; ok {
		return r
	}
	if j.posters == nil {
		j.posters = map[reporters.Kind]reporters.Reporter{}
	}
	r := c.newPoster(j, ch, k)
	j.posters[k] = r
	return r
}

// newPoster builds the poster of kind k.
func (c *Command) newPoster(j *job, ch *Change, k reporters.Kind) reporters.Reporter {
	if j.ci.PR == 0 {
		c.logf("%s skipped: no pull or merge request in this context (%s)", k, orDash(j.ci.Why))
		return nil
	}
	changes := anchor.NewChangeSet(ch.Files)
	if k == reporters.KindGitHubReview {
		return &github.Review{
			BaseURL: j.env.GitHub.APIURL, Token: j.env.GitHub.Token, BotLogin: j.cfg.GitHubLogin, Owner: j.ci.Owner, Repo: j.ci.Name,
			PR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline,
			ReadOnly: j.ci.Fork || j.env.GitHub.Token == "", Fallback: c.fallback(j),
			ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep,
		}
	}
	g := j.env.GitLab
	project := g.MRProjectID
	if project == "" {
		project = g.ProjectID
	}
	return &gitlab.Discussion{
		BaseURL: g.APIURL, Token: g.Token, TokenSource: "OCR_GITLAB_TOKEN", CAFile: g.CAFile, Project: project,
		MR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline,
		ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep,
	}
}

// fallback is where a review goes when it cannot be posted: the
// annotations and the step summary, unless they are already reports.
func (c *Command) fallback(j *job) reporters.Reporter {
	var m reporters.Multi
	has := map[reporters.Kind]bool{}
	for _, s := range j.specs {
		has[s.Kind] = true
	}
	if !has[reporters.KindGitHubAnnotations] {
		m = append(m, &github.Annotations{W: c.Stdout})
	}
	if !has[reporters.KindGitHubSummary] && j.env.GitHub.StepSummary != "" {
		opt := j.summaryOptions()
		m = append(m, &lazyFile{path: j.env.GitHub.StepSummary, make: func(w io.Writer) reporters.Reporter {
			return &github.Summary{W: w, Options: opt}
		}})
	}
	return m
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
