package packaging

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// step is one run of install.sh, as an action step: its exit code, output,
// $GITHUB_OUTPUT, and its RUNNER_TEMP.
type step struct {
	err     error
	stdout  string
	stderr  string
	outputs map[string]string
	temp    string
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
	s := step{err: c.Run(), stdout: stdout.String(), stderr: stderr.String(), outputs: map[string]string{}, temp: dir}
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

// resolveThenInstall runs the action's two steps for a target, with the
// release's fake cosign; env goes to both.
func resolveThenInstall(t testing.TB, rel *release, tg target, env map[string]string) (step, step) {
	t.Helper()
	e := map[string]string{"RUNNER_OS": tg.runnerOS, "RUNNER_ARCH": tg.runnerArch, "SETUP_OCR_COSIGN": rel.cosign}
	for k, v := range env {
		e[k] = v
	}
	res := runInstall(t, "resolve", e)
	if res.err != nil {
		t.Fatalf("resolve: %v\n%s", res.err, res.stderr)
	}
	return res, runInstall(t, "install", installEnv(rel, res, e))
}

// installEnv is the install step's environment after resolve, as
// action.yml passes it.
func installEnv(rel *release, res step, env map[string]string) map[string]string {
	e := map[string]string{"SETUP_OCR_RELEASE": res.outputs["version"], "SETUP_OCR_ASSET": res.outputs["asset"],
		"SETUP_OCR_DIR": res.outputs["dir"], "SETUP_OCR_RELEASES_URL": rel.URL, "SETUP_OCR_COSIGN": rel.cosign}
	for k, v := range env {
		e[k] = v
	}
	return e
}

// noOCR fails when a file named ocr or ocr.exe exists under dirs: nothing
// was installed.
func noOCR(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && (e.Name() == "ocr" || e.Name() == "ocr.exe") {
				t.Errorf("a refused install left %s", p)
			}
			return nil
		})
	}
}

