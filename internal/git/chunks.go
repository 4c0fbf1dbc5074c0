package git

import "strings"

// chunks collects a command's output in blocks that are never copied while
// it grows, then assembles it once into an exactly sized string: a large
// diff costs its size twice at most, not the doubling garbage of a growing
// buffer.
type chunks struct {
	blocks [][]byte
	size   int
}

// Write appends p, starting a larger block when the current one is full.
func (c *chunks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.blocks) == 0 || len(c.last()) == cap(c.last()) {
			c.blocks = append(c.blocks, make([]byte, 0, c.nextCap()))
		}
		b := c.last()
		k := copy(b[len(b):cap(b)], p)
		c.blocks[len(c.blocks)-1] = b[:len(b)+k]
		p = p[k:]
	}
	c.size += n
	return n, nil
}

func (c *chunks) last() []byte { return c.blocks[len(c.blocks)-1] }

// nextCap grows blocks from 64 KiB to 4 MiB.
func (c *chunks) nextCap() int {
	const first, most = 64 << 10, 4 << 20
	return min(first<<len(c.blocks), most)
}

// String assembles the output and releases the blocks.
func (c *chunks) String() string {
	var b strings.Builder
	b.Grow(c.size)
	for _, blk := range c.blocks {
		b.Write(blk)
	}
	c.blocks = nil
	return b.String()
}
