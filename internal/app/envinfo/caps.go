package envinfo

import (
	"fmt"
	"strconv"

	"github.com/ocr-ci/ocr/internal/app/ci"
	"github.com/ocr-ci/ocr/internal/app/config"
)

// Caps says which file cap and token budget are in effect and why, for
// `ocr env`: "100 files, 1,000,000 tokens (fork pull request …)".
func Caps(cfg *config.Config, cx ci.Context) string {
	files, tokens := cfg.CapsGiven()
	why := "the defaults"
	if cx.UntrustedHead != "" {
		why = cx.UntrustedHead
	}
	switch {
	case files && tokens:
		why = "as set"
	case files || tokens:
		why += "; the other as set"
	}
	return fmt.Sprintf("%s, %s (%s)", capText(cfg.MaxFiles, "files"), capText(cfg.MaxTokensBudget, "tokens"), why)
}

// capText writes a cap with thousands separators: "1,000,000 tokens"; a
// negative cap is none.
func capText(n int, unit string) string {
	if n < 0 {
		return "any number of " + unit
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " " + unit
}
