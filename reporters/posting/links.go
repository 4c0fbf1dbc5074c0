package posting

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A prompt-injected model can write "fix it here: [docs](https://evil.example/login)"
// and ocr would post a clickable link under its own name. So model text
// keeps no link syntax at all ("]" is escaped, which ends every inline
// link, reference link, link definition and footnote; "<" already was,
// which ends autolinks and HTML), and a URL the platform would link by
// itself (GFM's extended autolinks: "www.", "scheme://", e-mail
// addresses) is shown as a code span unless its host is allowed: the
// forge's own host, or one listed in OCR_LINK_ALLOW.

// Links are the hosts whose URLs stay links in posted model text. The zero
// value allows none: every URL is shown as code.
type Links struct{ hosts map[string]bool }

// NewLinks allows forge's host (a URL such as GITHUB_SERVER_URL, or a host
// name; "" for none) and the hosts in allow.
func NewLinks(forge string, allow ...string) Links {
	l := Links{hosts: map[string]bool{}}
	for _, h := range append([]string{forge}, allow...) {
		if h = hostName(h); h != "" {
			l.hosts[h] = true
		}
	}
	return l
}

// hostName is the lower-case host of a URL or a bare host name, without
// its port.
func hostName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		return u.Hostname()
	}
	h, _, _ := strings.Cut(s, "/")
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	return h
}

// linkSpans returns the [start, end) byte ranges of s that a renderer
// could turn into a link to a host l does not allow.
func (l Links) linkSpans(s string) [][2]int {
	var spans [][2]int
	for pos := 0; pos < len(s); {
		start, end, email := linkStart(s, pos)
		if start < 0 {
			break
		}
		next := end
		if !email {
			end = urlEnd(s, end)
		}
		end = trimURL(s, start, end)
		if end > start && !l.allowed(s[start:end]) {
			spans = append(spans, [2]int{start, end})
		}
		pos = max(end, next)
	}
	return spans
}

// urlEnd extends a URL from i to where it stops: white space, "<", ">",
// a backtick (which would start or end a code span) or "|" (which splits
// a table cell, and with it the code span ocr puts the URL in).
func urlEnd(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("<>`|", r) {
			break
		}
		i += n
	}
	return i
}

// trimURL drops the trailing punctuation GFM leaves out of a link (and
// backslashes, which inside a code span would no longer escape what
// follows), and a ")" without its "(".
func trimURL(s string, start, end int) int {
	unopened := strings.Count(s[start:end], ")") - strings.Count(s[start:end], "(")
	for end > start {
		c := s[end-1]
		switch {
		case strings.IndexByte(`?!.,:;*_~'"\`, c) >= 0:
			end--
		case c == ')' && unopened > 0:
			end--
			unopened--
		default:
			return end
		}
	}
	return end
}

// allowed reports whether link (as written in model text) goes to an
// allowed host over http or https: the only links model text keeps. One
// that holds an "@" or another start of a link after its host is not: a
// renderer that does not link it from its start (after a letter, say) may
// link what is inside.
func (l Links) allowed(link string) bool {
	u := markdownUnescape(link)
	lower := strings.ToLower(u)
	var rest string
	switch {
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		_, rest, _ = strings.Cut(u, "://")
	case strings.HasPrefix(lower, "www."):
		rest = u
	default:
		return false // other schemes, e-mail addresses
	}
	host, tail := rest, ""
	if i := strings.IndexAny(rest, `/?#\`); i >= 0 {
		host, tail = rest[:i], rest[i:]
	}
	first, _, _ := linkStart(tail, 0)
	return !strings.Contains(u, "@") && first < 0 && authority(host) && l.hosts[hostName(host)]
}

// authority reports a host name written in lower case (a renderer may
// end "githuB.coM" at "githuB.co", another host), an optional port,
// nothing else: no user info ("github.com@evil.example"), no escapes, no
// IP literal in brackets.
func authority(h string) bool {
	host, port, _ := strings.Cut(h, ":")
	if host == "" || strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789.-") != "" {
		return false
	}
	return strings.Trim(port, "0123456789") == ""
}

// markdownUnescape drops the backslashes that escape ASCII punctuation.
func markdownUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && asciiPunct(s[i+1]) {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// asciiPunct reports the characters a backslash escapes in CommonMark.
func asciiPunct(c byte) bool {
	return c < 0x80 && (unicode.IsPunct(rune(c)) || unicode.IsSymbol(rune(c)))
}

// postLinkCode writes a URL as a code span. A zero-width space keeps its
// opening backtick apart from a backslash or a backtick before it (which
// would escape it or make a longer run) and from a character an e-mail
// address may hold (a renderer that takes RFC 5322's "0!`0" for the start
// of an address would link across it); when tick is set, it keeps the
// closing backtick apart from the backtick after it.
func postLinkCode(b *strings.Builder, url string, tick bool) {
	if s := b.String(); s != "" && (postAlnum(s[len(s)-1]) || strings.IndexByte("\\`.!#$%&'*+/=?^_{|}~-", s[len(s)-1]) >= 0) {
		b.WriteString(zeroWidthSpace)
	}
	b.WriteString(postCode(url))
	if tick {
		b.WriteString(zeroWidthSpace)
	}
}
