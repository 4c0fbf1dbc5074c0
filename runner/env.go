package runner

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"strings"
	"text/tabwriter"

	"github.com/ocr-ci/ocr/internal/ci"
	"github.com/ocr-ci/ocr/internal/config"
	"github.com/ocr-ci/ocr/internal/git"
	"github.com/ocr-ci/ocr/review/reportspec"
)

// applyContext fills what the flags and OCR_* variables left open from the
// detected CI context: explicit settings always win.
func applyContext(cfg *config.Config, cx ci.Context) {
	if cfg.From == "" && cfg.Commit == "" {
		cfg.From, cfg.To, cfg.Commit, cfg.FromIsGuess = cx.From, cx.To, cx.Commit, cx.FromIsGuess
	}
	if cfg.ConfigRef == "" {
		cfg.ConfigRef = cx.ConfigRef
	}
	if cx.UntrustedHead != "" {
		cfg.ForkCaps()
	}
	if len(cfg.Reports) == 0 && cfg.Format == "" {
		for _, s := range cx.Reports {
			if s == ci.DefaultSARIF {
				s.Path = cfg.SarifFile
			}
			cfg.Reports = append(cfg.Reports, s.String())
		}
	}
}

// env runs `ocr env`: what was detected and what would run, secrets masked.
func (c *Command) env(ctx context.Context, args []string) error {
	cfg, err := c.parseConfig("env", args)
	if err != nil {
		return err
	}
	e, err := ci.Load(c.lookup)
	if err != nil {
		return usagef("%w", err)
	}
	cx, err := ci.Detect(e)
	if err != nil {
		return usagef("%w", err)
	}
	applyContext(cfg, cx)
	llmRows, llmErr := c.describeLLM(cfg)
	tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	rows := [][2]string{
		{"platform", cx.Platform}, {"event", cx.Event}, {"why", cx.Why},
		{"mode", cfg.Mode()}, {"range", rangeOf(cfg)}, {"pull request", prOf(cx)},
		{"config ref", cfg.ConfigRef}, {"reports", strings.Join(reportsOf(cfg), ", ")},
	}
	rows = append(rows, llmRows...)
	rows = append(rows, [][2]string{{"github token", mask(e.GitHub.Token)}, {"gitlab token", mask(e.GitLab.Token)}}...)
	if llmErr != nil {
		rows = append(rows, [2]string{"llm problem", llmErr.Error()})
	}
	rows = append(rows, [2]string{"caps", capsOf(cfg, cx)})
	rows = append(rows, c.describeRepo(ctx, cfg)...)
	for _, r := range rows {
		if _, err := fmt.Fprintf(tw, "%s:\t%s\n", r[0], orDash(r[1])); err != nil {
			return err
		}
	}
	return tw.Flush()
}

func rangeOf(cfg *config.Config) string {
	switch cfg.Mode() {
	case "range":
		return cfg.From + ".." + cfg.To
	case "commit":
		return cfg.Commit
	}
	return "work tree against HEAD"
}

func prOf(cx ci.Context) string {
	if cx.PR == 0 {
		return ""
	}
	s := fmt.Sprintf("#%d", cx.PR)
	if cx.ReadOnly {
		s += " (from a fork: read-only)"
	}
	return s
}

// mask shows that a secret is set without showing it.
func mask(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("set (%d characters)", len(s))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// endpointOf shows an endpoint URL with its path; credentials in it and
// the values of its query parameters (keys, signatures) are masked, except
// Azure's harmless api-version.
func endpointOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(invalid URL)"
	}
	user := ""
	if u.User != nil {
		user, u.User = "***@", nil
	}
	q := u.Query()
	for k := range q {
		if !strings.EqualFold(k, "api-version") {
			q[k] = []string{"***"}
		}
	}
	u.RawQuery = strings.ReplaceAll(q.Encode(), "%2A%2A%2A", "***")
	u.Fragment = ""
	return strings.Replace(u.String(), "://", "://"+user, 1)
}

// describeRepo says which git runs and warns when the directory is not a
// repository that 'ocr review' can read.
func (c *Command) describeRepo(ctx context.Context, cfg *config.Config) [][2]string {
	v, err := git.Version(ctx, cfg.Repo)
	if err != nil {
		return [][2]string{{"git", fmt.Sprintf("not found: ocr needs git %s or later on PATH", git.MinVersion)}}
	}
	rows := [][2]string{{"git", fmt.Sprintf("%s (ocr needs %s or later)", strings.TrimPrefix(v, "git version "), git.MinVersion)}}
	repo, err := c.openRepo(ctx, cfg)
	if err != nil {
		return append(rows, [2]string{"warning", safeLines(err.Error())})
	}
	defer closeRepo(repo)
	return append(rows, [2]string{"repository", repo.Dir()})
}

// describeLLM says which endpoint, token and model a review would use,
// each with the variable it came from; the token masked.
func (c *Command) describeLLM(cfg *config.Config) ([][2]string, error) {
	lc, err := c.loadLLM(cfg)
	if err != nil {
		return [][2]string{{"llm endpoint", ""}, {"llm token", ""}, {"model", ""}}, err
	}
	host := ""
	if lc.BaseURL() != "" {
		host = endpointOf(lc.BaseURL())
	}
	return [][2]string{
		{"llm endpoint", from(host, lc.URLSource())},
		{"llm token", cmp.Or(from(mask(lc.APIToken()), lc.TokenSource()), "not set (OCR_LLM_TOKEN or OPENAI_API_KEY)")},
		{"model", from(lc.ModelName(), lc.ModelSource())},
	}, lc.Validate()
}

// from appends where a shown setting came from.
func from(val, source string) string {
	if val == "" || source == "" {
		return val
	}
	return val + " (from " + source + ")"
}

// reportsOf lists the reports a review will write: --format/--output as one
// report, then every --report; text when nothing is asked for.
func reportsOf(cfg *config.Config) []string {
	var out []string
	if cfg.Format != "" {
		// --format writes to --output, else to stdout, whatever the kind's
		// default file for --report is.
		spec := strings.ToLower(strings.TrimSpace(cfg.Format))
		switch {
		case cfg.Output != "":
			spec += "=" + cfg.Output
		case !reportspec.Kind(spec).API():
			spec += "=" + reportspec.Stdout
		}
		out = append(out, spec)
	}
	out = append(out, cfg.Reports...)
	if len(out) == 0 {
		out = []string{"text"}
	}
	return out
}
