package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/anchor"
	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/reporters/jsonreport"
	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/runner"
)

// setting is one configuration the dataset is reviewed under: a name and
// the ocr flags it adds ("passes=3,no-filter": --passes 3 --no-filter).
type setting struct {
	Name  string
	Flags []string
}

// parseSettings reads "passes=1;passes=3,no-filter" into settings.
func parseSettings(s string) ([]setting, error) {
	var out []setting
	for _, spec := range strings.Split(s, ";") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		st := setting{Name: spec}
		for _, item := range strings.Split(spec, ",") {
			k, v, hasValue := strings.Cut(strings.TrimSpace(item), "=")
			if k == "" || strings.HasPrefix(k, "-") {
				return nil, fmt.Errorf("setting %q: want items such as passes=3 or no-filter (flags of ocr review without the dashes)", spec)
			}
			st.Flags = append(st.Flags, "--"+k)
			if hasValue {
				st.Flags = append(st.Flags, v)
			}
		}
		out = append(out, st)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no setting given: want e.g. -settings 'passes=1;passes=3'")
	}
	return out, nil
}

// reviewer runs `ocr review` with args in the environment env and returns
// its exit code and stderr.
type reviewer func(ctx context.Context, args []string, env map[string]string) (int, string)

// inProcess runs ocr's command line in this process.
func inProcess(ctx context.Context, args []string, env map[string]string) (int, string) {
	var stderr bytes.Buffer
	cmd := &runner.Command{Stdout: &bytes.Buffer{}, Stderr: &stderr, LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}}
	return cmd.Main(ctx, append([]string{"ocr"}, args...)), stderr.String()
}

// binary runs the ocr executable at path, with env and PATH only: no CI
// variable of the caller's shell changes what it does.
func binary(path string) reviewer {
	return func(ctx context.Context, args []string, env map[string]string) (int, string) {
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if cmd.ProcessState == nil {
			return -1, fmt.Sprintf("could not run %s: %v", path, err)
		}
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
}

// outcome is what one review of one change produced.
type outcome struct {
	Posted []review.Comment // what the posting plan would post inline
	Usage  review.Usage
	Failed string // why the review did not complete ("" when it did)
}

// reviewChange reviews ch under st and reads back its JSON report.
func reviewChange(ctx context.Context, run reviewer, env map[string]string, ch change, st setting, scratch string, d *diffs) (outcome, error) {
	report := filepath.Join(scratch, "ocr.json")
	args := append([]string{"review", "--repo", ch.Dir, "--from", ch.Source, "--to", ch.Target, "--quiet",
		"--report", "json=" + report}, st.Flags...)
	code, stderr := run(ctx, args, env)
	if code == 2 || code < 0 {
		return outcome{}, fmt.Errorf("ocr review of %s %s..%s under %q failed (exit %d): %s", ch.Repo, short(ch.Source), short(ch.Target), st.Name, code, lastLine(stderr))
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return outcome{}, fmt.Errorf("ocr review of %s wrote no JSON report (exit %d): %s", ch.Repo, code, lastLine(stderr))
	}
	rv, err := jsonreport.Decode(data)
	if err != nil {
		return outcome{}, err
	}
	out := outcome{Usage: rv.Usage}
	if rv.Status != review.StatusComplete {
		out.Failed = fmt.Sprintf("%s: %s", rv.Status, strings.Join(rv.Errors, "; "))
	}
	diff, err := d.get(ctx, ch.Dir, rv.Base, rv.Head)
	if err != nil {
		return outcome{}, err
	}
	out.Posted, err = inline(diff, rv, planOptions(st.Flags))
	return out, err
}

// planOptions is the posting plan of a setting: its --max-inline and
// --post-min-severity (ocr has checked them), ocr's defaults otherwise.
// The review itself ignores both without a pull request to post on, so
// the harness must apply them for such a setting to change anything.
func planOptions(flags []string) posting.PlanOptions {
	budget, floor := 0, review.Severity("")
	for i := 0; i+1 < len(flags); i++ {
		switch flags[i] {
		case "--max-inline":
			budget, _ = strconv.Atoi(flags[i+1])
		case "--post-min-severity":
			floor = review.ParseSeverity(flags[i+1])
		}
	}
	return posting.NewPlanOptions[bool](budget, 0, floor, nil)
}

// inline is what the posting plan o would post as inline comments on the
// pull request: the findings not suppressed, at or above its floor, placed
// against the reviewed diff, within its budget.
func inline(diff []byte, rv *review.Review, o posting.PlanOptions) ([]review.Comment, error) {
	files, err := udiff.Parse(diff)
	if err != nil {
		return nil, fmt.Errorf("could not parse the diff of %s..%s: %w", short(rv.Base), short(rv.Head), err)
	}
	var active []review.Comment
	for _, c := range rv.Comments {
		if c.Suppressed == nil {
			active = append(active, c)
		}
	}
	var out []review.Comment
	plan := posting.Plan(active, posting.NewDiffIndex(anchor.NewChangeSet(files)), o)
	for _, p := range plan {
		if p.Kind == posting.PlaceInline {
			c := p.Comment
			c.Side, c.StartLine, c.EndLine = p.Side, p.Start, p.End
			out = append(out, c)
		}
	}
	return out, nil
}

func short(sha string) string { return sha[:min(len(sha), 10)] }

// lastLine is the last non-empty line of s: ocr's error.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
