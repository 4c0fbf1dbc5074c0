package runner

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review"
)

// A pull request's .gitattributes must not make its code "binary" and so
// unreviewed: git's diff runs without the work tree's attributes.
func TestPullRequestAttributesCannotHideFiles(t *testing.T) {
	t.Parallel()
	for _, attrs := range []string{"*.go -diff\n", "* binary\n", "evil.go -text -diff\n"} {
		t.Run(strings.TrimSpace(attrs), func(t *testing.T) {
			t.Parallel()
			r := newTestRepo(t)
			r.write("evil.go", "package evil\n")
			base := r.commit("base")
			r.write(".gitattributes", attrs)
			r.write("evil.go", "package evil\n\nfunc Steal() { exfiltrate() }\n")
			r.commit("pr")
			p := previewJSON(t, "--repo", r.dir, "--from", base, "--to", "HEAD")
			checkReasons(t, p, map[string]review.Reason{"evil.go": ""})
		})
	}
}
