package github

import (
	"fmt"
	"io"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Mask writes ::add-mask:: for every non-empty secret, and for each line of
// a multi-line secret (the runner masks line by line), so GitHub replaces
// them in the log. Call it before anything else is printed.
func Mask(w io.Writer, secrets ...string) error {
	for _, s := range secrets {
		for _, v := range maskValues(s) {
			cmd := &githubactions.Command{Name: "add-mask", Message: v}
			if _, err := io.WriteString(w, cmd.String()+"\n"); err != nil {
				return fmt.Errorf("could not mask secrets in the log: %w", err)
			}
		}
	}
	return nil
}

func maskValues(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	vals := []string{s}
	if strings.ContainsAny(s, "\r\n") {
		for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.TrimSpace(line) != "" {
				vals = append(vals, line)
			}
		}
	}
	return vals
}