// TestInstallEveryTarget: each runner OS/arch resolves to goreleaser's
// asset, and the install step leaves that target's binary, verified, at
// the path it writes to $GITHUB_OUTPUT, outside the cached directory.
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
			want := map[string]string{"mode": "release", "version": "v1.2.3", "os": tg.goos, "arch": tg.goarch,
				"asset": tg.asset("v1.2.3"), "cosign": "found"}
			for k, v := range want {
				if res.outputs[k] != v {
					t.Errorf("resolve output %s = %q, want %q", k, res.outputs[k], v)
				}
			}
			if inst.err != nil {
				t.Fatalf("install: %v\n%s", inst.err, inst.stderr)
			}
			bin := inst.outputs["ocr"]
			got, err := os.ReadFile(bin)
			if filepath.Base(bin) != tg.exe() || err != nil || !bytes.Equal(got, tg.binary("v1.2.3")) {
				t.Errorf("installed %s = %q (%v), want %s holding %q", bin, got, err, tg.exe(), tg.binary("v1.2.3"))
			}
			if !filepath.IsAbs(bin) || strings.HasPrefix(bin, res.outputs["dir"]) {
				t.Errorf("ocr output %q: want an absolute path outside the cached %s", bin, res.outputs["dir"])
			}
			for _, w := range []string{"Sigstore signature verified", "downloaded " + tg.asset("v1.2.3") + ": SHA-256 verified"} {
				if !strings.Contains(inst.stdout, w) {
					t.Errorf("install does not say %q:\n%s", w, inst.stdout)
				}
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
	if inst.outputs["ocr"] != "" {
		t.Errorf("a refused install wrote ocr=%s", inst.outputs["ocr"])
	}
	noOCR(t, res.temp, inst.temp)
	if entries, _ := os.ReadDir(res.outputs["dir"]); len(entries) != 0 {
		t.Errorf("a refused install left %d files in the cached directory", len(entries))
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
// against the signed checksums.txt on every run, like a download. A good
// archive is not downloaded again; a poisoned one is reported in a warning,
// replaced by the release's, and its binary never installed.
func TestInstallVerifiesCachedArchive(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	tg := targets[0]
	res, first := resolveThenInstall(t, rel, tg, map[string]string{"SETUP_OCR_REF": "v1.2.3"})
	if first.err != nil {
		t.Fatalf("first install: %v\n%s", first.err, first.stderr)
	}
	cached := filepath.Join(res.outputs["dir"], tg.asset("v1.2.3"))
	if entries, _ := os.ReadDir(res.outputs["dir"]); len(entries) != 1 || entries[0].Name() != tg.asset("v1.2.3") {
		t.Errorf("the cached directory holds %v, want the archive only", entries)
	}
	before := len(rel.requests())
	env := installEnv(rel, res, nil)
	s := runInstall(t, "install", env)
	if s.err != nil || !strings.Contains(s.stdout, "cached "+tg.asset("v1.2.3")+": SHA-256 verified") {
		t.Fatalf("cached install: %v\n%s%s", s.err, s.stdout, s.stderr)
	}
	if got := rel.requests()[before:]; len(got) != 2 || !strings.HasSuffix(got[0], "/checksums.txt") ||
		!strings.HasSuffix(got[1], "/checksums.txt.sigstore.json") {
		t.Errorf("a verified cached archive was downloaded again: %v", got)
	}
	poisoned := archive(t, tg.asset("v1.2.3"), "ocr", []byte("#!/bin/sh\necho pwned\n"))
	if err := os.WriteFile(cached, poisoned, 0o644); err != nil {
		t.Fatal(err)
	}
	s = runInstall(t, "install", env)
	if s.err != nil || !strings.Contains(s.stdout, "downloaded ") {
		t.Fatalf("install over a poisoned cache: %v\n%s%s", s.err, s.stdout, s.stderr)
	}
	for _, w := range []string{"::warning title=ocr install::discarding the cached " + tg.asset("v1.2.3"), sha256Hex(poisoned), "tampered with"} {
		if !strings.Contains(s.stdout, w) {
			t.Errorf("install over a poisoned cache does not say %q:\n%s", w, s.stdout)
		}
	}
	if got, _ := os.ReadFile(s.outputs["ocr"]); !bytes.Equal(got, tg.binary("v1.2.3")) {
		t.Errorf("installed %q from a poisoned cache, want the release's binary", got)
	}
	if got, _ := os.ReadFile(cached); !bytes.Equal(got, mustGet(t, rel, "v1.2.3", tg.asset("v1.2.3"))) {
		t.Error("the poisoned archive stays in the cached directory; want the release's")
	}
}

// mustGet returns a file the fake release serves.
func mustGet(t *testing.T, rel *release, version, name string) []byte {
	t.Helper()
	rel.mu.Lock()
	defer rel.mu.Unlock()
	data, ok := rel.files["/releases/download/"+version+"/"+name]
	if !ok {
		t.Fatalf("the fake release has no %s/%s", version, name)
	}
	return data
}

// TestInstallNeverFollowsACachedSymlink: a cache entry can hold a symlink
// at the archive's name. Followed, the copy into the cache writes the
// release's bytes wherever it leads (BSD cp on macOS; GNU cp refuses a
// dangling one and fails the step), and reading it hashes any file of the
// runner. It is discarded, like a tampered archive.
func TestInstallNeverFollowsACachedSymlink(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	tg := targets[0]
	res := runInstall(t, "resolve", map[string]string{"RUNNER_OS": tg.runnerOS, "RUNNER_ARCH": tg.runnerArch, "SETUP_OCR_REF": "v1.2.3"})
	outside := filepath.Join(t.TempDir(), "written-through-the-cache")
	cached := filepath.Join(res.outputs["dir"], tg.asset("v1.2.3"))
	if err := os.MkdirAll(res.outputs["dir"], 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, cached); err != nil {
		t.Fatal(err)
	}
	s := runInstall(t, "install", installEnv(rel, res, nil))
	if s.err != nil {
		t.Fatalf("install: %v\n%s", s.err, s.stderr)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Errorf("the install wrote %s through the cached symlink", outside)
	}
	if fi, err := os.Lstat(cached); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the cached archive is %v (%v), want the release's archive as a regular file", fi, err)
	}
	if w := "discarding the cached " + tg.asset("v1.2.3") + ": it is not a regular file"; !strings.Contains(s.stdout, w) {
		t.Errorf("no warning %q:\n%s", w, s.stdout)
	}
}
