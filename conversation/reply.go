package conversation

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/ocr-ci/ocr/reporters/posting"
	"github.com/ocr-ci/ocr/review"
)

// maxQuote bounds the question quoted above an answer on the pull request.
const maxQuote = 1500

// body ends a reply with ocr's hidden marker, on a line of its own after
// everything else, where it alone is read.
func body(text, marker string) string {
	return strings.TrimRight(text, "\n") + "\n\n" + marker
}

// answerBody is the model's answer, escaped exactly like a finding and
// capped like a comment body, quoting the question when it is asked on
// the pull request (quote non-empty).
func answerBody(answer, quote string) string {
	var b strings.Builder
	if quote != "" {
		for _, l := range strings.Split(posting.SafeText(quote, maxQuote), "\n") {
			b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(posting.SafeText(answer, posting.MaxBody-b.Len()-200))
	return body(b.String(), answerMarker)
}

// helpText is the commands, in one short comment.
func helpText(handle string) string {
	return body(fmt.Sprintf("ocr answers trusted reviewers and takes their commands:\n\n"+
		"- `@%[1]s <question>` on the pull request, or in reply to one of ocr's findings: an answer.\n"+
		"- `/%[1]s review`: review the pull request now.\n"+
		"- `/%[1]s pause` / `/%[1]s resume`: while paused, new pushes get no inline comments (the reports are still written).\n"+
		"- `/%[1]s ignore [reason]` in reply to a finding: never post it again on this pull request.\n"+
		"- `/%[1]s help`: this list.", handle), answerMarker)
}

// unknownText answers a verb ocr does not know.
func unknownText(handle, verb string) string {
	return body(fmt.Sprintf("ocr does not know the command %s. ", posting.SafeInline("`"+strings.ReplaceAll(verb, "`", "")+"`"))+
		strings.TrimSuffix(helpText(handle), "\n\n"+answerMarker), answerMarker)
}

// untrustedText is the fixed reply to someone who may not ask.
func untrustedText(trust []string) string {
	who := make([]string, 0, len(trust))
	for _, t := range trust {
		if t == "author" {
			t = "the pull request's author"
		}
		who = append(who, strings.ToLower(t))
	}
	return body("ocr answers only "+strings.Join(who, ", ")+" of this repository (its `OCR_CHAT_TRUST` setting); "+
		"a maintainer can ask on your behalf.", outsiderMarker)
}

// failedText says an answer could not be produced, with the reason's
// name only: a provider's message may hold anything.
func failedText(reason review.Reason) string {
	return body(fmt.Sprintf("ocr could not produce an answer this time (%s). The job's log says more; ask again later.",
		posting.SafeInline(string(reason))), answerMarker)
}

// closedText answers "/ocr review" on a closed or merged pull request.
func closedText(state string) string {
	return body("ocr does not review a "+state+" pull request: reopen it to have it reviewed. Questions are still answered.", answerMarker)
}

// setupFailedText says, neutrally, that the answer could not be prepared
// (a configuration error, a repository that cannot be read): no reason's
// name, no message; the job's log says which file and what is wrong.
func setupFailedText() string {
	return body("ocr could not answer this time: the job could not prepare the answer. "+
		"A maintainer can find why in the job's log.", answerMarker)
}

// pauseText and resumeText confirm the commands; ack is the
// acknowledgement marker that makes them count (ackMarker).
func pauseText(handle, ack string) string {
	return body(fmt.Sprintf("Paused: new pushes get no inline comments from ocr, and the summary says so; "+
		"the SARIF report and the annotations are still written. `/%s resume` to resume.", handle), ack)
}

func resumeText(ack string) string {
	return body("Resumed: the next push is reviewed and its findings are posted.", ack)
}

// notOursText answers "ignore" outside a thread of ocr's findings.
func notOursText(handle string) string {
	return body(fmt.Sprintf("`/%s ignore` works in reply to one of ocr's findings: there is none to ignore here.", handle), answerMarker)
}

// ruleEntry is a rule.json ignore entry: one finding everywhere (by its
// fingerprint), or a kind of finding (like, in the files of a path glob).
type ruleEntry struct {
	Fingerprint string `json:"fingerprint,omitempty"`
	Path        string `json:"path,omitempty"`
	Like        string `json:"like,omitempty"`
	Category    string `json:"category,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// ignoredText confirms an ignore and shows the rule.json entries that would
// make it permanent: this finding, and findings like it in the files of
// its directory; its marker records the fingerprint for later runs.
func ignoredText(fp string, root Note, by, reason string) string {
	entries := []ruleEntry{{Fingerprint: fp, Path: root.Path, Reason: oneLine(reason)}}
	if like, ok := likeEntry(root, oneLine(reason)); ok {
		entries = append(entries, like)
	}
	entry, _ := json.MarshalIndent(map[string][]ruleEntry{"ignore": entries}, "", "  ")
	fence := posting.Fence(string(entry))
	text := "Ignored on this pull request: ocr will not post this finding here again, and this thread is resolved.\n\n" +
		"To ignore it in the whole repository, add the first entry to `.ocr/rule.json` on the default branch; " +
		"the second ignores findings like it (same category, most of the `like` words) in the files its `path` matches:\n\n" +
		fence + "json\n" + string(entry) + "\n" + fence
	return body(posting.SafeText(text, posting.MaxBody-200), ignoredMarker(fp, by, oneLine(reason)))
}

// likeEntry is the rule.json entry that ignores findings like root's: its
// category, its text's first line, the files of its directory.
func likeEntry(root Note, reason string) (ruleEntry, bool) {
	f, ok := posting.FindingOf(root.Body, root.Path, root.StartLine, root.Line)
	like := posting.FirstLine(f.Content, 120)
	if !ok || like == "" {
		return ruleEntry{}, false
	}
	glob := "**"
	if dir := path.Dir(root.Path); root.Path != "" && dir != "." {
		glob = dir + "/**"
	}
	return ruleEntry{Path: glob, Like: like, Category: string(f.Category), Reason: reason}, true
}
