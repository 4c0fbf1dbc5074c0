package selection

import (
	"slices"
	"testing"

	"github.com/ocr-ci/ocr/anchor/udiff"
	"github.com/ocr-ci/ocr/review"
)

func TestIsData(t *testing.T) {
	for p, want := range map[string]bool{
		"data/users.json": true, "k8s/values.yaml": true, "report.csv": true, "ui/__snapshots__/a.js.snap": true,
		"pkg/testdata/input.go": true, "fixtures/x.sql": true, "api/schema.yml": true,
		"package.json": false, ".github/workflows/ci.yml": false, "sub/.gitlab-ci.yml": false, "docker-compose.yml": false,
		"tsconfig.build.json": false, "main.go": false, "Dockerfile": false, "action.yml": false, ".golangci.yml": false,
	} {
		if got := IsData(p); got != want {
			t.Errorf("IsData(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestDataReasonOnlyWhenAsked(t *testing.T) {
	f := []udiff.File{file("data/users.json", udiff.StatusAdded, "{}")}
	diffs := map[string]string{"data/users.json": "+{}"}
	if got := Files(f, diffs, Options{MaxFileTokens: 100})[0]; !got.Reviewed {
		t.Errorf("a review leaves JSON out: %+v", got)
	}
	if got := Files(f, diffs, Options{MaxFileTokens: 100, LeaveOutData: true})[0]; got.Reason != review.ReasonData {
		t.Errorf("scan: reason %q, want data", got.Reason)
	}
	if got := Files(f, diffs, Options{MaxFileTokens: 100, LeaveOutData: true, Include: []string{"data/**"}})[0]; !got.Reviewed {
		t.Errorf("--include data/** did not bring it back: %+v", got)
	}
}

func TestRankOrderAndCap(t *testing.T) {
	var files []review.FileCoverage
	for _, p := range []string{"README.txt", "data/a.json", "infra/main.tf", "lib/old.go", "lib/new.go", "web/app.ts", "Dockerfile", "skipped.go"} {
		files = append(files, review.FileCoverage{Path: p, Reviewed: p != "skipped.go"})
	}
	r := NewRanker(map[string]int{"README.txt": 0, "lib/new.go": 1, "Dockerfile": 1, "lib/old.go": 2, "web/app.ts": 2})
	var got []string
	for _, i := range r.Order(files) {
		got = append(got, files[i].Path)
	}
	want := []string{"lib/new.go", "lib/old.go", "web/app.ts", "Dockerfile", "infra/main.tf", "README.txt", "data/a.json"} // a tie goes by path
	if !slices.Equal(got, want) {
		t.Fatalf("order %q\nwant  %q", got, want)
	}
	if n := r.CapRanked(files, r.Order(files), 5, review.ReasonBudget, "beyond --max-files 5", "raise it"); n != 2 {
		t.Fatalf("cut %d, want 2", n)
	}
	for _, f := range files {
		cut := f.Path == "README.txt" || f.Path == "data/a.json"
		if cut != (f.Reason == review.ReasonBudget) {
			t.Errorf("%s: reason %q (cut: %v)", f.Path, f.Reason, cut)
		}
	}
	if d := files[1].Detail; d == "" || d != "beyond --max-files 5 (rank: data file): raise it" {
		t.Errorf("detail %q does not say the rank", d)
	}
}
