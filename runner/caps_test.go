package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/app/plan"
	"github.com/ocr-ci/ocr/internal/app/setup"
	"github.com/ocr-ci/ocr/internal/infra/git"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// textFile is n lines of 50 bytes.
func textFile(n int, tag string) string {
	line := fmt.Sprintf("var %s = %q\n", tag, strings.Repeat("x", 50-len(tag)-11))
	return strings.Repeat(line, n)
}

// Files past the diff budget are not parsed and not reviewed (too_large);
// later files that still fit are.
func TestDiffBudgetCutsFilesBeforeParsing(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("README.md", "# r\n")
	base := r.commit("base")
	big := []string{"a1.go", "a2.go", "a3.go", "a4.go", "a5.go"}
	for _, p := range big {
		r.write(p, textFile(4000, strings.TrimSuffix(p, ".go"))) // ~200 KB, cost ~460 KB
	}
	r.write("z_small.go", "package z\n")
	r.commit("pr")
	repo, err := git.Open(context.Background(), r.dir, git.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plan.CloseRepo(repo)
	ch, err := plan.LoadChange(context.Background(), repo, &config.Config{From: base, To: "HEAD", MaxDiffMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a3.go": true, "a4.go": true, "a5.go": true}
	for _, f := range ch.Files {
		p := f.Path()
		if (ch.OverBudget[p] > 0) != want[p] {
			t.Errorf("%s: over budget %v, want %v", p, ch.OverBudget[p], want[p])
		}
		if want[p] && (len(f.Hunks) != 0 || f.Additions != 4000 || strings.Contains(ch.Diffs[p], "var a")) {
			t.Errorf("%s: cut, yet %d hunks, %d additions, diff %d bytes", p, len(f.Hunks), f.Additions, len(ch.Diffs[p]))
		}
	}
	if len(ch.Files) != 6 {
		t.Fatalf("%d files, want 6", len(ch.Files))
	}
	p := previewJSON(t, "--repo", r.dir, "--from", base, "--to", "HEAD", "--max-diff-mb", "1", "--max-file-tokens", "1000000")
	checkReasons(t, p, map[string]review.Reason{"a1.go": "", "a2.go": "", "a3.go": review.ReasonTooLarge, "a4.go": review.ReasonTooLarge,
		"a5.go": review.ReasonTooLarge, "z_small.go": ""})
}

// Files past the per-run cap are not reviewed (too_many); forks get a
// lower cap by default.
func TestFileCapLeavesTheRestUnreviewed(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("README.md", "# r\n")
	base := r.commit("base")
	for i := range 12 {
		r.write(fmt.Sprintf("f%02d.go", i), "package f\n")
	}
	r.commit("pr")
	for _, tc := range []struct {
		args     []string
		reviewed int
	}{
		{[]string{"--max-files", "5"}, 5},
		{[]string{"--max-files", "1"}, 1},
		{[]string{"--max-files", "1000"}, 12},
		{nil, 12}, // the default, 300
	} {
		p := previewJSON(t, append([]string{"--repo", r.dir, "--from", base, "--to", "HEAD"}, tc.args...)...)
		n, many := 0, 0
		for _, f := range p.Files {
			if f.Reviewed {
				n++
			}
			if f.Reason == review.ReasonTooMany {
				many++
			}
		}
		if n != tc.reviewed || many != 12-tc.reviewed {
			t.Errorf("%v: %d reviewed, %d too_many; want %d and %d", tc.args, n, many, tc.reviewed, 12-tc.reviewed)
		}
	}
}

// TestForkCapsAreLower calls the two in the order a run does: Validate
// fills the defaults, then the detected context lowers the caps.
func TestForkCapsAreLower(t *testing.T) {
	t.Parallel()
	fork := ci.Context{UntrustedHead: "fork pull request under pull_request_target: head from someone/r"}
	cfg := &config.Config{}
	cfg.Defaults()
	setup.ApplyContext(cfg, fork)
	if cfg.MaxFiles != config.ForkMaxFiles || cfg.MaxTokensBudget != config.ForkMaxTokens {
		t.Errorf("fork: %d files, %d tokens; want %d and %d", cfg.MaxFiles, cfg.MaxTokensBudget, config.ForkMaxFiles, config.ForkMaxTokens)
	}
	cfg = &config.Config{MaxFiles: 7, MaxTokensBudget: -1}
	cfg.Defaults()
	setup.ApplyContext(cfg, fork)
	if cfg.MaxFiles != 7 || cfg.MaxTokensBudget != -1 {
		t.Errorf("explicit caps were changed: %d files, %d tokens", cfg.MaxFiles, cfg.MaxTokensBudget)
	}
	cfg = &config.Config{MaxFiles: config.DefaultMaxFiles}
	cfg.Defaults()
	setup.ApplyContext(cfg, fork)
	if cfg.MaxFiles != config.DefaultMaxFiles || cfg.MaxTokensBudget != config.ForkMaxTokens {
		t.Errorf("an explicit --max-files equal to the default was lowered: %d files, %d tokens", cfg.MaxFiles, cfg.MaxTokensBudget)
	}
	cfg = &config.Config{}
	cfg.Defaults()
	setup.ApplyContext(cfg, ci.Context{})
	if cfg.MaxFiles != config.DefaultMaxFiles || cfg.MaxTokensBudget != config.DefaultMaxTokens || cfg.MaxDiffMB != config.DefaultMaxDiffMB {
		t.Errorf("defaults: %+v", cfg)
	}
}

// A review that a cap cut short is partial, not complete: a hostile pull
// request must not hide a file behind many others and still pass.
func TestCappedReviewIsPartial(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("README.md", "# r\n")
	base := r.commit("base")
	r.write("a.go", "package a\n\nvar A = 1\n")
	r.write("b.go", "package b\n\nvar B = 2\n")
	r.commit("pr")
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.Request) llmtest.Answer { return llmtest.Calls(llmtest.Done()) })
	useLLM(t, srv)
	for _, tc := range []struct {
		args   []string
		code   int
		status string
	}{
		{[]string{"--max-files", "1"}, reporters.ExitIncomplete, "partial"},
		{[]string{"--max-files", "1", "--allow-partial"}, reporters.ExitOK, "partial"},
		{nil, reporters.ExitOK, "complete"},
	} {
		args := append([]string{"review", "--repo", r.dir, "--from", base, "--to", "HEAD", "--format", "json", "--no-filter"}, tc.args...)
		code, out, errs := run(t, args...)
		if code != tc.code || !strings.Contains(out, `"status": "`+tc.status+`"`) {
			t.Errorf("%v: exit %d, want %d and status %s:\n%s\n%s", tc.args, code, tc.code, tc.status, out, errs)
		}
	}
}
