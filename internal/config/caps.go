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

// ForkCaps lowers the caps the user did not set, for a fork's pull request.
func (c *Config) ForkCaps() {
	setIfZero(&c.MaxFiles, ForkMaxFiles)
	setIfZero(&c.MaxTokensBudget, ForkMaxTokens)
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
