package packaging

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// root is the module's root directory, found from this file.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// target is one platform of the release: the runner's names and goreleaser's.
type target struct{ runnerOS, runnerArch, goos, goarch string }

var targets = []target{
	{"Linux", "X64", "linux", "amd64"}, {"Linux", "ARM64", "linux", "arm64"},
	{"macOS", "X64", "darwin", "amd64"}, {"macOS", "ARM64", "darwin", "arm64"},
	{"Windows", "X64", "windows", "amd64"}, {"Windows", "ARM64", "windows", "arm64"},
}

func (tg target) asset(version string) string {
	ext := "tar.gz"
	if tg.goos == "windows" {
		ext = "zip"
	}
	return fmt.Sprintf("ocr_%s_%s_%s.%s", strings.TrimPrefix(version, "v"), tg.goos, tg.goarch, ext)
}

// binary is the fake binary of a target: its content names the target, so
// a wrong mapping installs the wrong file.
func (tg target) binary(version string) []byte {
	return []byte(fmt.Sprintf("#!/bin/sh\necho 'ocr %s %s/%s'\n", strings.TrimPrefix(version, "v"), tg.goos, tg.goarch))
}

// archive packs name → data as goreleaser does: tar.gz, or zip on Windows.
func archive(t testing.TB, asset, name string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if strings.HasSuffix(asset, ".zip") {
		zw := zip.NewWriter(&buf)
		for n, d := range map[string][]byte{name: data, "README.md": []byte("readme\n")} {
			w, err := zw.Create(n)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(d); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		n string
		d []byte
	}{{"README.md", []byte("readme\n")}, {name, data}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.n, Mode: 0o755, Size: int64(len(f.d))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.d); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// release is a fake GitHub releases/download endpoint: /<tag>/<file>.
// Unknown paths are 404, as on GitHub; every request is recorded.
type release struct {
	URL   string
	mu    sync.Mutex
	files map[string][]byte
	reqs  []string
}

func newRelease(t testing.TB) *release {
	r := &release{files: map[string][]byte{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.reqs = append(r.reqs, req.URL.Path)
		if req.Method != http.MethodGet {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		data, ok := r.files[req.URL.Path]
		if !ok {
			http.Error(w, "Not Found", http.StatusNotFound)
			return
		}
		_, _ = w.Write(data) // fails only when the client has gone
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/releases/download"
	return r
}

// publish serves a release of every target with a correct checksums.txt;
// tamper replaces an asset's bytes after the checksums were computed.
func (r *release) publish(t testing.TB, version string, tamper map[string][]byte) {
	var sums strings.Builder
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, tg := range targets {
		name := "ocr"
		if tg.goos == "windows" {
			name = "ocr.exe"
		}
		data := archive(t, tg.asset(version), name, tg.binary(version))
		fmt.Fprintf(&sums, "%s  %s\n", sha256Hex(data), tg.asset(version))
		if bad, ok := tamper[tg.asset(version)]; ok {
			data = bad
		}
		r.files["/releases/download/"+version+"/"+tg.asset(version)] = data
	}
	r.files["/releases/download/"+version+"/checksums.txt"] = []byte(sums.String())
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (r *release) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reqs...)
}

// step is one run of install.sh, as an action step: its exit code,
// stderr and $GITHUB_OUTPUT.
type step struct {
	err     error
	stdout  string
	stderr  string
	outputs map[string]string
}

// runInstall runs action/install.sh with env on top of a clean
// environment (PATH and a temp dir only).
func runInstall(t testing.TB, cmd string, env map[string]string) step {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "output")
	c := exec.CommandContext(t.Context(), "bash", filepath.Join(root(), "action", "install.sh"), cmd)
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "RUNNER_TEMP=" + dir, "GITHUB_OUTPUT=" + out, "HOME=" + dir}
	for k, v := range env {
		c.Env = append(c.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	s := step{err: c.Run(), stdout: stdout.String(), stderr: stderr.String(), outputs: map[string]string{}}
	if f, err := os.Open(out); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				s.outputs[k] = v
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// resolveThenInstall runs the action's two steps for a target.
func resolveThenInstall(t testing.TB, rel *release, tg target, env map[string]string) (step, step) {
	t.Helper()
	e := map[string]string{"RUNNER_OS": tg.runnerOS, "RUNNER_ARCH": tg.runnerArch}
	for k, v := range env {
		e[k] = v
	}
	res := runInstall(t, "resolve", e)
	if res.err != nil {
		t.Fatalf("resolve: %v\n%s", res.err, res.stderr)
	}
	inst := runInstall(t, "install", map[string]string{"SETUP_OCR_RELEASE": res.outputs["version"],
		"SETUP_OCR_ASSET": res.outputs["asset"], "SETUP_OCR_DIR": res.outputs["dir"], "SETUP_OCR_RELEASES_URL": rel.URL})
	return res, inst
}

// TestInstallEveryTarget: each runner OS/arch resolves to goreleaser's
// asset, and the install step leaves that target's binary, verified.
func TestInstallEveryTarget(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	for _, tg := range targets {
		t.Run(tg.runnerOS+"-"+tg.runnerArch, func(t *testing.T) {
			if tg.goos == "windows" {
				if _, err := exec.LookPath("unzip"); err != nil {
					t.Skip("unzip is not installed: the Windows archives cannot be extracted here (apt-get install unzip)")
				}
			}
			res, inst := resolveThenInstall(t, rel, tg, map[string]string{"SETUP_OCR_REF": "v1.2.3"})
			want := map[string]string{"mode": "release", "version": "v1.2.3", "os": tg.goos, "arch": tg.goarch, "asset": tg.asset("v1.2.3")}
			for k, v := range want {
				if res.outputs[k] != v {
					t.Errorf("resolve output %s = %q, want %q", k, res.outputs[k], v)
				}
			}
			if inst.err != nil {
				t.Fatalf("install: %v\n%s", inst.err, inst.stderr)
			}
			name := "ocr"
			if tg.goos == "windows" {
				name = "ocr.exe"
			}
			got, err := os.ReadFile(filepath.Join(res.outputs["dir"], name))
			if err != nil || !bytes.Equal(got, tg.binary("v1.2.3")) {
				t.Errorf("installed %s = %q (%v), want %q", name, got, err, tg.binary("v1.2.3"))
			}
			if !strings.Contains(inst.stdout, "SHA-256 verified") {
				t.Errorf("install does not say it verified the checksum:\n%s", inst.stdout)
			}
		})
	}
}

func TestInstallRefusesTamperedArchive(t *testing.T) {
	rel := newRelease(t)
	tg := targets[0]
	evil := archive(t, tg.asset("v1.2.3"), "ocr", []byte("#!/bin/sh\necho pwned\n"))
	rel.publish(t, "v1.2.3", map[string][]byte{tg.asset("v1.2.3"): evil})
	res, inst := resolveThenInstall(t, rel, tg, map[string]string{"SETUP_OCR_REF": "v1.2.3"})
	if inst.err == nil {
		t.Fatalf("install accepted a tampered archive:\n%s", inst.stdout)
	}
	for _, want := range []string{"::error", "refusing " + tg.asset("v1.2.3"), sha256Hex(evil), "nothing was installed"} {
		if !strings.Contains(inst.stderr, want) {
			t.Errorf("error lacks %q:\n%s", want, inst.stderr)
		}
	}
	entries, _ := os.ReadDir(res.outputs["dir"])
	for _, e := range entries {
		if e.Name() != "checksums.txt" {
			t.Errorf("a refused install left %s in %s", e.Name(), res.outputs["dir"])
		}
	}
}

func TestInstallUnknownVersion(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	_, inst := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_VERSION": "9.9.9"})
	if inst.err == nil {
		t.Fatal("install of an unpublished version succeeded")
	}
	for _, want := range []string{"ocr v9.9.9 has no release", "HTTP 404", "check the version"} {
		if !strings.Contains(inst.stderr, want) {
			t.Errorf("error lacks %q:\n%s", want, inst.stderr)
		}
	}
	if reqs := rel.requests(); len(reqs) != 1 || reqs[0] != "/releases/download/v9.9.9/checksums.txt" {
		t.Errorf("requests = %v, want only the checksums of v9.9.9", reqs)
	}
}

// TestInstallVerifiesCachedArchive: what actions/cache restores is checked
// like a download; a good one is not downloaded again, a bad one is.
func TestInstallVerifiesCachedArchive(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	tg := targets[0]
	env := map[string]string{"RUNNER_OS": tg.runnerOS, "RUNNER_ARCH": tg.runnerArch, "SETUP_OCR_REF": "v1.2.3"}
	res := runInstall(t, "resolve", env)
	dir := res.outputs["dir"]
	inst := map[string]string{"SETUP_OCR_RELEASE": "v1.2.3", "SETUP_OCR_ASSET": tg.asset("v1.2.3"), "SETUP_OCR_DIR": dir,
		"SETUP_OCR_RELEASES_URL": rel.URL}
	if s := runInstall(t, "install", inst); s.err != nil {
		t.Fatalf("first install: %v\n%s", s.err, s.stderr)
	}
	before := len(rel.requests())
	s := runInstall(t, "install", inst)
	if s.err != nil || !strings.Contains(s.stdout, "cached "+tg.asset("v1.2.3")+": SHA-256 verified") {
		t.Fatalf("cached install: %v\n%s%s", s.err, s.stdout, s.stderr)
	}
	if got := rel.requests()[before:]; len(got) != 1 || !strings.HasSuffix(got[0], "/checksums.txt") {
		t.Errorf("a verified cached archive was downloaded again: %v", got)
	}
	poisoned := archive(t, tg.asset("v1.2.3"), "ocr", []byte("#!/bin/sh\necho pwned\n"))
	if err := os.WriteFile(filepath.Join(dir, tg.asset("v1.2.3")), poisoned, 0o644); err != nil {
		t.Fatal(err)
	}
	if s := runInstall(t, "install", inst); s.err != nil || !strings.Contains(s.stdout, "downloaded ") {
		t.Fatalf("install over a poisoned cache: %v\n%s%s", s.err, s.stdout, s.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "ocr")); !bytes.Equal(got, tg.binary("v1.2.3")) {
		t.Errorf("installed %q from a poisoned cache, want the release's binary", got)
	}
}

// tagRepo is a bare repository with release tags, served to git ls-remote
// as the action's repository.
func tagRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) string {
		c := exec.CommandContext(t.Context(), "git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=ci", "GIT_AUTHOR_EMAIL=ci@localhost", "GIT_COMMITTER_NAME=ci",
			"GIT_COMMITTER_EMAIL=ci@localhost", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	commit := func(tags ...string) {
		git("commit", "-q", "--allow-empty", "-m", strings.Join(tags, " "))
		for _, tag := range tags {
			git("tag", "-a", "-m", tag, tag)
		}
	}
	// v1 sits on v1.2.0, though v1.10.0 (newer, and greater than v1.9 only
	// numerically) exists on another commit; v2 has no release yet.
	commit("v1.1.0")
	commit("v1.2.0", "v1")
	commit("v1.9.0")
	commit("v1.10.0", "v1.10")
	commit("v2")
	commit("v1.11.0-rc.1")
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
