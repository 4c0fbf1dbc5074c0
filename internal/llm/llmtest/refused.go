package llmtest

import (
	"net"
	"testing"
)

// RefusedURL is a base URL on loopback where nothing listens: a connection
// is refused at once. The port was bound and released, so no other test
// server of this process holds it at that moment.
func RefusedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}
