package packaging

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestInstallVerifiesTheSignature: before it trusts checksums.txt, the
// install step asks cosign once, with the release workflow at the tag
// being installed as the only identity and GitHub's OIDC issuer, and
// fetches the archive only after that.
func TestInstallVerifiesTheSignature(t *testing.T) {
	for _, c := range []struct{ repo, signer string }{
		{"", signerPrefix + "v1.2.3"}, // github.action_repository is empty for a local action
		{"ocr-ci/ocr", signerPrefix + "v1.2.3"},
		{"someone/fork", "https://github.com/someone/fork/.github/workflows/release.yml@refs/tags/v1.2.3"},
	} {
		t.Run("repository "+c.repo, func(t *testing.T) {
			rel := newRelease(t)
			rel.publish(t, "v1.2.3", nil)
			rel.sign("v1.2.3", mustGet(t, rel, "v1.2.3", "checksums.txt"), c.signer, actionsOIDC)
			res, inst := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_REF": "v1.2.3", "SETUP_OCR_REPOSITORY": c.repo})
			if inst.err != nil {
				t.Fatalf("install: %v\n%s", inst.err, inst.stderr)
			}
			calls := rel.cosignCalls()
			if len(calls) != 1 || len(calls[0]) != 8 {
				t.Fatalf("cosign calls = %q, want one verify-blob", calls)
			}
			sums := calls[0][7]
			want := []string{"verify-blob", "--bundle", sums + ".sigstore.json", "--certificate-identity", c.signer,
				"--certificate-oidc-issuer", actionsOIDC, sums}
			if !reflect.DeepEqual(calls[0], want) || filepath.Base(sums) != "checksums.txt" || strings.HasPrefix(sums, res.outputs["dir"]) {
				t.Errorf("cosign %q\nwant   %q, with a checksums.txt downloaded outside the cached directory", calls[0], want)
			}
			base := "/releases/download/v1.2.3/"
			wantReqs := []string{base + "checksums.txt", base + "checksums.txt.sigstore.json", base + targets[0].asset("v1.2.3")}
			if got := rel.requests(); !reflect.DeepEqual(got, wantReqs) {
				t.Errorf("requests = %q, want %q (the archive after the signature)", got, wantReqs)
			}
			if !strings.Contains(inst.stdout, "Sigstore signature verified ("+c.signer+")") {
				t.Errorf("install does not say whose signature it verified:\n%s", inst.stdout)
			}
		})
	}
}

// forge publishes v1.2.3 as an attacker who can replace the release's
// files: an archive of their own with a matching checksums.txt, keeping
// the genuine bundle; then sign, when set, replaces the bundle.
func forge(t *testing.T, sign func(r *release, sums []byte)) *release {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	tg := targets[0]
	evil := archive(t, tg.asset("v1.2.3"), "ocr", []byte("#!/bin/sh\necho pwned\n"))
	sums := []byte(fmt.Sprintf("%s  %s\n", sha256Hex(evil), tg.asset("v1.2.3")))
	rel.put("v1.2.3", tg.asset("v1.2.3"), evil)
	rel.put("v1.2.3", "checksums.txt", sums)
	if sign != nil {
		sign(rel, sums)
	}
	return rel
}

