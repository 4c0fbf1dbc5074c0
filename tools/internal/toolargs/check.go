package toolargs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/textdist"
)

// Check refuses a call whose argument names do not fit the schema the
// model was offered: an unknown name (listing the valid ones, with the
// likely one first) or a missing required one. Arguments that are not a
// JSON object are left to the tool, which says so.
func (p Schema) Check(tool, raw string) error {
	a := Parse([]byte(raw))
	if a.err != nil {
		return nil
	}
	var unknown []string
	for name := range a.m {
		if !slices.Contains(p.names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return errors.New(unknownArgs(tool, p.names, unknown))
	}
	for _, name := range p.required {
		if _, ok := a.Get(name); !ok {
			return errors.New(requiredArg(name, p.hints[name]))
		}
	}
	return nil
}

// unknownArgs says which names are not arguments of tool and which are.
func unknownArgs(tool string, valid, unknown []string) string {
	var b strings.Builder
	quoted := make([]string, len(unknown))
	for i, u := range unknown {
		quoted[i] = fmt.Sprintf("%q", u)
	}
	if len(unknown) == 1 {
		fmt.Fprintf(&b, "%s has no argument %s", tool, quoted[0])
	} else {
		fmt.Fprintf(&b, "%s has no arguments %s", tool, strings.Join(quoted, ", "))
	}
	end := "."
	if len(unknown) == 1 {
		if guess := closest(unknown[0], valid); guess != "" {
			fmt.Fprintf(&b, "; did you mean %q", guess)
			end = "?"
		}
	}
	if len(valid) == 0 {
		b.WriteString(end + " It takes no arguments; call it with {}.")
		return b.String()
	}
	fmt.Fprintf(&b, "%s Its arguments are: %s. Call it again with these names.", end, strings.Join(valid, ", "))
	return b.String()
}

// requiredArg says a required argument is missing and what it takes.
func requiredArg(name, hint string) string {
	if hint == "" || hint == "a string" {
		return name + " is required"
	}
	return fmt.Sprintf("%s is required (%s)", name, hint)
}

// closest is the valid name the model most likely meant: a known alias,
// one that contains
// the unknown name or is contained in it, else one within two edits, else
// one that begins the same way ("paths" for "path_array").
func closest(name string, valid []string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if len(n) < 3 {
		return ""
	}
	if v := searchAliases[n]; v != "" && slices.Contains(valid, v) {
		return v
	}
	for _, v := range valid {
		if strings.Contains(v, n) || strings.Contains(n, v) {
			return v
		}
	}
	for _, v := range valid {
		if textdist.Levenshtein(n, v) <= 2 {
			return v
		}
	}
	for _, v := range valid {
		if len(v) >= 4 && strings.HasPrefix(n, v[:4]) {
			return v
		}
	}
	return ""
}

// searchAliases are names models give the search text, which a substring
// rule would map to file_patterns or nothing.
var searchAliases = map[string]string{
	"pattern": "search_text", "query": "search_text", "regex": "search_text", "search": "search_text", "text": "search_text",
}
