package agent

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/agent/promptname"
	"github.com/ocr-ci/ocr/review"
)

// Review reviews in.Files: it bundles them into groups, reviews the groups
// concurrently, and reports every file as reviewed or not reviewed with a
// reason. A failing group fails only its files, except for a failure that
// would fail every request alike (a wrong URL, key or model, an endpoint
// that does not answer): that one stops the run at once, the requests in
// flight included, and every file not reviewed names it. When ctx ends
// (the run's deadline), the groups end and the output says what was done.
func (a *Agent) Review(ctx context.Context, in Input) Output {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := a.newRun(in)
	bundle := grouping.Bundle
	if a.cfg.ByDirectory {
		bundle = grouping.ByDir
	}
	groups := bundle(r.groupFiles(), a.cfg.GroupFiles, a.cfg.GroupTokens)
	passes := a.cfg.Passes
	r.meter, r.halter = &meter{start: time.Now(), groups: len(groups) * passes}, &halter{cancel: cancel}
	r.status("reviewing %s in %s%s, %d at a time", plural(len(in.Files), "file"), plural(len(groups), "group"), r.passTag(-1), a.cfg.Concurrency)
	stopBeat, beating := make(chan struct{}), make(chan struct{})
	go func() { defer close(beating); r.heartbeat(ctx, a.cfg.Heartbeat, stopBeat) }()
	units := make([]groupResult, len(groups)*passes)
	r.each(len(units), func(u int) { // in order, group by group: the budget stops the later ones
		units[u] = r.group(ctx, u/passes, len(groups), groups[u/passes], u%passes)
	})
	results := units
	if passes > 1 {
		results = make([]groupResult, len(groups))
		r.each(len(groups), func(i int) { results[i] = r.vote(ctx, groups[i], units[i*passes:(i+1)*passes]) })
	}
	close(stopBeat)
	<-beating
	out := r.output(groups, results)
	out.Passes = passUsage(units, passes)
	return out
}

// each runs fn(0..n-1), dispatched in order, at most Concurrency at once.
func (r *run) each(n int, fn func(i int)) {
	slots := make(chan struct{}, r.a.cfg.Concurrency)
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			fn(i)
		}()
	}
	wg.Wait()
}

// groupFiles describes the selected files for Bundle.
func (r *run) groupFiles() []grouping.File {
	out := make([]grouping.File, len(r.in.Files))
	for i, f := range r.in.Files {
		out[i] = grouping.File{Path: f.Path, Churn: r.churn(f.Path), Tokens: estimateTokens(len(f.Diff))}
	}
	return out
}

// group runs one pass (from 0) over one group.
func (r *run) group(ctx context.Context, i, n int, g grouping.Group, pass int) groupResult {
	t := r.task(g, pass)
	if ctx.Err() != nil { // stopped or out of time: no request, no line
		reason, detail := ended(ctx, r.a.cfg.GroupTimeout.String())
		return groupResult{reason: reason, detail: detail}
	}
	started := time.Now()
	r.groupStart(i, n, t.files, pass)
	res := r.split(ctx, t, t.review(ctx))
	r.meter.done.Add(1)
	if ctx.Err() != nil && !t.stoppedRun() && res.reason != "" {
		return res // ended by another group's failure or the deadline: the run's summary says why
	}
	r.groupEnd(i, n, res, time.Since(started), pass)
	return res
}

// promptData is the main prompt's content for the task's group.
func (t *task) promptData() mainData {
	d := mainData{Background: strings.TrimSpace(t.run.in.Background)}
	in := map[string]bool{}
	for _, f := range t.files {
		in[f.Path] = true
		d.Files = append(d.Files, promptFile{Path: f.Path, Diff: compactDiff(f.Diff)})
	}
	d.Others = t.others(in)
	d.Rules = t.rules()
	return d
}

