package shard_test

import (
	"fmt"
	"math/rand/v2"
	"path"
	"testing"

	"github.com/ocr-ci/ocr/internal/domain/shard"
	"github.com/ocr-ci/ocr/review"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]review.Shard{"1/1": {Index: 1, Total: 1}, "2/4": {Index: 2, Total: 4}, "4/4": {Index: 4, Total: 4}} {
		if got, err := shard.Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "0/4", "5/4", "1/0", "a/b", "1/100000", "-1/2"} {
		if _, err := shard.Parse(in); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
}

// tree is a generated tree: files in dirs directories, sizes skewed like
// a real repository's (a few large files, many small ones).
func tree(files, dirs int, seed uint64) []shard.Item {
	r := rand.New(rand.NewPCG(seed, 1))
	items := make([]shard.Item, files)
	for i := range items {
		items[i] = shard.Item{Path: fmt.Sprintf("d%03d/f%04d.go", r.IntN(dirs), i), Tokens: 50 + int(r.ExpFloat64()*1500)}
	}
	return items
}

func TestAssignPartitionsAndKeepsDirectories(t *testing.T) {
	items := tree(5000, 200, 7)
	together := [][]int{{0, 1, 2}} // a review group that spans directories
	for _, n := range []int{1, 2, 3, 4, 8} {
		got := shard.Assign(items, together, n)
		dirOf := map[string]int{}
		for i, s := range got {
			if s < 1 || s > n {
				t.Fatalf("n=%d: item %d in shard %d", n, i, s)
			}
			d := path.Dir(items[i].Path)
			if prev, ok := dirOf[d]; ok && prev != s {
				t.Fatalf("n=%d: directory %s split over shards %d and %d", n, d, prev, s)
			}
			dirOf[d] = s
		}
		if got[0] != got[1] || got[1] != got[2] {
			t.Errorf("n=%d: a group straddles shards: %v", n, got[:3])
		}
		if b := shard.Balance(items, got, n); n > 1 && b > 1.5 {
			t.Errorf("n=%d: max/mean %.2f > 1.5", n, b)
		}
	}
}

func TestAssignIgnoresInputOrder(t *testing.T) {
	items := tree(800, 60, 3)
	want := map[string]int{}
	for i, s := range shard.Assign(items, nil, 4) {
		want[items[i].Path] = s
	}
	r := rand.New(rand.NewPCG(9, 9))
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	for i, s := range shard.Assign(items, nil, 4) {
		if want[items[i].Path] != s {
			t.Fatalf("%s: shard %d after shuffling, %d before", items[i].Path, s, want[items[i].Path])
		}
	}
}

func TestCategory(t *testing.T) {
	if got := shard.Category("ocr-scan/", review.Shard{Index: 2, Total: 4}); got != "ocr-scan/shard-2-of-4" {
		t.Errorf("Category = %q", got)
	}
}

func BenchmarkAssign(b *testing.B) {
	items := tree(5000, 200, 7)
	for _, n := range []int{2, 4, 8} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			var got []int
			for b.Loop() {
				got = shard.Assign(items, nil, n)
			}
			b.ReportMetric(shard.Balance(items, got, n), "max/mean")
		})
	}
}

func TestResolve(t *testing.T) {
	for _, c := range []struct {
		spec       string
		index, tot int
		want       *review.Shard
		wantErr    bool
	}{
		{"", 0, 0, nil, false},
		{"", 2, 3, &review.Shard{Index: 2, Total: 3}, false},
		{"", 1, 1, nil, false},
		{"1/2", 2, 3, &review.Shard{Index: 1, Total: 2}, false}, // the flag wins
		{"1/1", 0, 0, nil, false},
		{"3/2", 0, 0, nil, true},
	} {
		got, err := shard.Resolve(c.spec, c.index, c.tot)
		if (err != nil) != c.wantErr || (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("Resolve(%q, %d, %d) = %v, %v", c.spec, c.index, c.tot, got, err)
		}
	}
}
