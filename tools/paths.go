package tools

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// cleanPath normalises a path from the model: `\` becomes `/`, leading
// "./" and surrounding space go, "." becomes "". An absolute path is read
// from the repository root ("/src/a.go" is "src/a.go"), as models write
// it; a ".." that would climb above the root is kept for safePath to
// refuse. It does not check safety.
func cleanPath(p string) string {
	p = fromRoot(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/"))
	if p == "" {
		return ""
	}
	p = path.Clean(p)
	if p == "." {
		return ""
	}
	return p
}

// literalPath is p as given, trimmed and cleaned but with `\` kept: git
// paths may hold a backslash, which cleanPath reads as a separator. ok is
// false when p has no backslash (cleanPath's form is then the only one).
func literalPath(p string) (string, bool) {
	if !strings.Contains(p, `\`) {
		return "", false
	}
	lit := fromRoot(strings.TrimSpace(p))
	if lit == "" {
		return "", false
	}
	lit = path.Clean(lit)
	return lit, lit != "." && lit != ""
}

// fromRoot drops the leading slashes of an absolute path before it is
// cleaned, so "/src/a.go" names src/a.go in the repository and "/../x"
// stays a climb ("../x") instead of being cleaned to "x" or "/x".
func fromRoot(p string) string { return strings.TrimLeft(p, "/") }

// knownPath is the path the model meant among known ones: p as given when
// it holds a backslash and names a known file, else cleanPath(p).
func knownPath(p string, known func(string) bool) string {
	if lit, ok := literalPath(p); ok && known(lit) {
		return lit
	}
	return cleanPath(p)
}

// errOutside is returned for a path that could leave the repository.
var errOutside = errors.New("outside repository")

// safePath returns the clean relative form of p (an absolute path read
// from the repository root), or an error when p climbs with "..", is a
// drive path, points into .git, or holds a NUL byte.
func safePath(p string) (string, error) {
	c := cleanPath(p)
	switch {
	case c == "":
		return "", fmt.Errorf("file path %q is empty", p)
	case strings.ContainsRune(c, 0), isDrive(c),
		c == "..", strings.HasPrefix(c, "../"):
		return "", fmt.Errorf("file path %q is %w", p, errOutside)
	}
	for _, part := range strings.Split(c, "/") {
		if strings.EqualFold(part, ".git") {
			return "", fmt.Errorf("file path %q is inside .git, which is not part of the code", p)
		}
	}
	return c, nil
}

// isDrive reports a Windows drive path such as C:/x.
func isDrive(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}
