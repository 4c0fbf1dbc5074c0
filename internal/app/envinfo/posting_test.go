package envinfo

import (
	"testing"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// TestPassesShowsPassesAndMinVotes: `ocr env` names both settings and
// their variables, beside the posting floor and budget.
func TestPassesShowsPassesAndMinVotes(t *testing.T) {
	row := Passes(&config.Config{Passes: 3, MinVotes: 2})
	want := "3 per group (OCR_PASSES), a finding kept when 2 found it (OCR_MIN_VOTES)"
	if row.Name != "passes" || row.Value != want {
		t.Errorf("Passes = %+v, want passes: %q", row, want)
	}
}
