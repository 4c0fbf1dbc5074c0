package selection

import (
	"bufio"
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/internal/infra/git"
)

// generatedHeaderLines is how far into a file a generated-code marker counts.
const generatedHeaderLines = 10

// GeneratedProbe returns a func that reports whether a changed file's header
// says it is generated. One `git grep` over all changed files answers every
// question, run the first time one is asked.
func GeneratedProbe(ctx context.Context, repo *git.Repo, files []udiff.File, ref string) func(string) bool {
	var (
		once sync.Once
		set  map[string]bool
	)
	return func(p string) bool {
		once.Do(func() { set = grepGenerated(ctx, repo, files, ref) })
		return set[p]
	}
}

// grepGenerated greps the changed files at ref ("" for the work tree).
func grepGenerated(ctx context.Context, repo *git.Repo, files []udiff.File, ref string) map[string]bool {
	var paths []string
	for _, f := range files {
		if f.Status != udiff.StatusDeleted && !f.Binary {
			paths = append(paths, ":(literal)"+f.NewPath)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	out, err := repo.Grep(ctx, git.GrepOptions{
		Pattern: generatedPattern(), Perl: true,
		Ref: ref, Untracked: ref == "", MaxCount: 1, Pathspecs: paths,
	})
	if err != nil {
		return nil // a failed probe only means fewer files are recognised as generated
	}
	return parseGeneratedGrep(out, ref)
}

// parseGeneratedGrep reads `git grep -n` lines ("[REF:]path:line:text") and
// keeps the paths whose match lies in the header.
func parseGeneratedGrep(out []byte, ref string) map[string]bool {
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if ref != "" {
			line = strings.TrimPrefix(line, ref+":")
		}
		p, rest, ok := cutGrepPath(line)
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(num); err == nil && n <= generatedHeaderLines {
			set[p] = true
		}
	}
	return set
}

// cutGrepPath splits "path:rest" where git C-quotes a path holding a quote,
// a backslash or a control character ("gen\"x.go":1:...).
func cutGrepPath(line string) (path, rest string, ok bool) {
	if !strings.HasPrefix(line, `"`) {
		return strings.Cut(line, ":")
	}
	for i := 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			p, err := strconv.Unquote(line[:i+1])
			if err != nil || i+1 >= len(line) || line[i+1] != ':' {
				return "", "", false
			}
			return p, line[i+2:], true
		}
	}
	return "", "", false
}

// generatedPattern is the Perl regexp of isGeneratedMarker's markers.
func generatedPattern() string {
	alts := []string{`Code generated .* DO NOT EDIT`, `@generated`}
	for _, m := range reportMarkers {
		alts = append(alts, regexp.QuoteMeta(m))
	}
	return strings.Join(alts, "|")
}
