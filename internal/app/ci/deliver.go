package ci

import (
	"fmt"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// Deliverable says whether a report of kind k can reach its destination in
// this context: a posting report needs a pull or merge request of its own
// platform. The error says why not and what to use instead, so the run can
// be refused before a model is paid for a review nobody would see.
func (c Context) Deliverable(k reportspec.Kind) error {
	if c.Platform == PlatformLocal {
		c.Why = "not in CI"
	}
	switch {
	case k == reportspec.KindGitHubReview && (c.Platform != PlatformGitHub || c.PR == 0):
		return fmt.Errorf("github-review posts a review on a GitHub pull request, and there is none here (%s): %s",
			c.Why, c.instead("run it in a workflow on pull_request"))
	case k == reportspec.KindGitLabDiscussion && (c.Platform != PlatformGitLab || c.PR == 0):
		return fmt.Errorf("gitlab-discussion posts on a GitLab merge request, and there is none here (%s): %s",
			c.Why, c.instead(`run it in a merge request pipeline (rules: - if: $CI_PIPELINE_SOURCE == "merge_request_event")`))
	}
	return nil
}

// instead names the reports that do work here, after how to get the
// posting one.
func (c Context) instead(how string) string {
	var here string
	switch c.Platform {
	case PlatformGitHub:
		here = "github-annotations, github-summary and sarif work on any event"
	case PlatformGitLab:
		here = "codequality and text work in any pipeline"
	default:
		here = "here use text, json or sarif (ocr review --format text)"
	}
	return how + ", or leave it out of --report/OCR_REPORTS; " + here
}
