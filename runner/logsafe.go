package runner

import "github.com/ocr-ci/ocr/internal/infra/logtext"

// safeLines formats a message for stderr so that every line starts with
// ocr's own prefix (paths from the diff and API messages cannot start a
// workflow command) and control characters are shown escaped.
func safeLines(s string) string { return logtext.Lines(s, "ocr:   ") }
