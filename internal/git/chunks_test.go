package git

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestChunksKeepsEveryByteInOrder(t *testing.T) {
	var want bytes.Buffer
	var c chunks
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		p := make([]byte, r.IntN(20000))
		for j := range p {
			p[j] = byte(r.IntN(256))
		}
		want.Write(p)
		if n, err := c.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got := c.String(); got != want.String() {
		t.Fatalf("assembled %d bytes, want %d identical bytes", len(got), want.Len())
	}
}
