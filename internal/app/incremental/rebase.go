package incremental

import (
	"context"
	"fmt"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/internal/domain/change"
	"github.com/ocr-ci/ocr/review"
)

// rebase scopes a review when the last reviewed head is not an ancestor of
// the new one (the pull request was rebased or force-pushed), or when the
// base branch was merged into it; what says which, for the log. The two
// versions of the pull request (each against its own merge base) are
// matched file by file; a file whose own change is the same patch (git
// patch-id --stable: moved lines, other context and whitespace do not
// count) is not reviewed again, and its findings are carried. A file is
// reviewed when its change differs, or when it was not reviewed then
// (excluded) but is now.
func rebase(ctx context.Context, in Input, oldBase, what string) (Scope, error) {
	st, full, repo := in.State, in.Change, in.Repo
	old := &change.Change{Mode: "range", Base: oldBase, Head: st.Head}
	if err := old.Parse(repo.DiffText(ctx, oldBase, st.Head)); err != nil {
		return Scope{}, fmt.Errorf("could not compute the pull request as last reviewed (%s): %w", preview.Short(st.Head), err)
	}
	same, err := samePatches(ctx, in, old.Files)
	if err != nil {
		return Scope{}, err
	}
	then := coverageByPath(in.Select(ctx, old))
	unchanged := map[string]bool{}
	for _, f := range in.Preview.Files {
		if same[f.Path] && then[f.Path].Reviewed == f.Reviewed {
			unchanged[f.Path] = true
		}
	}
	sc := Scope{Kind: Rebase, Since: st.Head, Earlier: st.Findings, unchanged: unchanged}
	sc.Change, sc.Preview = without(full, in.Preview, unchanged)
	sc.Why = fmt.Sprintf("%s: %d of %d files unchanged (the same change as at the last review, by git patch-id), %d reviewed "+
		"(--full reviews everything)", what, len(unchanged), len(in.Preview.Files), sc.Preview.Totals.Reviewed)
	return sc, nil
}

// samePatches reports, by path, the files of the pull request whose own
// change has the patch ID of the same path's change in old.
func samePatches(ctx context.Context, in Input, old []udiff.File) (map[string]bool, error) {
	newFiles := in.Change.Files
	patches := make([]string, 0, len(old)+len(newFiles))
	for _, f := range old {
		patches = append(patches, f.Raw)
	}
	for _, f := range newFiles {
		patches = append(patches, f.Raw)
	}
	ids, err := in.Repo.PatchIDs(ctx, patches)
	if err != nil {
		return nil, fmt.Errorf("could not match the files of the rebased pull request: %w", err)
	}
	was := map[string]string{}
	for i, f := range old {
		was[f.Path()] = ids[i]
	}
	same := map[string]bool{}
	for i, f := range newFiles {
		id := ids[len(old)+i]
		same[f.Path()] = id != "" && was[f.Path()] == id
	}
	return same, nil
}

// without is the pull request full and its selection p minus the files
// skip names.
func without(full *change.Change, p preview.Preview, skip map[string]bool) (*change.Change, preview.Preview) {
	ch := &change.Change{Mode: full.Mode, Base: full.Base, Head: full.Head, Diffs: map[string]string{}}
	for _, f := range full.Files {
		if skip[f.Path()] {
			continue
		}
		ch.Files = append(ch.Files, f)
		for _, path := range []string{f.NewPath, f.OldPath} {
			if path != "" {
				ch.Diffs[path] = f.Raw
			}
		}
	}
	var files []review.FileCoverage
	for _, f := range p.Files {
		if !skip[f.Path] {
			files = append(files, f)
		}
	}
	return ch, preview.New(ch, files)
}
