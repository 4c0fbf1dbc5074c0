package git

import (
	"bytes"
	"errors"
)

// errLimit stops a command whose output reached its limit.
var errLimit = errors.New("output limit reached")

// limitWriter keeps up to max bytes of a command's output, then fails the
// write so the command stops (git gets EPIPE).
type limitWriter struct {
	buf bytes.Buffer
	max int
	hit bool
}

// Write keeps what fits and fails once the limit is reached.
func (w *limitWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); len(p) > room {
		w.buf.Write(p[:max(room, 0)])
		w.hit = true
		return max(room, 0), errLimit
	}
	return w.buf.Write(p)
}

// result is the output and error of the run: when the limit stopped it,
// the output up to its last whole line and no error.
func (w *limitWriter) result(err error) ([]byte, error) {
	out := w.buf.Bytes()
	if !w.hit {
		return out, err
	}
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		return out[:i+1], nil
	}
	return nil, nil
}
