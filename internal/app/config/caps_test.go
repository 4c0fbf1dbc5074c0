package config

import "testing"

// TestForkCapsAfterDefaults: in a run Validate fills the defaults before
// CI detection lowers the caps for an untrusted head; the lowering must
// still take, and a cap the user gave (even one equal to the default, or
// none) must not be lowered.
func TestForkCapsAfterDefaults(t *testing.T) {
	for _, tc := range []struct {
		name                string
		files, tokens       int
		wantFiles, wantToks int
	}{
		{"unset", 0, 0, ForkMaxFiles, ForkMaxTokens},
		{"files given", 250, 0, 250, ForkMaxTokens},
		{"files given equal to the default", DefaultMaxFiles, 0, DefaultMaxFiles, ForkMaxTokens},
		{"no budget given", 0, -1, ForkMaxFiles, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Config{MaxFiles: tc.files, MaxTokensBudget: tc.tokens}
			c.Defaults()
			c.ForkCaps()
			if c.MaxFiles != tc.wantFiles || c.MaxTokensBudget != tc.wantToks {
				t.Errorf("%d files, %d tokens; want %d and %d", c.MaxFiles, c.MaxTokensBudget, tc.wantFiles, tc.wantToks)
			}
			files, tokens := c.CapsGiven()
			if files != (tc.files != 0) || tokens != (tc.tokens != 0) {
				t.Errorf("CapsGiven = %v, %v", files, tokens)
			}
		})
	}
}
