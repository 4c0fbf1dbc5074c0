package llmtest

import (
	"context"
	"net"
	"testing"
)

// RefusedURL is a base URL on loopback where nothing listens: a connection
// is refused at once. The port was bound and released, so no other test
// server of this process holds it at that moment.
func RefusedURL(t testing.TB) string {
	t.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatalf("llmtest: release %s: %v", addr, err)
	}
	return "http://" + addr + "/v1"
}
