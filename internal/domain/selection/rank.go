package selection

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/internal/domain/rules"
	"github.com/ocr-ci/ocr/review"
)

// Class is the rank of a file when a scan selects more than its budget:
// the lower classes are reviewed first.
type Class int

// The classes, in the order they are reviewed.
const (
	// ClassSource is code in a language the rule catalogue has rules for.
	ClassSource Class = iota
	// ClassBuild is build, CI and configuration files: Dockerfiles,
	// workflows, Terraform, manifests, Makefiles.
	ClassBuild
	// ClassOther is any other text.
	ClassOther
	// ClassData is data: JSON, YAML, CSV, snapshots and fixtures.
	ClassData
)

// String names the class in a file's detail.
func (c Class) String() string {
	return [...]string{"source code", "build, CI or configuration file", "other text", "data file"}[c]
}

// buildRules are the catalogue rules of build, CI and configuration files.
var buildRules = toSet(`ocr/github-actions ocr/manifest ocr/dockerfile ocr/terraform ocr/config ocr/kubernetes`)

// buildNames are build files the catalogue has no rule of its own for.
var buildNames = toSet(`makefile gnumakefile cmakelists.txt jenkinsfile justfile build build.bazel workspace
	vagrantfile procfile`)

// buildExts are extensions of build files.
var buildExts = toSet(`mk cmake bzl bazel gradle nix`)

// Ranker orders a scan's selected files: the class first, then the files
// changed most recently in the history, then the path.
type Ranker struct {
	ruleOf func(string) string
	recent map[string]int
}

// NewRanker ranks by the rule catalogue and by recent, how many commits
// ago each path last changed (git log; nil without a history).
func NewRanker(recent map[string]int) *Ranker {
	return &Ranker{ruleOf: rules.CatalogueID(), recent: recent}
}

// Class returns the class of p.
func (r *Ranker) Class(p string) Class {
	base := strings.ToLower(path.Base(p))
	id := r.ruleOf(p)
	switch {
	case IsData(p):
		return ClassData
	case buildRules[id], buildNames[base], buildExts[strings.TrimPrefix(path.Ext(base), ".")]:
		return ClassBuild
	case id != rules.DefaultRuleID:
		return ClassSource
	}
	return ClassOther
}

// Order returns the indices of the reviewed files in the order they are
// reviewed. It depends only on the paths and the history, so it is the
// same on every machine with the same clone.
func (r *Ranker) Order(files []review.FileCoverage) []int {
	var idx []int
	class := make(map[int]Class)
	for i, f := range files {
		if f.Reviewed {
			idx, class[i] = append(idx, i), r.Class(f.Path)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		fa, fb := idx[a], idx[b]
		if class[fa] != class[fb] {
			return class[fa] < class[fb]
		}
		ra, okA := r.recent[files[fa].Path]
		rb, okB := r.recent[files[fb].Path]
		if okA != okB || ra != rb {
			return okA && (!okB || ra < rb)
		}
		return files[fa].Path < files[fb].Path
	})
	return idx
}

// CapRanked keeps the first limit files of order reviewed and marks the
// others not reviewed with reason and the detail "cut (rank: class):
// hint", so the preview says why a file came after the others. It returns
// how many it cut; limit <= 0 means no cap.
func (r *Ranker) CapRanked(files []review.FileCoverage, order []int, limit int, reason review.Reason, cut, hint string) int {
	if limit <= 0 || len(order) <= limit {
		return 0
	}
	for _, i := range order[limit:] {
		f := &files[i]
		f.Reviewed, f.Reason = false, reason
		f.Detail = fmt.Sprintf("%s (rank: %s): %s", cut, r.Class(f.Path), hint)
	}
	return len(order) - limit
}
