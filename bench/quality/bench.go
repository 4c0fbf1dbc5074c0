package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// run reviews the dataset under every setting and writes the table.
func run(ctx context.Context, o options) error {
	rows, judged, err := evaluate(ctx, o)
	if err != nil {
		return err
	}
	if o.OutPath == "" {
		return writeTable(o.Out, rows, o.Tolerance, judged)
	}
	f, err := os.Create(o.OutPath)
	if err != nil {
		return err
	}
	if err := writeTable(f, rows, o.Tolerance, judged); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// evaluate reviews the dataset under every setting and scores each; judged
// says whether a judge compared meanings.
func evaluate(ctx context.Context, o options) ([]row, bool, error) {
	changes, err := loadDataset(o.Dataset, o.Repos)
	if err != nil {
		return nil, false, err
	}
	if o.Limit > 0 && o.Limit < len(changes) {
		changes = changes[:o.Limit]
	}
	if err := checkClones(ctx, changes); err != nil {
		return nil, false, err
	}
	settings, err := parseSettings(o.Settings)
	if err != nil {
		return nil, false, err
	}
	var meaning sameMeaning
	if o.Judge != nil {
		j, err := newJudge(*o.Judge)
		if err != nil {
			return nil, false, err
		}
		meaning = j.same
	}
	review := reviewer(inProcess)
	if o.OCR != "" {
		review = binary(o.OCR)
	}
	var rows []row
	d := &diffs{}
	for _, st := range settings {
		t, err := measure(ctx, o, review, changes, st, meaning, d)
		if err != nil {
			return nil, false, err
		}
		rows = append(rows, row{Setting: st.Name, T: t})
	}
	return rows, meaning != nil, nil
}

// measure reviews every change under st, o.Jobs at a time, and scores them;
// d holds the diffs read so far in the run.
func measure(ctx context.Context, o options, review reviewer, changes []change, st setting, meaning sameMeaning, d *diffs) (tally, error) {
	outcomes := make([]outcome, len(changes))
	errs := make([]error, len(changes))
	slots := make(chan struct{}, max(o.Jobs, 1))
	var wg sync.WaitGroup
	for i, ch := range changes {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			dir, err := os.MkdirTemp("", "ocr-quality-*")
			if err != nil {
				errs[i] = err
				return
			}
			defer func() { _ = os.RemoveAll(dir) }()
			outcomes[i], errs[i] = reviewChange(ctx, review, o.Env, ch, st, dir, d)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return tally{}, err
	}
	var t tally
	for i, ch := range changes {
		t.score(ctx, ch, outcomes[i], o.Tolerance, meaning)
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "quality: %s: %d changes reviewed, %d comments\n", st.Name, t.Changes, t.Posted)
	}
	return t, nil
}

// checkClones names every change whose clone or commits are missing, with
// the command that fetches them; each clone is asked once about all its
// commits.
func checkClones(ctx context.Context, changes []change) error {
	wanted := map[string][]string{}
	for _, ch := range changes {
		wanted[ch.Dir] = append(wanted[ch.Dir], ch.Source, ch.Target)
	}
	found := map[string]map[string]bool{}
	for dir, commits := range wanted {
		found[dir] = commitsIn(ctx, dir, commits)
	}
	var missing []string
	for _, ch := range changes {
		for _, c := range []string{ch.Source, ch.Target} {
			if !found[ch.Dir][c] {
				missing = append(missing, fmt.Sprintf("%s: commit %s not in %s (git clone https://github.com/%s %s, or git -C %s fetch origin %s)",
					ch.Repo, short(c), ch.Dir, ch.Repo, ch.Dir, ch.Dir, c))
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d commit(s) missing from the clones:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	return nil
}

// commitsIn reports which of commits are commits of the clone at dir, with
// one `git cat-file --batch-check` (a missing clone has none of them).
func commitsIn(ctx context.Context, dir string, commits []string) map[string]bool {
	var in strings.Builder
	for _, c := range commits {
		in.WriteString(c + "^{commit}\n")
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "cat-file", "--batch-check=%(objecttype)")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	found := map[string]bool{}
	if err != nil {
		return found
	}
	answers := strings.Split(string(out), "\n")
	for i, c := range commits {
		// A found object's line is its type; a missing one's is "SPEC missing".
		found[c] = i < len(answers) && answers[i] == "commit"
	}
	return found
}
