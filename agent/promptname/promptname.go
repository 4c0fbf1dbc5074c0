// Package promptname writes file names into prompts so that a name chosen
// by a pull request's author cannot forge a section of the prompt.
package promptname

import (
	"strconv"
	"strings"
	"unicode"
)

// Name is how a file name appears in a prompt: as is when it is
// plain, quoted like a Go string otherwise. A name is chosen by the pull
// request's author, and a raw line break, quote or angle bracket in it
// could end the list or tag it sits in and forge a section of the prompt
// (a "### Review rules" of its own).
func Name(p string) string {
	if !strings.ContainsFunc(p, unsafeInName) {
		return p
	}
	return angles.Replace(strconv.Quote(p))
}

// Names applies Name to each name.
func Names(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = Name(p)
	}
	return out
}

// angles escapes what strconv.Quote leaves, so a quoted name holds no tag.
var angles = strings.NewReplacer("<", `\u003c`, ">", `\u003e`)

// unsafeInName reports runes that must not reach a prompt raw: line breaks
// and other controls, invisible and format characters, quotes, backslashes
// and the angle brackets of the prompt's tags.
func unsafeInName(r rune) bool {
	switch r {
	case '"', '\\', '<', '>', '`':
		return true
	}
	return !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r)
}
