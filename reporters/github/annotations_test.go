package github_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/reporters/github"
	"github.com/ocr-ci/ocr/reporters/internal/reportertest"
	"github.com/ocr-ci/ocr/review"
)

func annotate(t testing.TB, a *github.Annotations, r *review.Review) string {
	t.Helper()
	var buf bytes.Buffer
	a.W = &buf
	if err := a.Report(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestAnnotationsGolden(t *testing.T) {
	for name, r := range reportertest.FixtureCases() {
		t.Run(name, func(t *testing.T) {
			reportertest.AssertGolden(t, name+".annotations.golden", []byte(annotate(t, &github.Annotations{}, r)))
		})
	}
}

// parsedCommand is a workflow command as the runner reads one log line.
type parsedCommand struct {
	name    string
	props   map[string]string
	message string
}

// parseCommandLine mimics the runner's ActionCommand.TryParseV2: a line is a
// command when it starts (after leading spaces) with "::"; the name and
// properties run to the next "::", the rest is the message; values are
// unescaped.
func parseCommandLine(line string) (parsedCommand, bool) {
	line = strings.TrimLeft(line, " \t\v\f\u00a0\u2000\u2001\u2002\u2003\u3000")
	if !strings.HasPrefix(line, "::") {
		return parsedCommand{}, false
	}
	head, msg, ok := strings.Cut(line[2:], "::")
	if !ok {
		return parsedCommand{}, false
	}
	name, propStr, _ := strings.Cut(head, " ")
	c := parsedCommand{name: name, props: map[string]string{}, message: unescapeData(msg)}
	for _, kv := range strings.Split(propStr, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			c.props[k] = unescapeProperty(v)
		}
	}
	return c, true
}

func unescapeData(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

func unescapeProperty(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// checkCommands asserts every output line is exactly one of our commands
// and the adversarial text round-trips into the message.
func checkCommands(t testing.TB, out string, _ *review.Review) []parsedCommand {
	t.Helper()
	if !strings.HasSuffix(out, "\n") && out != "" {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	var cmds []parsedCommand
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if out == "" {
			break
		}
		if strings.ContainsAny(line, "\r\u2028\u2029\u0085") {
			t.Errorf("line %d contains a line separator: %q", i, line)
		}
		c, ok := parseCommandLine(line)
		if !ok || !strings.HasPrefix(line, "::") {
			t.Fatalf("line %d is not a command we wrote: %q", i, line)
		}
		if c.name != "error" && c.name != "warning" && c.name != "notice" {
			t.Errorf("line %d: command %q", i, c.name)
		}
		for k := range c.props {
			if k != "file" && k != "line" && k != "endLine" && k != "title" {
				t.Errorf("line %d: unexpected property %q in %q", i, k, line)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func TestAnnotationsEscaping(t *testing.T) {
	r := reportertest.FixtureReview()
	cmds := checkCommands(t, annotate(t, &github.Annotations{}, r), r)
	var bug parsedCommand
	for _, c := range cmds {
		if c.props["line"] == "42" {
			bug = c
		}
	}
	want := strings.TrimSpace(r.Comments[0].Content)
	if bug.message != want || bug.props["title"] != "bug · high" || bug.props["file"] != "cmd/main.go" {
		t.Errorf("adversarial comment did not round-trip:\n got %q %v\nwant %q", bug.message, bug.props, want)
	}
}

func TestAnnotationsLimits(t *testing.T) {
	r := &review.Review{Status: review.StatusComplete}
	for i := 0; i < 15; i++ {
		for _, s := range []review.Severity{review.SeverityLow, review.SeverityHigh, review.SeverityMedium} {
			r.Comments = append(r.Comments, review.Comment{Location: review.Location{Path: fmt.Sprintf("f%02d.go", i), Side: review.SideNew, StartLine: i + 1, EndLine: i + 1},
				Content: "x", Severity: s, Category: review.CategoryBug})
		}
	}
	cmds := checkCommands(t, annotate(t, &github.Annotations{}, r), r)
	count := map[string]int{}
	for _, c := range cmds {
		count[c.name]++
	}
	if count["error"] != 10 || count["warning"] != 10 || count["notice"] != 10 {
		t.Errorf("per level = %v, want 10 each (9 low + 1 closing notice)", count)
	}
	if cmds[0].name != "error" || !strings.Contains(cmds[len(cmds)-1].message, "16 more finding(s)") {
		t.Errorf("order or closing notice wrong: first %q, last %q", cmds[0].name, cmds[len(cmds)-1].message)
	}
}

func TestMask(t *testing.T) {
	var buf bytes.Buffer
	if err := github.Mask(&buf, "sk-abc", "", "line1\nline2%"); err != nil {
		t.Fatal(err)
	}
	want := "::add-mask::sk-abc\n::add-mask::line1%0Aline2%25\n::add-mask::line1\n::add-mask::line2%25\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}
