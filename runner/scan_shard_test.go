package runner

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/agent/grouping"
	"github.com/ocr-ci/ocr/internal/app/preview"
	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// shardTree writes a tree of many directories of uneven size, with
// same-stem files across directories (review groups) and files selection
// leaves out, so a split has something to get wrong.
func shardTree(write func(path, content string)) {
	for d := 0; d < 14; d++ {
		for f := 0; f <= d%5+1; f++ {
			body := strings.Repeat(fmt.Sprintf("// line of d%d f%d\n", d, f), 10+20*((d*7+f*3)%9))
			write(fmt.Sprintf("pkg%02d/f%d.go", d, f), fmt.Sprintf("package pkg%02d\n\n%sfunc F%d() {}\n", d, body, f))
		}
		write(fmt.Sprintf("pkg%02d/f_test.go", d), "package x\n")
		write(fmt.Sprintf("pkg%02d/data.json", d), "{}\n")
	}
	write("api/Widget.java", "class Widget {}\n")
	write("impl/WidgetImpl.java", "class WidgetImpl extends Widget {}\n") // bundled with api/Widget.java
	write("logo.png", "\x89PNG\x00binary")
	write("pkg03/keys.go", "package pkg03\n\nconst key = `-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n`\n")
}

// scanPreviewFiles runs a JSON preview and returns its files by path.
func scanPreviewFiles(t *testing.T, env testEnv, args ...string) map[string]review.FileCoverage {
	t.Helper()
	code, out, errs := env.run(t, append([]string{"scan", "--preview", "--format", "json", "--max-files", "100000"}, args...)...)
	if code != reporters.ExitOK {
		t.Fatalf("scan %v: exit %d\n%s", args, code, errs)
	}
	var p preview.Preview
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	files := map[string]review.FileCoverage{}
	for _, f := range p.Files {
		files[f.Path] = f
	}
	return files
}

// checkPartition asserts the shards' previews split the unsharded one
// exactly (same files, same reasons, each in one shard), keep every
// directory and every review group of the whole in one shard, and
// returns each shard's estimated tokens.
func checkPartition(t *testing.T, env testEnv, repo string, n int) []int {
	t.Helper()
	whole := scanPreviewFiles(t, env, "--repo", repo)
	owner, union := map[string]int{}, map[string]review.FileCoverage{}
	tokens := make([]int, n)
	for i := 1; i <= n; i++ {
		for p, f := range scanPreviewFiles(t, env, "--repo", repo, "--shard", fmt.Sprintf("%d/%d", i, n)) {
			if prev, ok := owner[p]; ok {
				t.Fatalf("n=%d: %s in shards %d and %d", n, p, prev, i)
			}
			owner[p], union[p] = i, f
			if f.Reviewed {
				tokens[i-1] += fileTokens(t, repo, p)
			}
		}
	}
	if !maps.Equal(union, whole) {
		t.Fatalf("n=%d: the shards' union (%d files) is not the unsharded selection (%d files)", n, len(union), len(whole))
	}
	dirShard := map[string]int{}
	var reviewed []grouping.File
	for p, f := range whole {
		if s, ok := dirShard[path.Dir(p)]; ok && s != owner[p] {
			t.Errorf("n=%d: directory %s split over shards %d and %d", n, path.Dir(p), s, owner[p])
		}
		dirShard[path.Dir(p)] = owner[p]
		if f.Reviewed {
			reviewed = append(reviewed, grouping.File{Path: p, Tokens: fileTokens(t, repo, p)})
		}
	}
	slices.SortFunc(reviewed, func(a, b grouping.File) int { return strings.Compare(a.Path, b.Path) })
	for _, g := range grouping.ByDir(reviewed, 0, 0) {
		for _, i := range g[1:] {
			if owner[reviewed[i].Path] != owner[reviewed[g[0]].Path] {
				t.Errorf("n=%d: a review group straddles shards: %s and %s", n, reviewed[g[0]].Path, reviewed[i].Path)
			}
		}
	}
	return tokens
}

func fileTokens(t *testing.T, repo, p string) int {
	data, err := os.ReadFile(filepath.Join(repo, p))
	if err != nil {
		t.Fatal(err)
	}
	return len(data) / 4
}

func maxOverMean(tokens []int) float64 {
	top, sum := 0, 0
	for _, n := range tokens {
		top, sum = max(top, n), sum+n
	}
	return float64(top) * float64(len(tokens)) / float64(sum)
}

