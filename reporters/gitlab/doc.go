// Package gitlab posts the review to a GitLab merge request as discussions
// (gitlab.Discussion). It decodes notes itself, tolerantly: GitLab sends
// line_range line numbers as strings.
package gitlab
