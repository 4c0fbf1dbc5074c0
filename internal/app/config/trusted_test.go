package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileSourceReadsInsideTheRepositoryAtTheRef: every spelling of a
// path inside the repository (relative, ./, .., absolute, through a
// symlinked directory of the checkout) is read at the trusted ref by its
// repository path; a path outside is read from disk.
func TestFileSourceReadsInsideTheRepositoryAtTheRef(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ci", "rule.json"), []byte("checkout"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "rule.json"), []byte("disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	var asked []string
	src := FileSource{Ref: "base", Root: root, Getwd: func() (string, error) { return root, nil },
		ReadAt: func(ref, rel string) ([]byte, error) {
			asked = append(asked, ref+":"+rel)
			if rel == "missing.md" {
				return nil, errors.New("not found")
			}
			return []byte("trusted"), nil
		}}
	for path, want := range map[string]string{
		"ci/rule.json": "base:ci/rule.json", "./ci/rule.json": "base:ci/rule.json", "ci/../ci/rule.json": "base:ci/rule.json",
		filepath.Join(root, "ci", "rule.json"): "base:ci/rule.json", "link/rule.json": "base:link/rule.json",
	} {
		asked = nil
		data, err := src.Read("--rule", path)
		if err != nil || string(data) != "trusted" || len(asked) != 1 || asked[0] != want {
			t.Errorf("%s: %q, %v, asked %v; want the file at %s", path, data, err, asked, want)
		}
	}
	asked = nil
	if data, err := src.Read("--rule", filepath.Join(outside, "rule.json")); err != nil || string(data) != "disk" || len(asked) != 0 {
		t.Errorf("outside the repository: %q, %v, %v", data, err, asked)
	}
	if _, err := src.Read("--background-file", "missing.md"); err == nil || !strings.Contains(err.Error(), "trusted ref base") {
		t.Errorf("missing at the ref: %v", err)
	}
	if data, err := (FileSource{Root: root, Getwd: src.Getwd}).Read("--rule", filepath.Join(root, "ci", "rule.json")); err != nil || string(data) != "checkout" {
		t.Errorf("outside CI the disk is read: %q, %v", data, err)
	}
}

// TestGitHubLoginIsLoaded: OCR_GITHUB_LOGIN names the bot account.
func TestGitHubLoginIsLoaded(t *testing.T) {
	c, err := Load(MapLookup(map[string]string{"OCR_GITHUB_LOGIN": "ocr-app[bot]"}))
	if err != nil || c.GitHubLogin != "ocr-app[bot]" {
		t.Errorf("GitHubLogin = %q, %v", c.GitHubLogin, err)
	}
}

// TestLinkAllowIsLoaded: OCR_LINK_ALLOW lists the hosts, comma-separated,
// whose links posted model text keeps.
func TestLinkAllowIsLoaded(t *testing.T) {
	c, err := Load(MapLookup(map[string]string{"OCR_LINK_ALLOW": "docs.example.org,pkg.go.dev"}))
	if err != nil || len(c.LinkAllow) != 2 || c.LinkAllow[0] != "docs.example.org" || c.LinkAllow[1] != "pkg.go.dev" {
		t.Errorf("LinkAllow = %q, %v", c.LinkAllow, err)
	}
}