// TestInstallRefusesForgedRelease: whoever replaces a release's archive
// and checksums.txt cannot install their ocr; without the signature check
// each of these installs it. Only the release workflow of this repository,
// at the tag being installed, through GitHub's issuer, can sign.
func TestInstallRefusesForgedRelease(t *testing.T) {
	signedBy := func(identity, issuer string) func(*release, []byte) {
		return func(r *release, sums []byte) { r.sign("v1.2.3", sums, identity, issuer) }
	}
	for _, c := range []struct {
		name string
		sign func(*release, []byte)
		says string
	}{
		{"genuine signature kept", nil, "invalid signature"},
		{"signed by a fork's release workflow", signedBy("https://github.com/evil/ocr/.github/workflows/release.yml@refs/tags/v1.2.3", actionsOIDC), "none of the expected identities"},
		{"signed by another workflow of the project", signedBy("https://github.com/ocr-ci/ocr/.github/workflows/ci.yml@refs/heads/main", actionsOIDC), "none of the expected identities"},
		{"signed by the release workflow on a branch", signedBy("https://github.com/ocr-ci/ocr/.github/workflows/release.yml@refs/heads/main", actionsOIDC), "none of the expected identities"},
		{"signed by the release workflow at another tag", signedBy(signerPrefix+"v1.2.2", actionsOIDC), "none of the expected identities"},
		{"signed through another issuer", signedBy(signerPrefix+"v1.2.3", "https://accounts.google.com"), "none of the expected identities"},
		{"no signature", func(r *release, _ []byte) {
			r.mu.Lock()
			delete(r.files, "/releases/download/v1.2.3/checksums.txt.sigstore.json")
			r.mu.Unlock()
		}, "HTTP 404"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rel := forge(t, c.sign)
			res, inst := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_REF": "v1.2.3"})
			if inst.err == nil {
				t.Fatalf("install accepted a forged release:\n%s", inst.stdout)
			}
			for _, w := range []string{"::error title=ocr install::refusing ocr v1.2.3", "Nothing was installed", c.says} {
				if !strings.Contains(strings.ToLower(inst.stderr+inst.stdout), strings.ToLower(w)) {
					t.Errorf("output lacks %q:\n%s%s", w, inst.stdout, inst.stderr)
				}
			}
			if inst.outputs["ocr"] != "" {
				t.Errorf("a refused install wrote ocr=%s", inst.outputs["ocr"])
			}
			noOCR(t, res.temp, inst.temp)
			for _, r := range rel.requests() {
				if strings.HasSuffix(r, ".tar.gz") {
					t.Errorf("the archive was downloaded (%s) before the signature was verified", r)
				}
			}
		})
	}
}

// TestInstallQuotesVerifierOutput: cosign's error repeats the certificate's
// subject, which the forger chose; printed as is, its lines would be
// workflow commands. Each line is prefixed and "##[" broken up.
func TestInstallQuotesVerifierOutput(t *testing.T) {
	payload := "https://github.com/evil/x\n::add-mask::ghs_token\n  ::error title=all good::verified\n##[set-output name=ocr;]/tmp/evil"
	rel := forge(t, func(r *release, sums []byte) { r.sign("v1.2.3", sums, payload, actionsOIDC) })
	_, inst := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_REF": "v1.2.3"})
	out := inst.stdout + inst.stderr
	if inst.err == nil || !strings.Contains(out, "cosign: Error: none of the expected identities matched") {
		t.Fatalf("want the refusal with cosign's own words, got %v:\n%s", inst.err, out)
	}
	for _, line := range strings.Split(out, "\n") {
		l := strings.TrimSpace(line)
		if strings.Contains(l, "##[") || strings.HasPrefix(l, "::") && !strings.HasPrefix(l, "::error title=ocr install::") {
			t.Errorf("a line of cosign's output is a workflow command: %q", line)
		}
	}
}

// TestInstallSignatureOptOut: verify-signature: false skips cosign (none
// needed, no bundle fetched) and says so in a warning on every run.
func TestInstallSignatureOptOut(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	res, inst := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_REF": "v1.2.3",
		"SETUP_OCR_VERIFY_SIGNATURE": "false", "SETUP_OCR_COSIGN": "/nonexistent/cosign"})
	if res.outputs["cosign"] != "off" || inst.err != nil {
		t.Fatalf("resolve cosign=%q, install %v:\n%s", res.outputs["cosign"], inst.err, inst.stderr)
	}
	if w := "::warning title=ocr install::verify-signature is false: the Sigstore signature of checksums.txt of ocr v1.2.3 was NOT checked"; !strings.Contains(inst.stdout, w) {
		t.Errorf("no warning %q:\n%s", w, inst.stdout)
	}
	for _, r := range rel.requests() {
		if strings.HasSuffix(r, ".sigstore.json") {
			t.Errorf("verification is off, yet %s was downloaded", r)
		}
	}
}

// TestInstallWithoutCosign: the install step stops, naming the command,
// when cosign is missing (the installer step did not run or failed).
func TestInstallWithoutCosign(t *testing.T) {
	rel := newRelease(t)
	rel.publish(t, "v1.2.3", nil)
	res, _ := resolveThenInstall(t, rel, targets[0], map[string]string{"SETUP_OCR_REF": "v1.2.3"})
	inst := runInstall(t, "install", installEnv(rel, res, map[string]string{"SETUP_OCR_COSIGN": "/nonexistent/cosign"}))
	if inst.err == nil || !strings.Contains(inst.stderr, "cosign ('/nonexistent/cosign') is not on PATH") {
		t.Errorf("want a missing-cosign error, got %v:\n%s", inst.err, inst.stderr)
	}
	noOCR(t, inst.temp)
}
