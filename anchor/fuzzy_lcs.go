package anchor

import "math/bits"

// bitLCS computes the length of the longest common subsequence of one
// quote (token ids) and many windows, 64 quote tokens per machine word
// (Hyyrö's bit-parallel algorithm): a window of t tokens costs t·words
// word operations instead of t·len(quote) table cells.
type bitLCS struct {
	n     int        // quote tokens
	words int        // words per bit vector
	masks [][]uint64 // by token id: the quote positions holding it, nil when none
	v     []uint64   // scratch
}

func newBitLCS(want []int32, vocab int) *bitLCS {
	words := (len(want) + 63) / 64
	b := &bitLCS{n: len(want), words: words, masks: make([][]uint64, vocab), v: make([]uint64, words)}
	for i, id := range want {
		if id < 0 {
			continue // a token seq lacks matches nothing
		}
		if b.masks[id] == nil {
			b.masks[id] = make([]uint64, words)
		}
		b.masks[id][i/64] |= 1 << (i % 64)
	}
	return b
}

// length is the LCS of the quote and the concatenation of lines. V starts
// all ones; each token with match mask M turns it into
// (V + (V&M)) | (V&^M), the addition carrying across words; the LCS is the
// number of zero bits among the quote's positions.
func (b *bitLCS) length(lines [][]int32) int {
	v := b.v
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, line := range lines {
		for _, id := range line {
			m := b.masks[id]
			if m == nil {
				continue // V&M is empty: V stays
			}
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
