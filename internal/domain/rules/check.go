package rules

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteCheck prints, for each path, the layer, the file and pattern that
// matched, the rule id and the exact text the model gets (`ocr rules check`).
func WriteCheck(w io.Writer, s *Set, paths ...string) error {
	var b strings.Builder
	for i, p := range paths {
		m := s.Match(p)
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "File:    %s\n", p)
		fmt.Fprintf(&b, "Source:  %s\n", sourceLabel(m))
		fmt.Fprintf(&b, "Pattern: %s\n", orNone(m.Pattern, "(none: default rule)"))
		fmt.Fprintf(&b, "Rule:    %s (%s)\n", m.RuleID, m.Title)
		fmt.Fprintf(&b, "----\n%s\n----\n", m.Text)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("could not write the rule check: %w", err)
	}
	return nil
}

// WriteList prints the built-in catalogue in match order (`ocr rules list`).
func WriteList(w io.Writer) error {
	cat, err := loadCatalogue()
	if err != nil {
		return err
	}
	var rows strings.Builder
	rows.WriteString("ID\tTITLE\tPATTERNS\n")
	for _, b := range cat {
		fmt.Fprintf(&rows, "%s\t%s\t%s\n", b.id, b.title, orNone(strings.Join(b.patterns, " "), "(everything else)"))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if _, err := io.WriteString(tw, rows.String()); err != nil {
		return fmt.Errorf("could not write the rule list: %w", err)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("could not write the rule list: %w", err)
	}
	return nil
}

// sourceLabel says where a match came from, naming the file for rule.json layers.
func sourceLabel(m Match) string {
	switch m.Source {
	case SourceFlag:
		return "flag (--rule " + m.File + ")"
	case SourceRepo:
		return "repo (" + m.File + ")"
	}
	return "builtin"
}

// orNone returns s, or alt when s is empty.
func orNone(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
