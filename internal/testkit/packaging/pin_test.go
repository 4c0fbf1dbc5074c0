package packaging

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// use is one `uses:` with the comment on its line.
type use struct{ where, ref, comment string }

var (
	shaPin     = regexp.MustCompile(`^([\w.-]+/[\w.-]+)(/[\w./-]+)?@[0-9a-f]{40}$`)
	versionTag = regexp.MustCompile(`^# v\d+\.\d+\.\d+$`)
	ownRelease = regexp.MustCompile(`^ocr-ci/ocr@v\d+(\.\d+){0,2}$`)
	yamlBlock  = regexp.MustCompile("(?s)```yaml\n(.*?)```")
)

// usesIn returns every uses: of a YAML document, at any depth.
func usesIn(t *testing.T, where string, data []byte) []use {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var out []use
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "uses" {
				out = append(out, use{fmt.Sprintf("%s:%d", where, v.Line), v.Value, v.LineComment})
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// allUses: the project's workflows, the action, the example workflows and
// every YAML block of the docs, which users copy.
func allUses(t *testing.T) []use {
	var out []use
	for _, pattern := range []string{".github/workflows/*.yml", "action.yml", "docs/examples/*.yml"} {
		files, _ := filepath.Glob(filepath.Join(root(), pattern))
		for _, f := range files {
			rel, _ := filepath.Rel(root(), f)
			out = append(out, usesIn(t, rel, read(t, rel))...)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(root(), "docs", "*.md"))
	for _, p := range append(pages, filepath.Join(root(), "README.md")) {
		rel, _ := filepath.Rel(root(), p)
		for i, m := range yamlBlock.FindAllSubmatch(read(t, rel), -1) {
			out = append(out, usesIn(t, fmt.Sprintf("%s (YAML block %d)", rel, i+1), m[1])...)
		}
	}
	return out
}

// TestActionsPinnedBySHA: a tag of a third-party action can be moved to
// other code; a commit cannot. Every third-party `uses:` names a full
// commit SHA with its release in a comment (`@<40 hex> # v1.2.3`), and an
// action is pinned to the same commit everywhere (so the cosign that the
// action installs is the one the release workflow signs with). Exempt:
// local actions (./) and this project's own action by release tag in the
// examples (docs/ and README.md's quick start), whose install verifies the
// signed binary (docs/security.md).
func TestActionsPinnedBySHA(t *testing.T) {
	uses := allUses(t)
	if len(uses) < 15 {
		t.Fatalf("found %d uses:, want the workflows', the action's and the docs' (at least 15)", len(uses))
	}
	pinnedAt := map[string]use{}
	for _, u := range uses {
		switch {
		case strings.HasPrefix(u.ref, "./"):
			continue
		case ownRelease.MatchString(u.ref):
			if !strings.HasPrefix(u.where, "docs/") && !strings.HasPrefix(u.where, "README.md") {
				t.Errorf("%s: uses %s: the project's own workflows use ./", u.where, u.ref)
			}
			continue
		}
		m := shaPin.FindStringSubmatch(u.ref)
		if m == nil || !versionTag.MatchString(u.comment) {
			t.Errorf("%s: uses %s %s: pin a full commit SHA with its release in a comment (uses: owner/repo@<40 hex> # v1.2.3)", u.where, u.ref, u.comment)
			continue
		}
		sha := u.ref[strings.LastIndex(u.ref, "@"):]
		if first, ok := pinnedAt[m[1]]; ok && (first.ref[strings.LastIndex(first.ref, "@"):] != sha || first.comment != u.comment) {
			t.Errorf("%s: %s %s, but %s pins %s %s: pin one commit of %s everywhere", u.where, u.ref, u.comment, first.where, first.ref, first.comment, m[1])
		} else if !ok {
			pinnedAt[m[1]] = u
		}
	}
}
