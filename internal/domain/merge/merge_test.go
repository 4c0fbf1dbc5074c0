package merge_test

import (
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/domain/merge"
	"github.com/ocr-ci/ocr/review"
)

func shardReview(i, n int, mut ...func(*review.Review)) merge.Input {
	r := &review.Review{Tool: "ocr", Version: "1.0.0", Mode: "scan", Head: "abc", Config: "cfg", Status: review.StatusComplete,
		Shard: &review.Shard{Index: i, Total: n}, Usage: review.Usage{Requests: i},
		Files:    []review.FileCoverage{{Path: string(rune('a'+n-i)) + ".go", Reviewed: true}},
		Comments: []review.Comment{{Location: review.Location{Path: string(rune('a'+n-i)) + ".go"}, Severity: review.SeverityLow}},
		Rules:    []review.Rule{{ID: "ocr/go"}}}
	for _, m := range mut {
		m(r)
	}
	return merge.Input{Name: "shard" + string(rune('0'+i)) + ".json", Review: r}
}

func TestMergeWhole(t *testing.T) {
	res, err := merge.Reviews([]merge.Input{shardReview(3, 3), shardReview(1, 3), shardReview(2, 3)})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Review
	if r.Status != review.StatusComplete || len(res.Missing) != 0 || r.Shard != nil {
		t.Errorf("status %s, missing %v, shard %v", r.Status, res.Missing, r.Shard)
	}
	if len(r.Files) != 3 || r.Files[0].Path != "a.go" || r.Files[2].Path != "c.go" {
		t.Errorf("files not in path order: %+v", r.Files)
	}
	if r.Usage.Requests != 6 || len(r.Comments) != 3 || len(r.Rules) != 1 {
		t.Errorf("usage %d, comments %d, rules %d", r.Usage.Requests, len(r.Comments), len(r.Rules))
	}
}

func TestMergeNamesMissingShard(t *testing.T) {
	res, err := merge.Reviews([]merge.Input{shardReview(1, 4), shardReview(4, 4), shardReview(2, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 1 || res.Missing[0] != 3 || res.Review.Status != review.StatusPartial {
		t.Fatalf("missing %v, status %s; want [3], partial", res.Missing, res.Review.Status)
	}
	if !strings.Contains(strings.Join(res.Review.Errors, "\n"), "shard 3 of 4 is missing") {
		t.Errorf("errors %q do not name shard 3", res.Review.Errors)
	}
}

func TestMergeRefuses(t *testing.T) {
	cases := map[string]struct {
		in   []merge.Input
		want string
	}{
		"commit": {[]merge.Input{shardReview(1, 2), shardReview(2, 2, func(r *review.Review) { r.Head = "def" })}, "different commits (abc and def)"},
		"config": {[]merge.Input{shardReview(1, 2), shardReview(2, 2, func(r *review.Review) { r.Config = "other" })}, "different configurations"},
		"mode":   {[]merge.Input{shardReview(1, 2), shardReview(2, 2, func(r *review.Review) { r.Mode = "range" })}, "different modes"},
		"count":  {[]merge.Input{shardReview(1, 2), shardReview(2, 3)}, "is of 2 shards"},
		"twice":  {[]merge.Input{shardReview(1, 2), shardReview(1, 2)}, "given twice"},
		"unsharded": {[]merge.Input{shardReview(1, 2), shardReview(2, 2, func(r *review.Review) { r.Shard = nil })},
			"not the report of a shard"},
		"none": {nil, "no report to merge"},
	}
	for name, c := range cases {
		if _, err := merge.Reviews(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
}
