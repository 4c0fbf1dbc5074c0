package posting_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ocr-ci/ocr/reporters/internal/reportertest"

	"github.com/ocr-ci/ocr/internal/testkit/fakes"
	"github.com/ocr-ci/ocr/reporters"
)

// BenchmarkPosting measures API calls and wall time of github-review and
// gitlab-discussion against the fakes with 100 ms added to every call, for
// 10, 100 and 1,000 findings, first run and unchanged re-run; "cap" is the
// default --max-inline 30, "nocap" lets every finding be a comment.
//
//	go test ./reporters/posting -run '^$' -bench Posting -benchtime 1x
func BenchmarkPosting(b *testing.B) {
	for _, platform := range []string{"github", "gitlab"} {
		for _, capped := range []bool{true, false} {
			for _, n := range []int{10, 100, 1000} {
				name := fmt.Sprintf("%s/%s/n=%d", platform, map[bool]string{true: "cap", false: "nocap"}[capped], n)
				maxInline := 30
				if !capped {
					maxInline = n
				}
				b.Run(name+"/first", func(b *testing.B) { benchPost(b, platform, n, maxInline, false) })
				b.Run(name+"/rerun", func(b *testing.B) { benchPost(b, platform, n, maxInline, true) })
			}
		}
	}
}

type benchFake interface {
	Calls() map[string]int
	ResetCalls()
}

func benchPost(b *testing.B, platform string, n, maxInline int, rerun bool) {
	diff := reportertest.PostDiff(n/3 + 1)
	r := reportertest.InlineReview(n)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f, rep := benchReporter(b, platform, diff, maxInline)
		if rerun {
			if err := rep.Report(context.Background(), r); err != nil {
				b.Fatal(err)
			}
			f.ResetCalls()
		}
		b.StartTimer()
		if err := rep.Report(context.Background(), r); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		calls := f.Calls()
		total := 0
		for _, v := range calls {
			total += v
		}
		b.ReportMetric(float64(total), "calls/op")
		b.ReportMetric(float64(fakes.Writes(calls)), "writes/op")
	}
}

func benchReporter(b *testing.B, platform, diff string, maxInline int) (benchFake, reporters.Reporter) {
	rec := &reportertest.Recorder{}
	if platform == "github" {
		f := reportertest.NewGitHubFake(b, diff, reportertest.PostHead)
		f.SetLatency(100 * time.Millisecond)
		g := reportertest.NewGitHubReview(b, f, diff, rec)
		g.MaxInline = maxInline
		g.Sleep = nil // real waits: the 1 s gap between writes counts
		return f, g
	}
	f := reportertest.NewGitLabFake(b, diff, false)
	f.SetLatency(100 * time.Millisecond)
	g := reportertest.NewGitLab(b, f, diff, rec)
	g.MaxInline = maxInline
	return f, g
}
