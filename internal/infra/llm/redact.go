package llm

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// minSecret is the shortest value treated as a secret: shorter header
// values ("1", "true") are switches, and replacing them would garble
// every message.
const minSecret = 6

// redactor replaces every configured secret — the token, the values of
// OCR_LLM_EXTRA_HEADERS and the credentials of the URL — with "***". It
// runs before any cut, so no prefix of a secret can survive (issue 14,
// class 8).
type redactor struct{ secrets []string }

// newRedactor collects the secrets of cfg, longest first, so that a secret
// containing another is replaced whole.
func newRedactor(cfg Config) redactor {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); len(s) >= minSecret {
			out = append(out, s)
		}
	}
	add(cfg.APIToken())
	for _, v := range cfg.ExtraHeaders {
		add(v)
		// "Bearer sk-...": a provider may quote only the key.
		if f := strings.Fields(v); len(f) > 1 {
			add(f[len(f)-1])
		}
	}
	if u, err := url.Parse(cfg.BaseURL()); err == nil {
		if p, ok := u.User.Password(); ok {
			add(p)
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return redactor{secrets: out}
}

// Redact returns s with every secret replaced by "***".
func (r redactor) Redact(s string) string {
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, "***")
	}
	return s
}

// Clip shortens s to at most n bytes plus "…", cutting at the last word
// boundary before n (a rune boundary when the text has no space near the
// cut), after collapsing runs of white space. Redact first: clipping a
// message that still holds a secret could leave a prefix of it.
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i >= n/2 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// excerpt is a short, readable part of a response body for an error line:
// an HTML page's title (or its text without tags), redacted, then clipped.
func (r redactor) excerpt(body []byte, n int) string {
	s := string(body)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	if low := strings.ToLower(s); strings.Contains(low, "<html") || strings.Contains(low, "<!doctype") {
		s = htmlText(s)
	}
	return Clip(r.Redact(s), n)
}

// htmlText is the title of an HTML page, or its text with tags removed.
func htmlText(s string) string {
	low := strings.ToLower(s)
	if i := strings.Index(low, "<title>"); i >= 0 {
		if j := strings.Index(low[i:], "</title>"); j > 0 {
			if t := strings.TrimSpace(s[i+len("<title>") : i+j]); t != "" {
				return "HTML page titled " + strconv.Quote(t)
			}
		}
	}
	var b strings.Builder
	in := false
	for _, c := range s {
		switch {
		case c == '<':
			in = true
			b.WriteByte(' ')
		case c == '>':
			in = false
		case !in:
			b.WriteRune(c)
		}
	}
	return "HTML page: " + b.String()
}
