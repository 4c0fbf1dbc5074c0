package change

import (
	"fmt"

	"github.com/ocr-ci/ocr/internal/infra/git"
)

// parseWithin parses a diff cut to the budget and records the files whose
// diff was left out, with the line counts git's output gave.
func (ch *Change) parseWithin(raw string, cuts []git.Cut, err error) error {
	if err := ch.Parse(raw, err); err != nil {
		return err
	}
	for _, c := range cuts {
		if c.Index >= len(ch.Files) {
			return fmt.Errorf("could not parse the diff: %d files, but file %d was cut (a bug: please report it)", len(ch.Files), c.Index)
		}
		f := &ch.Files[c.Index]
		f.Additions, f.Deletions = c.Additions, c.Deletions
		if ch.OverBudget == nil {
			ch.OverBudget = map[string]int64{}
		}
		ch.OverBudget[f.Path()] = c.Bytes
	}
	return nil
}
