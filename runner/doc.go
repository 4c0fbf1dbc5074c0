// Package runner is the one place that knows every other package: it reads
// flags and the environment into a config.Config, detects the CI context, computes
// the change under review, selects files, runs the agent, and hands the
// finished review to the reporters. It maps failures to exit codes.
package runner
