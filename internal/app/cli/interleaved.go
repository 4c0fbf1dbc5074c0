package cli

import (
	"flag"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// SplitInterleaved separates the flags of command name from its
// positional arguments when flags may come before or after them; "--"
// ends the flags.
func SplitInterleaved(name string, args []string) (flags, pos []string) {
	var scratch config.Config
	fs := FlagSet(Find(name), &scratch, nil)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-' && a != "-":
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && !isBoolFlag(fs, a) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	return flags, pos
}

// isBoolFlag reports whether a flag takes no value (help, or a boolean of
// the command; an unknown flag is reported by the parser).
func isBoolFlag(fs *flag.FlagSet, a string) bool {
	name := strings.TrimLeft(a, "-")
	if name == "h" || name == "help" {
		return true
	}
	f := fs.Lookup(name)
	if f == nil {
		return true
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
