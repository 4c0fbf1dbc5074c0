// Package rules decides what the model looks for in each file: a built-in
// catalogue of per-language review rules (embedded Markdown, matched by
// doublestar globs, first match wins) overridden by rule.json files in Open
// Code Review's format.
package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ocr-ci/ocr/review"
)

// The repository rule files, in the order they are tried; the first that
// exists is the repository layer (OpenCodeRuleFile for Open Code Review
// compatibility).
const (
	RepoRuleFile     = ".ocr/rule.json"
	OpenCodeRuleFile = ".opencodereview/rule.json"
)

// The layers a Match can come from, first match wins in this order.
const (
	SourceFlag    = "flag"
	SourceRepo    = "repo"
	SourceBuiltin = "builtin"
)

// Options says where the rule files come from.
type Options struct {
	// RuleFile is the content of the --rule file; nil means no flag layer.
	RuleFile []byte
	// RuleFileName names the --rule file in errors and in `rules check`.
	RuleFileName string
	// RepoReader reads a repository-relative path. The runner passes a
	// reader at a trusted ref (--config-ref; the base in CI) so that a pull
	// request cannot rewrite the reviewer's instructions. It returns nil, nil
	// or an error matching fs.ErrNotExist for a missing file. Nil skips the
	// repository layer.
	RepoReader func(path string) ([]byte, error)
}

// layer is one parsed rule.json.
type layer struct {
	source, name string
	file         *File
}

// Set is the loaded rule layers plus the built-in catalogue.
type Set struct {
	layers  []layer
	builtin []builtin
}

// Match is the rule that applies to one path.
type Match struct {
	// Source is SourceFlag, SourceRepo or SourceBuiltin.
	Source string
	// File names the rule file for the flag and repo layers.
	File string
	// Pattern is the glob that matched; empty for the default rule.
	Pattern string
	// RuleID is the SARIF rule id: the built-in rule's id, or CustomRuleID
	// when a rule.json replaced the built-in text.
	RuleID string
	// Title is the rule's short name.
	Title string
	// Text is exactly what the model gets.
	Text string
}

// Load parses the flag and repository rule files and the catalogue.
func Load(opt Options) (*Set, error) {
	cat, err := loadCatalogue()
	if err != nil {
		return nil, err
	}
	s := &Set{builtin: cat}
	if opt.RuleFile != nil {
		name := opt.RuleFileName
		if name == "" {
			name = "--rule"
		}
		f, err := ParseFile(name, opt.RuleFile)
		if err != nil {
			return nil, err
		}
		s.layers = append(s.layers, layer{SourceFlag, name, f})
	}
	if opt.RepoReader == nil {
		return s, nil
	}
	l, err := readRepoLayer(opt.RepoReader)
	if err != nil || l == nil {
		return s, err
	}
	s.layers = append(s.layers, *l)
	return s, nil
}

// readRepoLayer returns the first repository rule file that exists, or nil.
func readRepoLayer(read func(string) ([]byte, error)) (*layer, error) {
	for _, name := range []string{RepoRuleFile, OpenCodeRuleFile} {
		data, err := read(name)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && data == nil) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("could not read rule file %s: %w", name, err)
		}
		f, err := ParseFile(name, data)
		if err != nil {
			return nil, err
		}
		return &layer{SourceRepo, name, f}, nil
	}
	return nil, nil
}

// Match returns the rule for path: the first matching pattern of the flag
// layer, then the repository layer, then the catalogue, then the default
// rule. Matching is case-insensitive (both sides are lowercased, as Open
// Code Review lowercases paths).
func (s *Set) Match(path string) Match {
	p := strings.ToLower(strings.TrimPrefix(path, "./"))
	sys := s.builtinMatch(p)
	for _, l := range s.layers {
		for _, r := range l.file.Rules {
			if !matchGlob(r.Path, p) {
				continue
			}
			m := Match{Source: l.source, File: l.name, Pattern: r.Path, RuleID: CustomRuleID,
				Title: "Project rule", Text: strings.TrimSpace(r.Rule)}
			if r.MergeSystemRule {
				m.RuleID, m.Title = sys.RuleID, sys.Title
				m.Text = sys.Text + "\n\nProject rules:\n" + m.Text
			}
			return m
		}
	}
	return sys
}

// builtinMatch matches a lowercased path against the catalogue.
func (s *Set) builtinMatch(p string) Match {
	for _, b := range s.builtin {
		for _, pat := range b.patterns {
			if matchGlob(pat, p) {
				return Match{Source: SourceBuiltin, Pattern: pat, RuleID: b.id, Title: b.title, Text: b.text}
			}
		}
	}
	d := s.builtin[len(s.builtin)-1]
	return Match{Source: SourceBuiltin, RuleID: d.id, Title: d.title, Text: d.text}
}

// Rule returns the reporters' description of the matched rule.
func (m Match) Rule() review.Rule {
	if m.RuleID == CustomRuleID {
		return review.Rule{ID: CustomRuleID, Title: m.Title,
			Description: "Instructions from the repository's rule.json or the --rule file.", Help: m.Text}
	}
	for _, e := range table() {
		if e.id != m.RuleID {
			continue
		}
		if b, err := e.load(); err == nil {
			return b.rule()
		}
		break
	}
	return review.Rule{ID: m.RuleID, Title: m.Title, Help: m.Text}
}

// Include returns the include globs of every layer, flag layer first.
func (s *Set) Include() []string {
	var out []string
	for _, l := range s.layers {
		out = append(out, l.file.Include...)
	}
	return out
}

// Exclude returns the exclude globs of every layer, flag layer first.
func (s *Set) Exclude() []string {
	var out []string
	for _, l := range s.layers {
		out = append(out, l.file.Exclude...)
	}
	return out
}

// Selects reports whether path passes include/exclude: it must match an
// include glob when there are any, and no exclude glob. The reason is
// "user_exclude" when it does not.
func (s *Set) Selects(path string) (ok bool, reason review.Reason) {
	p := strings.ToLower(strings.TrimPrefix(path, "./"))
	if inc := s.Include(); len(inc) > 0 && !anyGlob(inc, p) {
		return false, review.ReasonUserExclude
	}
	if anyGlob(s.Exclude(), p) {
		return false, review.ReasonUserExclude
	}
	return true, ""
}

// anyGlob reports whether one of globs matches the lowercased path p.
func anyGlob(globs []string, p string) bool {
	for _, g := range globs {
		if matchGlob(g, p) {
			return true
		}
	}
	return false
}

// matchGlob matches a validated glob, lowercased, against a lowercased path.
func matchGlob(glob, p string) bool {
	return doublestar.MatchUnvalidated(strings.ToLower(glob), p)
}
