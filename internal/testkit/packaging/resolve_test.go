package packaging

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// tagRepo is a repository (its commits only, no work tree) with release tags, served to git ls-remote
// as the action's repository.
func tagRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var h gitrepo.History
	commit := func(tags ...string) {
		h.Commits = append(h.Commits, gitrepo.Change{Message: strings.Join(tags, " "), Tags: tags})
	}
	// v1 sits on v1.2.0, though v1.10.0 (newer, and greater than v1.9 only
	// numerically) exists on another commit; v2 has no release yet.
	commit("v1.1.0")
	commit("v1.2.0", "v1")
	commit("v1.9.0")
	commit("v1.10.0", "v1.10")
	commit("v2")
	commit("v1.11.0-rc.1")
	gitrepo.Import(t, dir, h)
	return dir
}

func TestResolveRefs(t *testing.T) {
	repo := tagRepo(t)
	cases := []struct {
		name, ref, version string
		mode, want, errs   string
	}{
		{"full release tag", "v1.2.3", "", "release", "v1.2.3", ""},
		{"prerelease tag", "v1.3.0-rc.1", "", "release", "v1.3.0-rc.1", ""},
		{"major tag: the release on its commit", "v1", "", "release", "v1.2.0", ""},
		{"minor tag", "v1.10", "", "release", "v1.10.0", ""},
		{"version input wins", "v1", "1.9.0", "release", "v1.9.0", ""},
		{"branch builds from source", "main", "", "source", "0.0.0-main", ""},
		{"SHA builds from source", "0123456789abcdef0123456789abcdef01234567", "", "source", "0.0.0-0123456789abcdef0123456789abcdef01234567", ""},
		{"local action builds from source", "", "", "source", "0.0.0-local", ""},
		{"major tag without a release", "v2", "", "", "", "no release vX.Y.Z under @v2"},
		{"moving tag that does not exist", "v3", "", "", "", "@v3 is not a tag of"},
		{"bad version input", "", "latest", "", "", "version input 'latest' is not a release version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := runInstall(t, "resolve", map[string]string{"RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
				"SETUP_OCR_REF": c.ref, "SETUP_OCR_VERSION": c.version, "SETUP_OCR_GIT_URL": repo})
			if c.errs != "" {
				if s.err == nil || !strings.Contains(s.stderr, c.errs) || !strings.Contains(s.stderr, "::error") {
					t.Errorf("want an error with %q, got %v:\n%s", c.errs, s.err, s.stderr)
				}
				return
			}
			if s.err != nil {
				t.Fatalf("%v\n%s", s.err, s.stderr)
			}
			if s.outputs["mode"] != c.mode || s.outputs["version"] != c.want {
				t.Errorf("mode %q version %q, want %q %q", s.outputs["mode"], s.outputs["version"], c.mode, c.want)
			}
			if c.mode == "source" && (!strings.Contains(s.stdout, "::notice") || !strings.Contains(s.stdout, "building ocr from source")) {
				t.Errorf("a source build must say so:\n%s", s.stdout)
			}
		})
	}
}

func TestResolveUnsupportedRunner(t *testing.T) {
	for _, c := range []struct{ os, arch, want string }{
		{"Linux", "X86", "unsupported runner architecture 'X86'"},
		{"Windows", "ARM", "unsupported runner architecture 'ARM'"},
		{"FreeBSD", "X64", "unsupported runner OS 'FreeBSD'"},
	} {
		s := runInstall(t, "resolve", map[string]string{"RUNNER_OS": c.os, "RUNNER_ARCH": c.arch, "SETUP_OCR_REF": "v1.2.3"})
		if s.err == nil || !strings.Contains(s.stderr, c.want) {
			t.Errorf("%s/%s: want %q, got %v:\n%s", c.os, c.arch, c.want, s.err, s.stderr)
		}
	}
}

// TestResolveCosign: the resolve step says whether the action must install
// cosign: not when verify-signature is false, not when one is on PATH;
// Windows ARM64, which sigstore/cosign-installer cannot serve, stops with
// what to do instead of failing later in the installer.
func TestResolveCosign(t *testing.T) {
	fake := fakeCosign(t)
	for _, c := range []struct {
		name, os, arch, verify, cosign string
		want, errs                     string
	}{
		{"found", "Linux", "X64", "", fake, "found", ""},
		{"absent: installed by the action", "Linux", "X64", "true", "/nonexistent/cosign", "install", ""},
		{"absent on macOS ARM64", "macOS", "ARM64", "", "/nonexistent/cosign", "install", ""},
		{"verification off", "Linux", "X64", "false", "/nonexistent/cosign", "off", ""},
		{"absent on Windows ARM64", "Windows", "ARM64", "", "/nonexistent/cosign", "", "sigstore/cosign-installer has no Windows ARM64 build"},
		{"Windows ARM64 with cosign", "Windows", "ARM64", "", fake, "found", ""},
		{"not a boolean", "Linux", "X64", "no", fake, "", "verify-signature input 'no' is not a boolean"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := runInstall(t, "resolve", map[string]string{"RUNNER_OS": c.os, "RUNNER_ARCH": c.arch, "SETUP_OCR_REF": "v1.2.3",
				"SETUP_OCR_VERIFY_SIGNATURE": c.verify, "SETUP_OCR_COSIGN": c.cosign})
			if c.errs != "" {
				if s.err == nil || !strings.Contains(s.stderr, "::error") || !strings.Contains(s.stderr, c.errs) {
					t.Errorf("want an error with %q, got %v:\n%s", c.errs, s.err, s.stderr)
				}
				return
			}
			if s.err != nil || s.outputs["cosign"] != c.want {
				t.Errorf("cosign output %q (%v), want %q\n%s", s.outputs["cosign"], s.err, c.want, s.stderr)
			}
		})
	}
}
