package runner

import (
	"net/http"

	"github.com/ocr-ci/ocr/internal/infra/readonce"
)

// forgeClient is the HTTP client of every client of the run that talks to
// its pull or merge request: the poster (the last review's state, then
// posting) and the conversation's state read (pause, ignore). They send
// through one readonce transport, so each page they read is read once
// per run, until the run writes.
func (j *job) forgeClient() *http.Client {
	if j.forgeHTTP == nil {
		// No timeout here: the API clients add their own (60s a request).
		j.forgeHTTP = &http.Client{Transport: readonce.New(nil)}
	}
	return j.forgeHTTP
}
