package conversation

import (
	"fmt"
	"strings"
)

// Triage decides, from the event alone (no API call, no model), whether a
// comment asks anything of ocr. why is "" when it may; otherwise it says
// in one line why the comment costs nothing.
func Triage(ev Event, s Settings) (r Request, why string) {
	c := ev.Comment
	switch {
	case ev.Action != "created":
		return r, fmt.Sprintf("the comment was %s, not created: only new comments are answered", orDash(ev.Action))
	case !ev.OnPR:
		return r, "the comment is on an issue, not a pull request"
	case c.Author.Bot:
		return r, fmt.Sprintf("the comment is by a bot (%s): bots are never answered", c.Author.Login)
	case markedByOCR(c.Body):
		return r, "the comment is ocr's own"
	}
	r = Parse(c.Body, s.Handle)
	if r.Asks() || (s.AllReplies && ev.Kind == ThreadReply && c.Root != c.ID) {
		return r, ""
	}
	return r, fmt.Sprintf("the comment neither mentions @%s nor starts with a command (/%s help)", s.Handle, s.Handle)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