// others lists the change set's other files, those sharing a directory
// with the group first, at most maxOtherFiles: a large change must not
// cost every request thousands of tokens of file names.
func (t *task) others(in map[string]bool) []string {
	dirs := map[string]bool{}
	for p := range in {
		dirs[path.Dir(p)] = true
	}
	var near, far []string
	all := t.run.in.Changes.Files()
	for i := range all {
		f := &all[i]
		if in[f.Path()] {
			continue
		}
		line := fmt.Sprintf("%s %s (+%d/-%d)", strings.ToUpper(string(f.Status)), promptname.Name(f.Path()), f.Additions, f.Deletions)
		if dirs[path.Dir(f.Path())] {
			near = append(near, line)
		} else {
			far = append(far, line)
		}
	}
	out := slices.Concat(near, far)
	if len(out) > maxOtherFiles {
		out = append(out[:maxOtherFiles], fmt.Sprintf("… and %d more (file_read_diff and file_find can show them)", len(out)-maxOtherFiles))
	}
	return out
}

// rules lists the group's rule texts once each, naming the files a text
// applies to when it does not apply to all of them.
func (t *task) rules() []promptRule {
	if t.run.in.Rules == nil {
		return nil
	}
	var out []promptRule
	at := map[string]int{}
	for _, f := range t.files {
		_, text := t.run.in.Rules(f.Path)
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		if i, ok := at[text]; ok {
			out[i].Paths = append(out[i].Paths, f.Path)
			continue
		}
		at[text] = len(out)
		out = append(out, promptRule{Paths: []string{f.Path}, Text: text})
	}
	if len(out) == 1 && len(out[0].Paths) == len(t.files) {
		out[0].Paths = nil
	}
	return out
}

// compactDiff drops the header lines that <file path> already says
// (diff --git, index, ---, +++), keeping mode, rename and binary notes.
func compactDiff(d string) string {
	var b strings.Builder
	b.Grow(len(d))
	header := true
	for line := range strings.Lines(d) {
		if header && strings.HasPrefix(line, "@@") {
			header = false
		}
		if header && (strings.HasPrefix(line, "diff --git ") || strings.HasPrefix(line, "index ") ||
			strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ ")) {
			continue
		}
		b.WriteString(line)
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

// output assembles coverage, comments, usage and status.
func (r *run) output(groups []grouping.Group, results []groupResult) Output {
	var out Output
	cov := make([]review.FileCoverage, len(r.in.Files))
	for gi, g := range groups {
		res := results[gi]
		out.Comments = append(out.Comments, res.comments...)
		out.Usage = out.Usage.Add(res.usage)
		out.FilterDropped += res.dropped
		out.Outvoted += res.outvoted
		gr := GroupReport{Planned: res.planned, Reason: res.reason, Rounds: res.rounds, Comments: len(res.comments),
			FilterDropped: res.dropped, Usage: res.usage}
		for _, idx := range g {
			cov[idx] = r.coverage(r.in.Files[idx].Path, res)
			gr.Files = append(gr.Files, r.in.Files[idx].Path)
		}
		out.Groups = append(out.Groups, gr)
	}
	out.Files = cov
	out.Errors = review.NotReviewed(cov)
	out.Status = status(cov)
	sort.SliceStable(out.Comments, func(a, b int) bool { return out.Comments[a].Severity.Rank() > out.Comments[b].Severity.Rank() })
	return out
}

func (r *run) coverage(path string, res groupResult) review.FileCoverage {
	reason, detail := res.reason, res.detail
	if o, ok := res.files[path]; ok { // a group split to fit the window
		reason, detail = o.reason, o.detail
	}
	c := review.FileCoverage{Path: path, Reviewed: reason == "", Reason: reason, Detail: detail}
	if f, ok := r.in.Changes.File(path); ok {
		if f.OldPath != "" && f.OldPath != f.NewPath {
			c.OldPath = f.OldPath
		}
		c.Status, c.Additions, c.Deletions = string(f.Status), f.Additions, f.Deletions
	}
	return c
}

// status is complete when every file was reviewed, failed when none was.
func status(cov []review.FileCoverage) review.Status {
	n := 0
	for _, c := range cov {
		if c.Reviewed {
			n++
		}
	}
	switch {
	case n == len(cov):
		return review.StatusComplete
	case n == 0:
		return review.StatusFailed
	}
	return review.StatusPartial
}
