package cli

import (
	"flag"
	"io"
	"strings"

	"github.com/ocr-ci/ocr/internal/app/config"
)

// FlagValue is the value of the flag name in args (-name V, --name=V),
// and whether it was given on the command line (not through a variable).
func FlagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// CheckReview refuses what ocr review would otherwise ignore: a shard
// (scans only), and with --preview a --report or a --format other than
// text or json (the preview writes no report).
func CheckReview(cfg *config.Config, args []string) error {
	if cfg.Shard != "" {
		return usagef("OCR_SHARD (%s) applies to ocr scan only: ocr review reviews the whole change; unset it", cfg.Shard)
	}
	if !cfg.Preview {
		return nil
	}
	if _, given := FlagValue(args, "report"); given {
		return usagef("--preview writes no report: it prints the file selection (--format text or json, to --output); drop --report")
	}
	if f := strings.ToLower(cfg.Format); f != "" && f != "text" && f != "json" {
		return usagef("--preview prints the file selection as text or json, not %s: drop --format %s, or drop --preview to write the report", f, f)
	}
	return nil
}

// ParseInit reads `ocr init`'s flags, --repo (default ".") and --forge;
// help goes to w (flag.ErrHelp).
func ParseInit(w io.Writer, args []string) (repo, forge string, err error) {
	sub := Find("init")
	var cfg config.Config
	fs := FlagSet(sub, &cfg, nil)
	fs.StringVar(&forge, "forge", "", "`FORGE` github or gitlab (default: the host of the origin remote)")
	if WantsHelp(args) {
		if err := PrintHelp(w, sub, fs); err != nil {
			return "", "", err
		}
		return "", "", flag.ErrHelp
	}
	if err := fs.Parse(args); err != nil {
		return "", "", ParseError(sub, fs, err)
	}
	if fs.NArg() > 0 {
		return "", "", usagef("ocr init takes no argument %q: pass flags only (--repo DIR, --forge github|gitlab)", fs.Arg(0))
	}
	if forge = strings.ToLower(forge); forge != "" && forge != "github" && forge != "gitlab" {
		return "", "", usagef("--forge %q: want github or gitlab", forge)
	}
	return cmpOr(cfg.Repo, "."), forge, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// EnvFormat is how ocr env itself is written, from its --format flag:
// "text" (also when not given) or "json". The flag does not change what a
// review would write, so cfg.Format goes back to OCR_FORMAT's value.
func EnvFormat(cfg *config.Config, args []string, lookup func(string) (string, bool)) (string, error) {
	format, given := FlagValue(args, "format")
	if !given {
		return "text", nil
	}
	cfg.Format, _ = lookup("OCR_FORMAT")
	if format != "text" && format != "json" {
		return "", usagef("ocr env --format writes text or json, not %q", format)
	}
	return format, nil
}