func TestScanShardsPartitionTheSelection(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	shardTree(r.write)
	r.commit("root")
	env := testEnv{}
	for _, n := range []int{2, 3, 4} {
		checkPartition(t, env, r.dir, n)
	}
	// The content secrets check runs on each shard's part (after the split).
	for i := 1; i <= 3; i++ {
		if f, ok := scanPreviewFiles(t, env, "--repo", r.dir, "--shard", fmt.Sprintf("%d/3", i))["pkg03/keys.go"]; ok && f.Reason != review.ReasonSecret {
			t.Errorf("shard %d/3: pkg03/keys.go holds a private key but has reason %q", i, f.Reason)
		}
	}
	// The same split on another clone (another machine).
	clone := filepath.Join(t.TempDir(), "clone")
	r.git("clone", "-q", r.dir, clone)
	for i := 1; i <= 3; i++ {
		a := scanPreviewFiles(t, env, "--repo", r.dir, "--shard", fmt.Sprintf("%d/3", i))
		b := scanPreviewFiles(t, env, "--repo", clone, "--shard", fmt.Sprintf("%d/3", i))
		if !maps.Equal(a, b) {
			t.Errorf("shard %d/3 differs between two clones of one commit", i)
		}
	}
	// A GitLab job with parallel: 3 is shard CI_NODE_INDEX of 3.
	gl := testEnv{"GITLAB_CI": "true", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}
	if got, want := scanPreviewFiles(t, gl, "--repo", r.dir), scanPreviewFiles(t, env, "--repo", r.dir, "--shard", "2/3"); !maps.Equal(got, want) {
		t.Errorf("CI_NODE_INDEX=2 CI_NODE_TOTAL=3 did not select shard 2/3")
	}
}

// TestScanShardsOfThisRepository splits this repository itself: exact,
// directories whole, and no shard over 1.5× the mean of estimated tokens.
func TestScanShardsOfThisRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole repository N+1 times")
	}
	t.Parallel()
	for _, n := range []int{2, 4} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			tokens := checkPartition(t, testEnv{}, modulePath(), n)
			if b := maxOverMean(tokens); b > 1.5 {
				t.Errorf("n=%d: max/mean %.2f > 1.5 (tokens %v)", n, b, tokens)
			}
			t.Logf("n=%d: tokens per shard %v, max/mean %.2f", n, tokens, maxOverMean(tokens))
		})
	}
}

func TestScanShardFlagErrors(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	scanTree(r.write)
	r.commit("root")
	for _, bad := range []string{"0/2", "3/2", "two", "1/0"} {
		code, _, errs := testEnv{}.run(t, "scan", "--repo", r.dir, "--preview", "--shard", bad)
		if code != reporters.ExitUsage || !strings.Contains(errs, "--shard") {
			t.Errorf("--shard %s: exit %d, %q", bad, code, errs)
		}
	}
	if code, _, errs := (testEnv{"OCR_SHARD": "9/4"}).run(t, "scan", "--repo", r.dir, "--preview"); code != reporters.ExitUsage || !strings.Contains(errs, "OCR_SHARD") {
		t.Errorf("OCR_SHARD=9/4: exit %d, %q", code, errs)
	}
}

// TestShardWithNothingSaysWhy: five files in one directory go to one
// shard; the other says why it got nothing (directories are kept whole)
// and what to do, and the advice works: scanning without --shard, or with
// as many shards as directories, leaves no shard empty.
func TestShardWithNothingSaysWhy(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for i := range 5 {
		r.write(fmt.Sprintf("f%d.go", i), fmt.Sprintf("package p\n\nfunc F%d() {}\n", i))
	}
	r.commit("one")
	env := testEnv{}
	var empty string
	for i := 1; i <= 2; i++ {
		code, _, errs := env.run(t, "scan", "--preview", "--repo", r.dir, "--shard", fmt.Sprintf("%d/2", i))
		if code != reporters.ExitOK {
			t.Fatalf("shard %d/2: exit %d, %s", i, code, errs)
		}
		if strings.Contains(errs, "got no file") {
			empty = errs
		}
	}
	for _, want := range []string{"in 1 directory", "a directory is never split across shards", "scan without --shard"} {
		if !strings.Contains(empty, want) {
			t.Errorf("the empty shard's note lacks %q: %q", want, empty)
		}
	}
	if got := scanPreviewFiles(t, env, "--repo", r.dir); len(got) != 5 {
		t.Errorf("without --shard: %d file(s), want 5", len(got))
	}
	r.write("sub/g.go", "package sub\n")
	r.commit("two")
	for i := 1; i <= 2; i++ {
		if _, _, errs := env.run(t, "scan", "--preview", "--repo", r.dir, "--shard", fmt.Sprintf("%d/2", i)); strings.Contains(errs, "got no file") {
			t.Errorf("two directories, shard %d/2 is empty: %s", i, errs)
		}
	}
}
