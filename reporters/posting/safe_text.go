package posting

import "strings"

// MaxBody is the largest body ocr writes in one comment, with room for
// its hidden markers under GitHub's 65,536-character limit.
const MaxBody = maxBody

// SafeText is untrusted text (a model's answer, a person's question)
// escaped exactly like a finding's text (see postSafe: no raw HTML, no
// live mention, no image, no quick action, fences closed, no link: every
// URL is shown as code, the forge's own too) and cut to at most n bytes of
// output. Invisible characters are dropped before the text is trimmed, so
// none can shield a leading "/ocr" or quick action from the guard.
func SafeText(s string, n int) string {
	return postSafeCut(strings.TrimSpace(strings.Map(dropControl, s)), n, Links{})
}

// SafeInline is SafeText for a slot of one line (a quote line, a
// sentence): line breaks become spaces.
func SafeInline(s string) string { return postSafeInline(s, Links{}) }
