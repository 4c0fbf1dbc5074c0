package grouping

import "strings"

// roleSuffixes mark a file that belongs to another one: its test, its
// implementation. Checked case-sensitively on the stem, longest first.
var roleSuffixes = []string{"_test", "_spec", ".test", ".spec", "Tests", "Test", "Spec", "Impl", "_impl"}

// stem reduces a base name to what related files share: no extensions, no
// locale suffix, no role marker, no interface "I" prefix. role reports
// whether a role marker or interface prefix was removed.
func stem(base string) (s string, role bool) {
	s = trimExt(base) // foo.spec.ts → foo.spec
	for _, suf := range roleSuffixes {
		if len(s) > len(suf) && strings.HasSuffix(s, suf) {
			s, role = strings.TrimSuffix(s, suf), true
			break
		}
	}
	if len(s) > 2 && s[0] == 'I' && isUpper(s[1]) && !isUpper(s[2]) {
		s, role = s[1:], true
	}
	s = stripLocale(s)
	if i := strings.IndexByte(s, '.'); i > 0 { // foo.pb → foo
		s = s[:i]
	}
	return strings.ToLower(s), role
}

// trimExt removes the last extension (not the leading dot of a dotfile).
func trimExt(base string) string {
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

// stripLocale removes a trailing _en, -zh_CN, _pt-BR from a resource name.
func stripLocale(s string) string {
	for _, sep := range []string{"_", "-", "."} {
		i := strings.Index(s, sep)
		for i > 0 {
			if isLocale(s[i+1:]) {
				return s[:i]
			}
			j := strings.Index(s[i+1:], sep)
			if j < 0 {
				break
			}
			i += j + 1
		}
	}
	return s
}

// languages are ISO 639-1 codes common in localisation file names.
var languages = map[string]bool{"en": true, "zh": true, "ja": true, "ko": true, "fr": true, "de": true,
	"es": true, "it": true, "pt": true, "ru": true, "ar": true, "nl": true, "sv": true, "pl": true,
	"tr": true, "vi": true, "th": true, "he": true, "uk": true, "cs": true, "da": true, "fi": true,
	"nb": true, "hu": true, "ro": true, "el": true, "hi": true, "ms": true, "fa": true}

// isLocale reports whether s is a language code with an optional region
// or script (en, zh_CN, pt-BR, zh-Hans).
func isLocale(s string) bool {
	lang, region, has := strings.Cut(strings.ReplaceAll(s, "-", "_"), "_")
	if !languages[lang] {
		return false
	}
	return !has || (len(region) >= 2 && len(region) <= 4 && !strings.ContainsAny(region, "_."))
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// unionFind joins file indices into sets.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u unionFind) join(a, b int) {
	ra, rb := u.find(a), u.find(b)
	if ra < rb {
		u[rb] = ra
	} else {
		u[ra] = rb
	}
}

// sets returns the sets in order of their smallest member, members ascending.
func (u unionFind) sets() [][]int {
	idx := map[int]int{}
	var out [][]int
	for i := range u {
		r := u.find(i)
		k, ok := idx[r]
		if !ok {
			k = len(out)
			idx[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}
