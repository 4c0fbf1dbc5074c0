package packaging

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// loggingOCR is the release's ocr in the action tests: it logs how it was
// called, then runs git and curl by name, as ocr runs git.
func loggingOCR(log string) func(target) []byte {
	return func(target) []byte {
		return []byte(fmt.Sprintf("#!/bin/sh\nprintf '%%s %%s\\n' \"$0\" \"$*\" >>'%s'\ngit --version >/dev/null\ncurl --version >/dev/null 2>&1 || true\n", log))
	}
}

// actionJob is a job that uses the action at @v1.2.3 on Linux X64, with
// the release served by the fake on loopback.
func actionJob(t *testing.T) (*actionRun, *release, string) {
	rel := newRelease(t)
	ocrLog := filepath.Join(t.TempDir(), "ocr.log")
	rel.publishBinaries(t, "v1.2.3", loggingOCR(ocrLog), nil)
	r := newActionRun(t, targets[0], "v1.2.3", map[string]string{"llm-url": "http://127.0.0.1:1/v1", "llm-model": "m"})
	r.env["SETUP_OCR_RELEASES_URL"] = rel.URL
	r.cosign = rel.cosign
	return r, rel, ocrLog
}

// ranOCR checks the job ran the installed binary twice, version then
// review, by its absolute path outside the cached directory.
func ranOCR(t *testing.T, r *actionRun, ocrLog string) {
	t.Helper()
	bin := r.ctx["steps.install.outputs.ocr"]
	want := []string{bin + " version", bin + " review"}
	if got := lines(ocrLog); bin == "" || !reflect.DeepEqual(got, want) {
		t.Errorf("ocr ran as %q, want %q\n%s", got, want, r.log.String())
	}
	if cache := r.ctx["steps.resolve.outputs.dir"]; !filepath.IsAbs(bin) || strings.HasPrefix(bin, cache) {
		t.Errorf("ocr ran from %s, want an absolute path outside the cached %s", bin, cache)
	}
}

// TestActionInstallsTheSignedRelease: on a runner without cosign, the
// action installs it (the pinned installer), verifies the release's
// signature, installs ocr and runs it; no source build.
func TestActionInstallsTheSignedRelease(t *testing.T) {
	r, _, ocrLog := actionJob(t)
	if err := r.run(); err != nil {
		t.Fatalf("action: %v\n%s", err, r.log.String())
	}
	ranOCR(t, r, ocrLog)
	calls := lines(filepath.Join(r.home, ".cosign", "cosign.log"))
	if len(calls) != 9 || calls[0] != "verify-blob" || calls[4] != signerPrefix+"v1.2.3" {
		t.Errorf("the installed cosign was called with %q, want one verify-blob of the release workflow at v1.2.3", calls)
	}
	if want := []string{"ocr-v1.2.3-linux-amd64"}; !reflect.DeepEqual(r.keys, want) {
		t.Errorf("cache keys %q, want %q", r.keys, want)
	}
	if len(r.skipped) != 2 || !strings.HasPrefix(r.skipped[0], "actions/setup-go@") || r.skipped[1] != "build" {
		t.Errorf("skipped steps %q, want the source build only", r.skipped)
	}
}

// TestActionNeverRunsWhatTheCacheHolds: whoever can write the cache entry
// (a workflow of the same repository, a poisoned restore) plants programs
// the job would run by name, with its tokens, if the cached directory were
// on PATH, and a tampered archive. None of them runs; the archive is
// reported and replaced; the release's ocr runs.
func TestActionNeverRunsWhatTheCacheHolds(t *testing.T) {
	r, rel, ocrLog := actionJob(t)
	r.env["SETUP_OCR_COSIGN"] = rel.cosign
	marker := filepath.Join(t.TempDir(), "planted-ran")
	planted := map[string][]byte{}
	for _, name := range []string{"git", "curl", "ocr", "cosign", "bash", "sh", "tar", "gzip", "sha256sum", "awk", "sed", "cp", "mv", "rm", "mkdir", "mktemp", "cygpath"} {
		planted[name] = []byte(fmt.Sprintf("#!/bin/sh\necho \"planted %s ran: $*\" >>'%s'\n", name, marker))
	}
	tg := targets[0]
	evil := archive(t, tg.asset("v1.2.3"), "ocr", planted["ocr"])
	planted[tg.asset("v1.2.3")] = evil
	r.cache["ocr-v1.2.3-linux-amd64"] = planted
	if err := r.run(); err != nil {
		t.Fatalf("action: %v\n%s", err, r.log.String())
	}
	if ran, err := os.ReadFile(marker); err == nil {
		t.Errorf("the job ran programs from the cache:\n%s", ran)
	}
	if len(r.paths) != 0 {
		t.Errorf("$GITHUB_PATH = %q: the action puts directories on PATH", r.paths)
	}
	ranOCR(t, r, ocrLog)
	if w := "discarding the cached " + tg.asset("v1.2.3") + ": its SHA-256 is " + sha256Hex(evil); !strings.Contains(r.log.String(), w) {
		t.Errorf("no warning %q:\n%s", w, r.log.String())
	}
}

// TestActionRunsEnvWithDebugLogging: when the job runs with debug logging
// (RUNNER_DEBUG=1) the action runs `ocr env` before the review, by the
// same absolute path, and a problem it lists does not stop the step; the
// action's output ocr is that path.
func TestActionRunsEnvWithDebugLogging(t *testing.T) {
	r, _, ocrLog := actionJob(t)
	r.env["RUNNER_DEBUG"] = "1"
	if err := r.run(); err != nil {
		t.Fatalf("action: %v\n%s", err, r.log.String())
	}
	bin := r.ctx["steps.install.outputs.ocr"]
	if got, want := lines(ocrLog), []string{bin + " version", bin + " env", bin + " review"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ocr ran as %q, want %q", got, want)
	}
	var a struct {
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
	}
	if err := yaml.Unmarshal(read(t, "action.yml"), &a); err != nil {
		t.Fatal(err)
	}
	if got := r.interp(a.Outputs["ocr"].Value); got != bin || !filepath.IsAbs(got) {
		t.Errorf("output ocr = %q, want the binary's absolute path %q", got, bin)
	}
}
