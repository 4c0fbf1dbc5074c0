// Package posting is what the GitHub and GitLab posters share: the posting
// plan, comment bodies and Markdown escaping, the hidden markers and the
// recorded state (and reading it back), and the sticky summary body.
package posting
