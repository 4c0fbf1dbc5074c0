package packaging

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The release workflow's keyless signing identity, as Fulcio writes it into
// the certificate of a tag push of .github/workflows/release.yml, and the
// issuer of GitHub Actions' OIDC tokens: what action/install.sh must ask
// cosign for, spelled out here rather than read from the script.
const (
	signerPrefix = "https://github.com/ocr-ci/ocr/.github/workflows/release.yml@refs/tags/"
	actionsOIDC  = "https://token.actions.githubusercontent.com"
)

// root is the module's root directory, found from this file.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
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

func (tg target) exe() string {
	if tg.goos == "windows" {
		return "ocr.exe"
	}
	return "ocr"
}

// archive packs name → data as goreleaser does: tar.gz, or zip on Windows.
func archive(t testing.TB, asset, name string, data []byte) []byte {
	t.Helper()
	files := []struct {
		n string
		d []byte
	}{{"README.md", []byte("readme\n")}, {name, data}}
	var buf bytes.Buffer
	if strings.HasSuffix(asset, ".zip") {
		zw := zip.NewWriter(&buf)
		for _, f := range files {
			w, err := zw.Create(f.n)
			if err == nil {
				_, err = w.Write(f.d)
			}
			if err != nil {
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
	for _, f := range files {
		err := tw.WriteHeader(&tar.Header{Name: f.n, Mode: 0o755, Size: int64(len(f.d))})
		if err == nil {
			_, err = tw.Write(f.d)
		}
		if err != nil {
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
// Unknown paths are 404, as on GitHub; every request is recorded. cosign is
// the fake verifier (testdata/fake-cosign.sh) that accepts what sign made.
type release struct {
	URL    string
	cosign string
	mu     sync.Mutex
	files  map[string][]byte
	reqs   []string
}

func newRelease(t testing.TB) *release {
	r := &release{files: map[string][]byte{}, cosign: fakeCosign(t)}
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

// fakeCosign copies testdata/fake-cosign.sh to an executable of its own
// directory, where it logs its calls (cosignCalls).
func fakeCosign(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root(), "internal", "testkit", "packaging", "testdata", "fake-cosign.sh"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cosign")
	if err := os.WriteFile(path, src, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// cosignCalls returns the argument lists the fake cosign was called with.
func (r *release) cosignCalls() [][]string {
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(r.cosign), "cosign.log"))
	var calls [][]string
	var cur []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch line {
		case "":
		case "--":
			calls, cur = append(calls, cur), nil
		default:
			cur = append(cur, line)
		}
	}
	return calls
}

// publish serves a release of every target with a correct checksums.txt,
// signed by the release workflow at the version's tag; tamper replaces an
// asset's bytes after the checksums were computed.
func (r *release) publish(t testing.TB, version string, tamper map[string][]byte) {
	r.publishBinaries(t, version, func(tg target) []byte { return tg.binary(version) }, tamper)
}

// publishBinaries is publish with the binary of each target given.
func (r *release) publishBinaries(t testing.TB, version string, binary func(target) []byte, tamper map[string][]byte) {
	var sums strings.Builder
	for _, tg := range targets {
		data := archive(t, tg.asset(version), tg.exe(), binary(tg))
		fmt.Fprintf(&sums, "%s  %s\n", sha256Hex(data), tg.asset(version))
		if bad, ok := tamper[tg.asset(version)]; ok {
			data = bad
		}
		r.put(version, tg.asset(version), data)
	}
	r.put(version, "checksums.txt", []byte(sums.String()))
	r.sign(version, []byte(sums.String()), signerPrefix+version, actionsOIDC)
}

// put serves data as the file name of the release version.
func (r *release) put(version, name string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files["/releases/download/"+version+"/"+name] = data
}

// sign serves checksums.txt.sigstore.json for version: a fake bundle saying
// identity, through issuer, signed blob (see testdata/fake-cosign.sh).
func (r *release) sign(version string, blob []byte, identity, issuer string) {
	r.put(version, "checksums.txt.sigstore.json", []byte(sha256Hex(blob)+"\n"+issuer+"\n"+identity+"\n"))
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
