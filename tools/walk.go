package tools

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// skipDirs are never listed in a plain directory: version-control data and
// dependency trees that are not the project's code.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true}

// walk lists the files under root (relative, "/"-separated, in git's
// order), honouring every .gitignore on the way down. Symlinks are listed
// but not followed.
func walk(ctx context.Context, root string) ([]string, error) {
	rules := map[string][]ignoreRule{} // directory → its .gitignore rules
	var files []string
	err := filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped, not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(root, full)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rules[""] = readIgnore(full)
			return nil
		}
		if d.IsDir() {
			if skipDirs[d.Name()] || ignored(rules, rel, true) {
				return filepath.SkipDir
			}
			rules[rel] = readIgnore(full)
			return nil
		}
		if (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) && !ignored(rules, rel, false) {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// ignoreRule is one line of a .gitignore.
type ignoreRule struct {
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool // contains a "/" before its end: relative to the file's directory
}

// readIgnore parses dir/.gitignore.
func readIgnore(dir string) []ignoreRule {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	var out []ignoreRule
	for _, line := range strings.Split(string(data), "\n") {
		if r, ok := parseIgnoreLine(line); ok {
			out = append(out, r)
		}
	}
	return out
}

// parseIgnoreLine follows gitignore(5): comments, "!" negation, a trailing
// "/" for directories, a leading or middle "/" anchoring the pattern.
func parseIgnoreLine(line string) (ignoreRule, bool) {
	line = strings.TrimRight(strings.TrimSuffix(line, "\r"), " ")
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	r.anchored = strings.Contains(line, "/")
	r.pattern = strings.TrimPrefix(line, "/")
	return r, r.pattern != ""
}

// ignored applies the rules of rel's ancestors, root first; the last
// matching rule wins.
func ignored(rules map[string][]ignoreRule, rel string, isDir bool) bool {
	result := false
	dir := ""
	for {
		sub := strings.TrimPrefix(rel, dir)
		sub = strings.TrimPrefix(sub, "/")
		for _, r := range rules[dir] {
			if r.matches(sub, isDir) {
				result = !r.negate
			}
		}
		i := strings.IndexByte(sub, '/')
		if i < 0 {
			return result
		}
		dir = path.Join(dir, sub[:i])
	}
}

// matches reports whether the rule matches sub, a path relative to the
// directory of the rule's .gitignore.
func (r ignoreRule) matches(sub string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if !r.anchored {
		sub = path.Base(sub)
	}
	ok, _ := doublestar.Match(r.pattern, sub)
	return ok
}
