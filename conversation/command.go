package conversation

import (
	"regexp"
	"strings"
)

// Verb is a command.
type Verb string

// The commands.
const (
	VerbReview Verb = "review"
	VerbPause  Verb = "pause"
	VerbResume Verb = "resume"
	VerbIgnore Verb = "ignore"
	VerbHelp   Verb = "help"
)

var verbs = map[string]Verb{"review": VerbReview, "pause": VerbPause, "resume": VerbResume, "ignore": VerbIgnore, "help": VerbHelp}

// Request is what a comment asks of ocr.
type Request struct {
	// Command is set for "/ocr VERB" or "@ocr VERB" at the start of the
	// comment; Verb is "" for a verb ocr does not know (Unknown), which
	// gets the help text, never a model call.
	Command bool
	Verb    Verb
	Unknown string
	// Arg is the rest of the command's line (ignore's reason).
	Arg string
	// Mention is set when the comment mentions the handle outside code.
	Mention bool
	// Question is the comment without a leading mention.
	Question string
}

// Asks reports whether the request wants anything of ocr.
func (r Request) Asks() bool { return r.Command || r.Mention }

// Parse reads a comment's body for the handle (without "@"): a command at
// its start, or a mention anywhere outside code.
func Parse(body, handle string) Request {
	text := strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimSpace(first)
	if rest, ok := cutHandle(first, "/"+handle); ok {
		return command(rest, true)
	}
	if rest, ok := cutHandle(first, "@"+handle); ok {
		if r := command(rest, false); r.Command {
			return r
		}
		q, _ := cutHandle(text, "@"+handle)
		return Request{Mention: true, Question: strings.TrimLeft(q, " \t,:")}
	}
	return Request{Mention: mentions(text, handle), Question: text}
}

// cutHandle removes a leading "/ocr" or "@ocr" (case-insensitive) that is
// a whole word.
func cutHandle(s, h string) (string, bool) {
	if len(s) < len(h) || !strings.EqualFold(s[:len(h)], h) || (len(s) > len(h) && nameByte(s[len(h)])) {
		return "", false
	}
	return strings.TrimSpace(s[len(h):]), true
}

// command reads "VERB [ARG]". With "/ocr" anything is a command (an
// unknown verb gets the help); with "@ocr" only a known verb alone on its
// line, or ignore with a reason, is one: "@ocr review the error path?" is
// a question.
func command(rest string, slash bool) Request {
	word, arg, _ := strings.Cut(rest, " ")
	word, arg = strings.ToLower(strings.TrimRight(word, ".!:,")), strings.TrimSpace(arg)
	v, known := verbs[word]
	switch {
	case slash && !known:
		return Request{Command: true, Unknown: word}
	case slash, known && (arg == "" || v == VerbIgnore):
		return Request{Command: true, Verb: v, Arg: oneLine(arg)}
	}
	return Request{}
}

// codeRE matches fenced blocks and code spans, where a mention is not one.
var codeRE = regexp.MustCompile("(?s)```.*?(```|$)|`[^`\n]*`")

// mentions reports "@handle" as a whole word, not after a name character
// ("me@ocr.dev" is an address) and not in code.
func mentions(text, handle string) bool {
	text = codeRE.ReplaceAllString(text, " ")
	h := "@" + strings.ToLower(handle)
	lower := strings.ToLower(text)
	for i := strings.Index(lower, h); i >= 0; {
		end := i + len(h)
		if (i == 0 || !nameByte(lower[i-1])) && (end == len(lower) || !nameByte(lower[end])) {
			return true
		}
		next := strings.Index(lower[i+1:], h)
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// nameByte is a byte a login may hold.
func nameByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
