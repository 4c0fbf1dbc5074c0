package config

import (
	"strings"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// ReportList lists the reports a review will write: --format/--output as
// one report, then every --report; text when nothing is asked for.
func (c *Config) ReportList() []string {
	var out []string
	if c.Format != "" {
		// --format writes to --output, else to stdout, whatever the kind's
		// default file for --report is.
		spec := strings.ToLower(strings.TrimSpace(c.Format))
		switch {
		case c.Output != "":
			spec += "=" + c.Output
		case !reportspec.Kind(spec).API():
			spec += "=" + reportspec.Stdout
		}
		out = append(out, spec)
	}
	out = append(out, c.Reports...)
	if len(out) == 0 {
		out = []string{"text"}
	}
	return out
}
