package anchor

import "math/bits"

// bitLCS computes the length of the longest common subsequence of one
// quote (token ids) and many windows, 64 quote tokens per machine word
// (Hyyrö's bit-parallel algorithm): a window of t tokens costs t·words
// word operations instead of t·len(quote) table cells.
type bitLCS struct {
	n     int      // quote tokens
	words int      // words per bit vector
	local []int32  // quoteTokens.local
	masks []uint64 // words per distinct quote token: the positions holding it
	v     []uint64 // scratch
}

func newBitLCS(q *quoteTokens) *bitLCS {
	words := (len(q.want) + 63) / 64
	b := &bitLCS{n: len(q.want), words: words, local: q.local, masks: make([]uint64, (q.distinct+1)*words)}
	b.v, b.masks = b.masks[:words], b.masks[words:]
	for i, t := range q.want {
		if t >= 0 { // a token seq lacks matches nothing
			b.masks[int(t)*words+i/64] |= 1 << (i % 64)
		}
	}
	return b
}

// length is the LCS of the quote and the concatenation of lines (token
// ids of seq). V starts all ones; each token with match mask M turns it
// into (V + (V&M)) | (V&^M), the addition carrying across words; the LCS
// is the number of zero bits among the quote's positions.
func (b *bitLCS) length(lines [][]int32) int {
	v := b.v
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, line := range lines {
		for _, id := range line {
			t := int(b.local[id]) - 1
			if t < 0 {
				continue // V&M is empty: V stays
			}
			m := b.masks[t*b.words : (t+1)*b.words]
			var carry uint64
			for k, x := range v {
				u := x & m[k]
				var sum uint64
				sum, carry = bits.Add64(x, u, carry)
				v[k] = sum | (x &^ u)
			}
		}
	}
	ones := 0
	for k, x := range v {
		if valid := b.n - 64*k; valid < 64 {
			x &= 1<<valid - 1 // bits past the quote carry noise
		}
		ones += bits.OnesCount64(x)
	}
	return b.n - ones
}

// tokens splits a normalised line into identifiers/numbers and single
// punctuation characters.
func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ':
			i++
		case isWord(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func isWord(c byte) bool {
	return c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
