// Package ci is CI detection: it reads the GitHub Actions and GitLab CI
// variables through a lookup and decides the review range, the pull or
// merge request and the default reports, and it finds the pull request of
// an issue_comment event.
package ci
