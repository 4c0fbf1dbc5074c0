package conversation

import (
	"context"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/ocr-ci/ocr/tools"
)

//go:embed prompts/system.tmpl prompts/thread.tmpl prompts/pr.tmpl
var promptFS embed.FS

// Bounds of what one prompt carries of people's text: the tools can read
// the code, and a long thread must not cost every request its length.
const (
	maxTextChars   = 4000
	maxThread      = 30
	maxFiles       = 100
	maxFindings    = 40
	codeContext    = 15
	maxCodeColumns = 300
)

var prompts = template.Must(template.ParseFS(promptFS, "prompts/*.tmpl"))

func render(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Sprintf("(prompt %s failed to render: %v)", name, err) // our data: caught by the tests
	}
	return strings.TrimSpace(b.String())
}

// systemPrompt is the system message of every answer.
func systemPrompt(handle, language string) string {
	if strings.TrimSpace(language) == "" {
		language = "English"
	}
	return render("system.tmpl", struct{ Handle, Language string }{handle, language})
}

// delimiters are the tags of the prompts: people's text cannot close one.
var delimiters = regexp.MustCompile(`(?i)<(/?)(finding|code|thread|comment|question|pull_request|title|description|changed_files|findings)\b`)

// data is people's text as the prompt carries it: cut, and unable to
// close or open one of the prompt's tags (the "<" of such a tag becomes
// "‹"), so it stays data between the delimiters.
func data(s string, n int) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "\n… (cut)"
	}
	return delimiters.ReplaceAllString(s, "‹$1$2")
}

// attr is an attribute value: one line, no quote.
func attr(s string) string {
	return strings.NewReplacer(`"`, "'", "\n", " ", "\r", " ", "<", "‹", ">", "›").Replace(s)
}

// promptFinding is ocr's finding a thread is about.
type promptFinding struct{ Severity, Category, Where, Text string }

// promptCode is the code around the finding's line at the head.
type promptCode struct {
	Path     string
	From, To int
	Text     string
}

type promptComment struct{ Author, Text string }

// threadData fills thread.tmpl.
type threadData struct {
	Finding  *promptFinding
	Code     *promptCode
	Thread   []promptComment
	Asker    string
	Question string
}

// headerRE reads a finding's first line: "**High** · bug".
var headerRE = regexp.MustCompile(`^\*\*([A-Za-z]+)\*\* · ([a-z_-]+)`)

// findingOf reads ocr's finding from its comment.
func findingOf(root Note) *promptFinding {
	body := strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(root.Body, "\n "), lastLine(root.Body)))
	f := &promptFinding{Severity: "unknown", Category: "unknown", Where: where(root)}
	if m := headerRE.FindStringSubmatch(body); m != nil {
		f.Severity, f.Category = strings.ToLower(m[1]), m[2]
		_, body, _ = strings.Cut(body, "\n")
	}
	f.Text = data(body, maxTextChars)
	return f
}

// firstLine is the first non-empty line of s, at most 200 bytes.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return data(l, 200)
		}
	}
	return ""
}

func where(n Note) string {
	switch {
	case n.Line == 0:
		return attr(n.Path)
	case n.StartLine > 0 && n.StartLine < n.Line:
		return fmt.Sprintf("%s lines %d-%d", attr(n.Path), n.StartLine, n.Line)
	}
	return fmt.Sprintf("%s line %d", attr(n.Path), n.Line)
}

// codeAround reads the lines around root's line at the head; nil when the
// thread has no line (a file comment, an outdated line) or the file
// cannot be read.
func codeAround(ctx context.Context, src tools.Source, root Note) *promptCode {
	if src == nil || root.Line <= 0 || root.Path == "" {
		return nil
	}
	b, err := src.ReadFile(ctx, root.Path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	start := max(1, min(root.Line, max(root.StartLine, 1))-codeContext)
	end := min(len(lines), root.Line+codeContext)
	if start > end {
		return nil
	}
	var t strings.Builder
	for i := start; i <= end; i++ {
		l := lines[i-1]
		if len(l) > maxCodeColumns {
			l = l[:maxCodeColumns] + "…"
		}
		fmt.Fprintf(&t, "%d: %s\n", i, l)
	}
	return &promptCode{Path: attr(root.Path), From: start, To: end, Text: data(t.String(), 64_000)}
}

// threadPrompt is the user message for a reply in a thread.
func threadPrompt(ctx context.Context, src tools.Source, thread []Note, ocrThread bool, asked Note, question string) string {
	d := threadData{Asker: attr(asked.Author.Login), Question: data(question, maxTextChars)}
	if len(thread) > 0 && ocrThread {
		d.Finding = findingOf(thread[0])
	}
	if len(thread) > 0 {
		d.Code = codeAround(ctx, src, thread[0])
	}
	if len(thread) > maxThread {
		thread = append(thread[:1:1], thread[len(thread)-maxThread+1:]...)
	}
	for _, n := range thread {
		if n.ID == asked.ID {
			continue
		}
		d.Thread = append(d.Thread, promptComment{Author: attr(n.Author.Login), Text: data(withoutMarker(n.Body), maxTextChars)})
	}
	return render("thread.tmpl", d)
}

// prData fills pr.tmpl.
type prData struct {
	Title, Description string
	Files, Findings    []string
	Asker, Question    string
}

// prPrompt is the user message for a question on the pull request.
func prPrompt(pr PullRequest, files, findings []string, asked Note, question string) string {
	d := prData{Title: data(pr.Title, 300), Description: data(pr.Body, maxTextChars),
		Asker: attr(asked.Author.Login), Question: data(question, maxTextChars)}
	for i, f := range files {
		if i == maxFiles {
			d.Files = append(d.Files, fmt.Sprintf("… and %d more", len(files)-maxFiles))
			break
		}
		d.Files = append(d.Files, data(f, 300))
	}
	for _, f := range findings[:min(len(findings), maxFindings)] {
		d.Findings = append(d.Findings, data(f, 400))
	}
	return render("pr.tmpl", d)
}

// withoutMarker drops ocr's hidden marker line from a body.
func withoutMarker(body string) string {
	if markedByOCR(body) {
		return strings.TrimSuffix(strings.TrimRight(body, " \t\r\n"), lastLine(body))
	}
	return body
}
