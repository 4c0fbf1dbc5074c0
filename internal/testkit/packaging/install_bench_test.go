package packaging

import (
	"os"
	"testing"
)

// BenchmarkInstall times the action's two install steps (resolve, then
// download + signature check + SHA-256 check + extraction) against the
// fake release and the fake cosign (a shell script: real cosign
// verify-blob, which also fetches Sigstore's trust root, is not timed) on
// loopback, with a real binary when OCR_BENCH_BINARY names one (.ci/extra
// passes goreleaser's linux/amd64 build), else a small fake. It reports
// the archive's size; the network time of a real runner is not in it.
func BenchmarkInstall(b *testing.B) {
	bin := []byte("#!/bin/sh\necho ocr\n")
	if p := os.Getenv("OCR_BENCH_BINARY"); p != "" {
		var err error
		if bin, err = os.ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
	rel := newRelease(b)
	tg := targets[0]
	data := archive(b, tg.asset("v1.2.3"), "ocr", bin)
	sums := []byte(sha256Hex(data) + "  " + tg.asset("v1.2.3") + "\n")
	rel.put("v1.2.3", tg.asset("v1.2.3"), data)
	rel.put("v1.2.3", "checksums.txt", sums)
	rel.sign("v1.2.3", sums, signerPrefix+"v1.2.3", actionsOIDC)
	b.ResetTimer()
	for range b.N {
		_, inst := resolveThenInstall(b, rel, tg, map[string]string{"SETUP_OCR_REF": "v1.2.3"})
		if inst.err != nil {
			b.Fatalf("install: %v\n%s", inst.err, inst.stderr)
		}
	}
	b.ReportMetric(float64(len(data))/(1<<20), "archive-MiB")
}
