package github

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// Output writes step outputs to $GITHUB_OUTPUT: comments (count),
// max-severity ("" when none), status, and sarif (the SARIF path, when one
// was written). Values with line breaks use the heredoc form with a random
// delimiter that does not occur in the value.
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#multiline-strings
type Output struct {
	W io.Writer
	// SARIFPath is the path of the SARIF report, "" when none.
	SARIFPath string
	// Rand supplies heredoc delimiters; default crypto/rand.
	Rand io.Reader
}

var _ reporters.Reporter = (*Output)(nil)

// Report appends the outputs; suppressed comments are not counted.
func (g *Output) Report(_ context.Context, r *review.Review) error {
	r = r.Active()
	outs := [][2]string{
		{"comments", strconv.Itoa(len(r.Comments))},
		{"max-severity", string(reporters.MaxSeverity(r.Comments))},
		{"status", string(r.Status)},
	}
	if g.SARIFPath != "" {
		outs = append(outs, [2]string{"sarif", g.SARIFPath})
	}
	for _, kv := range outs {
		line, err := g.format(kv[0], kv[1])
		if err != nil {
			return err
		}
		if _, err := io.WriteString(g.W, line); err != nil {
			return fmt.Errorf("could not write step outputs to $GITHUB_OUTPUT: %w", err)
		}
	}
	return nil
}

// format renders name=value, or the heredoc form for multi-line values.
func (g *Output) format(name, value string) (string, error) {
	if !strings.ContainsAny(value, "\r\n") {
		return name + "=" + value + "\n", nil
	}
	for {
		delim, err := g.delimiter()
		if err != nil {
			return "", err
		}
		if !strings.Contains(value, delim) {
			return name + "<<" + delim + "\n" + value + "\n" + delim + "\n", nil
		}
	}
}

func (g *Output) delimiter() (string, error) {
	src := g.Rand
	if src == nil {
		src = rand.Reader
	}
	b := make([]byte, 16)
	if _, err := io.ReadFull(src, b); err != nil {
		return "", fmt.Errorf("could not generate a $GITHUB_OUTPUT delimiter: %w", err)
	}
	return "ghadelimiter_" + hex.EncodeToString(b), nil
}
