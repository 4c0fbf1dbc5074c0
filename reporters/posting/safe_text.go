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
// A suggestion block in the text passes the findings' check first
// (defuseSuggestions).
func SafeText(s string, n int) string {
	return postSafeCut(strings.TrimSpace(strings.Map(dropControl, defuseSuggestions(s))), n, Links{})
}

// defuseSuggestions puts every one-click suggestion block of untrusted
// text (a fence at column 0 whose info string starts with "suggestion")
// through the findings' check: one whose code holds invisible or
// bidirectional characters, or a line that starts with "/", is shown as
// plain code, the characters made visible, after the findings' warning.
// It runs before escaping drops the characters, which would otherwise
// leave a committable block that differs from what was written unseen.
func defuseSuggestions(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		fence := postFenceOpen(lines[i])
		if fence == "" || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(lines[i][len(fence):])), "suggestion") {
			b.WriteString(lines[i] + "\n")
			continue
		}
		end := i + 1
		for end < len(lines) && !postFenceClose(lines[end], fence) {
			end++
		}
		b.WriteString(suggestionChecked(lines[i], lines[i+1:end], fence))
		i = end
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// suggestionChecked is one suggestion block, open line and code lines,
// as it may be posted.
func suggestionChecked(open string, code []string, fence string) string {
	text := strings.Join(code, "\n")
	found := invisibles(text)
	if len(found) == 0 && !hasQuickAction(text) {
		return open + "\n" + text + "\n" + fence + "\n"
	}
	warn := "Suggested replacement (not applicable: a line starts with \"/\"):\n\n"
	if len(found) > 0 {
		warn = invisibleWarning(found)
	}
	shown := showInvisible(text)
	f := Fence(shown)
	return warn + f + "\n" + shown + "\n" + f + "\n"
}

// SafeInline is SafeText for a slot of one line (a quote line, a
// sentence): line breaks become spaces.
func SafeInline(s string) string { return postSafeInline(s, Links{}) }
