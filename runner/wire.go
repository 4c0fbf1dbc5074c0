package runner

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// buildReporters is the one place that turns the run's report specs into
// reporters (build.NewSet): the file reports, and the posters, built here
// once with what people said (h: suppress returns it, publish requires it).
func (c *Command) buildReporters(j *job, ch *change.Change, h heard) (*build.Set, error) {
	return build.NewSet(j.specs, build.SetOptions{
		File: build.FileOptions{Files: ch.Parsed(), SARIFCategory: j.cfg.SarifCategory, RepositoryURI: j.repositoryURL(), Summary: j.summaryOptions(),
			Color: c.IsTerminal && j.env.Term.NoColor == "", Verbose: j.cfg.Verbose},
		Stdout: c.Stdout, Dir: j.cfg.Dir, GitHubOutput: j.env.GitHub.Output,
		Poster: func(k reportspec.Kind) reporters.Reporter { return c.newPoster(j, ch, k, h) },
	})
}

// newPoster builds the poster of kind k, told what people said (h); nil
// (with a notice) when there is no pull/merge request to post to. The
// posters and the last state's reader share the run's read-once forge
// client (job.forge), so building each apart reads nothing twice.
func (c *Command) newPoster(j *job, ch *change.Change, k reportspec.Kind, h heard) reporters.Reporter {
	if j.ci.PR == 0 {
		c.logf("%s skipped: no pull or merge request in this context (%s)", k, envinfo.OrDash(j.ci.Why))
		return nil
	}
	changes := anchor.NewChangeSet(ch.Files)
	if k == reportspec.KindGitHubReview {
		return &github.Review{
			BaseURL: j.env.GitHub.APIURL, GraphQLURL: j.env.GitHub.GraphQLURL, Token: j.env.GitHub.Token, BotLogin: j.cfg.GitHubLogin, Owner: j.ci.Owner, Repo: j.ci.Name,
			ServerURL: j.env.GitHub.ServerURL, LinkAllow: j.cfg.LinkAllow,
			PR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline, MinSeverity: review.Severity(j.cfg.PostMinSeverity),
			Fork: j.ci.ReadOnly, Fallback: build.Fallback(j.specs, c.Stdout, j.cfg.Path(j.env.GitHub.StepSummary), j.summaryOptions()),
			FallbackWhere: build.FallbackWhere(j.specs, j.env.GitHub.StepSummary != ""),
			Paused:        h.Paused, Ignored: h.Ignored,
			ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep, HTTPClient: j.forge,
		}
	}
	g := j.env.GitLab
	return &gitlab.Discussion{
		BaseURL: g.APIURL, Token: g.Token, TokenSource: "OCR_GITLAB_TOKEN", CAFile: g.CAFile, Project: cmp.Or(g.MRProjectID, g.ProjectID), LinkAllow: j.cfg.LinkAllow,
		MR: j.ci.PR, HeadSHA: j.ci.HeadSHA, Changes: changes, MaxInline: j.cfg.MaxInline, MinSeverity: review.Severity(j.cfg.PostMinSeverity),
		Paused: h.Paused, Ignored: h.Ignored,
		ConfigHash: j.configHash(), Logf: c.logf, Sleep: c.sleep, HTTPClient: j.forge,
	}
}

func (j *job) summaryOptions() github.SummaryOptions {
	floor := review.Severity(j.cfg.PostMinSeverity)
	if j.ci.Platform != ci.PlatformGitHub {
		return github.SummaryOptions{MinSeverity: floor}
	}
	return github.SummaryOptions{ServerURL: j.env.GitHub.ServerURL, Repository: j.env.GitHub.Repository, MinSeverity: floor}
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
		j.cfg.IncludeTests, j.cfg.Rule, j.cfg.Tools, j.cfg.Effort, j.cfg.NoFilter, j.cfg.Passes, j.cfg.MinVotes})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
