package config

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-envconfig"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// Lookup reads one environment variable: os.LookupEnv in production, a
// map in tests.
type Lookup func(key string) (string, bool)

// MapLookup is a Lookup over a fixed environment.
func MapLookup(env map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// Error is a configuration error: the setting named in it is wrong.
type Error struct{ err error }

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }

func errorf(format string, args ...any) error { return &Error{fmt.Errorf(format, args...)} }

// Load reads the configuration from lookup: every OCR_* variable by its
// exact name (never the unprefixed one: REPO or COMMIT in a CI job mean
// nothing to ocr). Flags are bound on the result
// (Bind) and Validate runs once after them.
func Load(lookup Lookup) (Config, error) {
	var c Config
	if err := refuseEmpty(lookup, &c); err != nil {
		return c, err
	}
	err := envconfig.ProcessWith(context.Background(), &envconfig.Config{
		Target: &c, Lookuper: envconfig.LookuperFunc(lookup),
	})
	if err != nil {
		return c, errorf("could not read the OCR_* environment: %w", err)
	}
	return c, c.checkLimits(lookup)
}

// LoadLLM reads the LLM endpoint settings from lookup. It is separate from
// Load because only a review that calls a model needs them: a preview or
// `ocr env` works, and reports the problem, when they are wrong.
func LoadLLM(lookup Lookup) (llm.Config, error) {
	c, err := loadLLM(lookup)
	if err != nil {
		return c, errorf("could not read the LLM configuration: %w", err)
	}
	return c, nil
}

// refuseEmpty keeps the documented rule for OCR_* variables: one that is
// set but empty counts as set, and a number, a boolean or a duration refuses
// the empty value (go-envconfig would take it as unset). It also refuses a
// value that does not parse, naming the variable (go-envconfig's own error
// names the Go field).
func refuseEmpty(lookup Lookup, c *Config) error {
	t := reflect.TypeOf(c).Elem()
	for i := range t.NumField() {
		f := t.Field(i)
		key := f.Tag.Get("env")
		if key == "" || f.Type.Kind() == reflect.String || f.Type.Kind() == reflect.Slice {
			continue
		}
		v, ok := lookup(key)
		if !ok {
			continue
		}
		if v == "" {
			return errorf("could not read the OCR_* environment: %s is set but empty: unset it or give a value", key)
		}
		if want := parses(f.Type, v); want != "" {
			return errorf("could not read the OCR_* environment: %s=%q: want %s", key, v, want)
		}
	}
	return nil
}

// parses says what a value of type t should look like when v is not one
// ("" when it is).
func parses(t reflect.Type, v string) string {
	var err error
	want := ""
	switch {
	case t == reflect.TypeFor[time.Duration]():
		_, err = time.ParseDuration(v)
		want = "a Go duration such as 20m or 90s"
	case t.Kind() == reflect.Bool:
		_, err = strconv.ParseBool(v)
		want = "true or false (1 or 0)"
	case t.Kind() == reflect.Int:
		_, err = strconv.Atoi(v)
		want = "a whole number"
	case t.Kind() == reflect.Float64:
		_, err = strconv.ParseFloat(v, 64)
		want = "a number such as 2.5"
	}
	if err == nil {
		return ""
	}
	return want
}

// Keys lists every variable Load reads, for the documentation checks.
func Keys() []string {
	var keys []string
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("env"); k != "" {
			keys = append(keys, k)
		}
	}
	t = reflect.TypeFor[llmVars]()
	for i := range t.NumField() {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("env"), ",")
		keys = append(keys, k)
	}
	return keys
}

// llmVars are the LLM endpoint variables. A value that is empty or blank
// counts as unset (CI templates pass empty inputs), and values are trimmed.
type llmVars struct {
	URL             string     `env:"OCR_LLM_URL"`
	Token           string     `env:"OCR_LLM_TOKEN"`
	Model           string     `env:"OCR_LLM_MODEL"`
	Timeout         secondsVar `env:"OCR_LLM_TIMEOUT"`
	ExtraHeaders    headersVar `env:"OCR_LLM_EXTRA_HEADERS"`
	ExtraBody       bodyVar    `env:"OCR_LLM_EXTRA_BODY"`
	Temperature     tempVar    `env:"OCR_LLM_TEMPERATURE"`
	AzureDeployment string     `env:"OCR_LLM_AZURE_DEPLOYMENT"`
	AzureAPIVersion string     `env:"OCR_LLM_AZURE_API_VERSION"`
	Tools           toolsVar   `env:"OCR_LLM_TOOLS"`
	Context         contextVar `env:"OCR_LLM_CONTEXT"`
	OpenAIKey       string     `env:"OPENAI_API_KEY"`
	OpenAIBaseURL   string     `env:"OPENAI_BASE_URL"`
	OpenAIModel     string     `env:"OPENAI_MODEL"`
}

