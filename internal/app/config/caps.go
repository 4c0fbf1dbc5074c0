package config

// Default caps: generous for a normal pull request (tens of files, a diff of
// a few MiB, a few hundred thousand tokens), they bound what a hostile one
// can cost: memory (a PR of many ~30 MB text files), requests (100,000 tiny
// files became 13,000 groups) and tokens. A fork's pull request, whose
// author is not trusted, gets lower ones. docs/reference.md lists them.
const (
	DefaultMaxDiffMB = 128
	DefaultMaxFiles  = 300
	DefaultMaxTokens = 5_000_000
	ForkMaxFiles     = 100
	ForkMaxTokens    = 1_000_000
)

// givenCaps are the caps as the environment and the flags gave them,
// recorded before Defaults fills the unset ones: ForkCaps must tell a cap
// the user set from a default, and in a run Defaults comes first
// (Validate, before CI detection).
type givenCaps struct {
	recorded      bool
	files, tokens int
}

// recordCaps keeps the caps as given, once.
func (c *Config) recordCaps() {
	if !c.given.recorded {
		c.given = givenCaps{recorded: true, files: c.MaxFiles, tokens: c.MaxTokensBudget}
	}
}

// ForkCaps lowers the caps the user did not set, for an untrusted head (a
// fork's pull or merge request), whether Defaults ran before or not.
func (c *Config) ForkCaps() {
	c.recordCaps()
	if c.given.files == 0 {
		c.MaxFiles = ForkMaxFiles
	}
	if c.given.tokens == 0 {
		c.MaxTokensBudget = ForkMaxTokens
	}
}

// CapsGiven reports whether the user set the file cap and the token
// budget (flags or OCR_* variables), as opposed to their defaults.
func (c *Config) CapsGiven() (files, tokens bool) {
	c.recordCaps()
	return c.given.files != 0, c.given.tokens != 0
}

// DiffBudget is the diff budget in bytes of parser cost; 0 means none.
func (c *Config) DiffBudget() int64 {
	if c.MaxDiffMB <= 0 {
		return 0
	}
	return int64(c.MaxDiffMB) << 20
}

// setIfZero sets an unset cap; a negative one means "none" and is kept.
func setIfZero(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}
