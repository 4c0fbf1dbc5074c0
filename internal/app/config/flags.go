package config

import (
	"flag"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ocr-ci/ocr/review/reportspec"
)

// A limit is the smallest value a number setting accepts. The zero value
// of a Config field means "the default", so an explicit 0 (or a negative
// number) given by a flag or a variable is refused where it makes no sense
// instead of silently becoming the default.
type limit struct {
	flag, env string
	min       int
	// zero says what 0 means when 0 is accepted.
	zero string
	// field is the Config field the setting fills.
	field func(*Config) *int
}

// limits lists every limited number setting: one row per flag, and the
// environment check reads each row's field (a setting missing here would
// be neither checked nor bound with its limit).
var limits = []limit{
	{flag: "max-git-procs", env: "OCR_MAX_GIT_PROCS", min: 1, field: func(c *Config) *int { return &c.MaxGitProcs }},
	{flag: "max-file-tokens", env: "OCR_MAX_FILE_TOKENS", min: 1, field: func(c *Config) *int { return &c.MaxFileTokens }},
	{flag: "concurrency", env: "OCR_CONCURRENCY", min: 1, field: func(c *Config) *int { return &c.Concurrency }},
	{flag: "max-tokens-budget", env: "OCR_MAX_TOKENS_BUDGET", min: 0, zero: "the default cap",
		field: func(c *Config) *int { return &c.MaxTokensBudget }},
	{flag: "max-diff-mb", env: "OCR_MAX_DIFF_MB", min: 0, zero: "the default cap", field: func(c *Config) *int { return &c.MaxDiffMB }},
	{flag: "max-files", env: "OCR_MAX_FILES", min: 0, zero: "the default cap", field: func(c *Config) *int { return &c.MaxFiles }},
	{flag: "max-comments", env: "OCR_MAX_COMMENTS", min: 1, field: func(c *Config) *int { return &c.MaxComments }},
	{flag: "max-inline", env: "OCR_MAX_INLINE", min: 1, field: func(c *Config) *int { return &c.MaxInline }},
	{flag: "passes", env: "OCR_PASSES", min: 1, field: func(c *Config) *int { return &c.Passes }},
	{flag: "min-votes", env: "OCR_MIN_VOTES", min: 1, field: func(c *Config) *int { return &c.MinVotes }},
}

// checkMin refuses n below the limit, naming the setting as the user gave it.
func (l limit) checkMin(n int) error {
	if n >= l.min {
		return nil
	}
	if l.zero != "" {
		return fmt.Errorf("must be %d or more (%d means %s)", l.min, l.min, l.zero)
	}
	return fmt.Errorf("must be at least %d", l.min)
}

// intFlag is an int flag that refuses values below its limit.
type intFlag struct {
	p *int
	l limit
}

func (f *intFlag) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f *intFlag) Set(v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("want a whole number")
	}
	if err := f.l.checkMin(n); err != nil {
		return err
	}
	*f.p = n
	return nil
}

// durationFlag is a positive duration flag.
type durationFlag struct{ p *time.Duration }

func (f *durationFlag) String() string {
	if f == nil || f.p == nil || *f.p == 0 {
		return ""
	}
	return f.p.String()
}

func (f *durationFlag) Set(v string) error {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("want a Go duration such as 20m or 90s")
	}
	if d <= 0 {
		return fmt.Errorf("must be longer than 0 (for example 20m)")
	}
	*f.p = d
	return nil
}

// bindInt binds an int flag with its limit.
func bindInt(fs *flag.FlagSet, p *int, name, usage string) {
	l := limit{flag: name, min: 0}
	for _, x := range limits {
		if x.flag == name {
			l = x
		}
	}
	fs.Var(&intFlag{p: p, l: l}, name, usage)
}

// checkLimits refuses numbers out of range that came from the environment
// (the flags check their own as they are parsed).
func (c *Config) checkLimits(lookup Lookup) error {
	for _, l := range limits {
		if _, set := lookup(l.env); !set {
			continue
		}
		if n := *l.field(c); l.checkMin(n) != nil {
			return errorf("%s=%d: %s", l.env, n, l.checkMin(n))
		}
	}
	if _, set := lookup("OCR_TIMEOUT"); set && c.Timeout <= 0 {
		return errorf("OCR_TIMEOUT=%s: must be longer than 0 (for example 20m)", c.Timeout)
	}
	return nil
}

// FormatKinds lists the kinds --format accepts, for its help and errors.
func FormatKinds() []string {
	var out []string
	for _, k := range reportspec.Kinds {
		if !k.API() {
			out = append(out, string(k))
		}
	}
	return out
}

// FlagGroup is a titled set of review flags, for help.
type FlagGroup struct {
	Title string
	Flags []string
}

// FlagGroups orders every review flag by topic, for `ocr review --help`.
func FlagGroups() []FlagGroup {
	return []FlagGroup{
		{"What to review", []string{"repo", "from", "to", "commit", "preview", "full"}},
		{"Which files", []string{"exclude", "include", "include-tests", "max-file-tokens"}},
		{"Reports and exit code", []string{"format", "output", "report", "verbose", "quiet", "fail-on", "allow-partial", "sarif-file", "sarif-category"}},
		{"Model and instructions", []string{"model", "language", "background", "background-file", "rule", "config-ref", "tools", "effort", "no-filter", "passes", "min-votes"}},
		{"Limits", []string{"timeout", "max-tokens-budget", "max-cost", "max-files", "max-diff-mb", "concurrency", "max-comments", "max-inline", "post-min-severity", "max-git-procs"}},
	}
}

// FlagEnv maps every review flag to the variable of the Config field it
// sets (by the field's address), so help and docs name it.
func FlagEnv() map[string]string {
	var cfg Config
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	cfg.Bind(fs)
	byAddr := map[uintptr]string{}
	rv := reflect.ValueOf(&cfg).Elem()
	for i := range rv.NumField() {
		byAddr[rv.Field(i).Addr().Pointer()] = rv.Type().Field(i).Tag.Get("env")
	}
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		var addr uintptr
		switch v := f.Value.(type) {
		case *ListFlag:
			addr = reflect.ValueOf(v.Values()).Pointer()
		case *intFlag:
			addr = reflect.ValueOf(v.p).Pointer()
		case *durationFlag:
			addr = reflect.ValueOf(v.p).Pointer()
		default:
			addr = reflect.ValueOf(f.Value).Pointer()
		}
		out[f.Name] = byAddr[addr]
	})
	return out
}
