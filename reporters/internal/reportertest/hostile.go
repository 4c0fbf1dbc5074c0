package reportertest

import (
	"net/url"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// Hostile findings, as a prompt-injected model would send them.
const (
	// EvilLinks try to post clickable links to evil.example; the last
	// link goes to a host OCR_LINK_ALLOW allows (AllowedHost).
	EvilLinks = "fix it here: [docs](https://evil.example/login), or www.evil.example/reset, <https://evil.example/a>, " +
		"[ref][1]\n\n[1]: https://evil.example/ref\n\nThe guide: https://docs.example.org/guide"
	// BidiSuggestion reads as a comparison with "user" and an admin-only
	// comment, but its U+202E and isolates make it compare something else.
	BidiSuggestion = "if access != \"user\u202e \u2066// admins only\u2069 \u2066\" {\n"
	// AllowedHost is the host the posters are told to allow.
	AllowedHost = "docs.example.org"
)

// HostileReview has three findings: on pkg/f0.go lines 3–4 with evil
// links and a bidi suggestion, on pkg/f1.go lines 3–4 with a 30 KB
// suggestion, and one outside the diff (summary) with evil links.
func HostileReview() *review.Review {
	bidi := PostFinding(KindRangeSuggest, 0, review.SeverityCritical)
	bidi.Content, bidi.Suggestion = EvilLinks, BidiSuggestion
	long := PostFinding(KindRangeSuggest, 1, review.SeverityHigh)
	long.Suggestion = strings.Repeat("\tx = append(x, \"one line of a very long suggestion\")\n", 560)
	other := PostFinding(KindOtherFile, 0, review.SeverityLow)
	other.Content = EvilLinks
	return PostReview([]review.Comment{bidi, long, other})
}

// AssertDefused fails t when a posted body, rendered, links to a host
// other than allowed (over http or https), offers a one-click suggestion
// that holds an invisible character, or shows one of ocr's hidden markers
// (a "<!-- ocr:" line) anywhere but as raw HTML.
func AssertDefused(t *testing.T, what, body string, allowed ...string) {
	t.Helper()
	r := Render(body)
	for _, l := range r.Links {
		u, err := url.Parse(l)
		if err != nil {
			// Only the rest is not a valid URL: "https://github.com/%0X".
			scheme, rest, _ := strings.Cut(l, "://")
			host, _, _ := strings.Cut(strings.SplitN(rest, "?", 2)[0], "/")
			u, err = url.Parse(scheme + "://" + strings.SplitN(host, "#", 2)[0])
		}
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !contains(allowed, strings.ToLower(u.Hostname())) {
			t.Errorf("%s: a link to %q", what, l)
		}
	}
	for _, s := range r.Suggestions() {
		if strings.ContainsFunc(s.Text, invisible) {
			t.Errorf("%s: a one-click suggestion holds an invisible character: %q", what, s.Text)
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "<!-- ocr:") && (r.InCode(line) || !r.InHTML(line)) {
			t.Errorf("%s: the marker %q does not render as hidden HTML", what, line)
		}
	}
}

// invisible is a bidirectional or zero-width character (Trojan Source).
func invisible(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c ||
		r >= 0x200b && r <= 0x200d || r == 0x2060 || r == 0xfeff
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