func loadLLM(lookup Lookup) (llm.Config, error) {
	var v llmVars
	trimmed := func(k string) (string, bool) {
		s, ok := lookup(k)
		s = strings.TrimSpace(s)
		return s, ok && s != ""
	}
	err := envconfig.ProcessWith(context.Background(), &envconfig.Config{
		Target: &v, Lookuper: envconfig.LookuperFunc(trimmed),
	})
	if err != nil {
		return llm.Config{}, unwrapField(err)
	}
	return llm.Config{
		URL: v.URL, Token: v.Token, Model: v.Model, Timeout: llm.Seconds(v.Timeout),
		ExtraHeaders: llm.Headers(v.ExtraHeaders), ExtraBody: llm.Body(v.ExtraBody),
		AzureDeployment: v.AzureDeployment, AzureAPIVersion: v.AzureAPIVersion,
		OpenAIKey: v.OpenAIKey, OpenAIBaseURL: v.OpenAIBaseURL, OpenAIModel: v.OpenAIModel,
		Temperature: llm.Temperature(v.Temperature), Tools: string(v.Tools), Context: int(v.Context),
	}, nil
}

// varError names the variable a decoder failed on.
type varError struct {
	key string
	err error
}

func (e *varError) Error() string { return "invalid " + e.key + ": " + e.err.Error() }
func (e *varError) Unwrap() error { return e.err }

// unwrapField returns the decoder's own error, which names the variable,
// without go-envconfig's "FieldName: " prefix.
func unwrapField(err error) error {
	if ve, ok := errors.AsType[*varError](err); ok {
		return ve
	}
	return err
}

type secondsVar llm.Seconds

// EnvDecode reads integer seconds or a Go duration.
func (s *secondsVar) EnvDecode(v string) error {
	if v == "" {
		return nil // unset: the lookup hides blank values
	}
	return named("OCR_LLM_TIMEOUT", (*llm.Seconds)(s).Decode(v))
}

type tempVar llm.Temperature

// EnvDecode reads a temperature from 0 to 2.
func (t *tempVar) EnvDecode(v string) error {
	if v == "" {
		return nil // unset: the lookup hides blank values
	}
	return named("OCR_LLM_TEMPERATURE", (*llm.Temperature)(t).Decode(v))
}

type headersVar llm.Headers

// EnvDecode reads a JSON object or k=v,k=v.
func (h *headersVar) EnvDecode(v string) error {
	if v == "" {
		return nil // unset: the lookup hides blank values
	}
	return named("OCR_LLM_EXTRA_HEADERS", (*llm.Headers)(h).Decode(v))
}

type bodyVar llm.Body

// EnvDecode reads a JSON object.
func (b *bodyVar) EnvDecode(v string) error {
	if v == "" {
		return nil // unset: the lookup hides blank values
	}
	return named("OCR_LLM_EXTRA_BODY", (*llm.Body)(b).Decode(v))
}

type toolsVar string

// EnvDecode reads auto, native or text.
func (t *toolsVar) EnvDecode(v string) error {
	switch s := strings.ToLower(v); s {
	case "", llm.ToolsAuto, llm.ToolsNative, llm.ToolsText:
		*t = toolsVar(s)
		return nil
	}
	return named("OCR_LLM_TOOLS", fmt.Errorf("%q is not auto, native or text", v))
}

type contextVar int

// EnvDecode reads a window of at least 1024 tokens.
func (c *contextVar) EnvDecode(v string) error {
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n < minContext {
		return named("OCR_LLM_CONTEXT", fmt.Errorf("%q is not a number of tokens of at least %d (the model's context window, such as 32768)", v, minContext))
	}
	*c = contextVar(n)
	return nil
}

// minContext is the smallest context window ocr can review with.
const minContext = 1024

func named(key string, err error) error {
	if err == nil {
		return nil
	}
	return &varError{key, err}
}
