// Package llm is ocr's client for OpenAI-compatible chat-completion
// endpoints: configuration from the environment, retries with backoff that
// honour Retry-After, extra headers and body fields, and usage accounting.
// It imports only the standard library and go-openai.
package llm

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultAzureAPIVersion is the Azure OpenAI api-version used when
// OCR_LLM_AZURE_API_VERSION is unset: the first GA version with tool calls
// (go-openai's default, 2023-05-15, predates them).
const DefaultAzureAPIVersion = "2024-10-21"

// openAIURL is the endpoint used when only OPENAI_API_KEY is set.
const openAIURL = "https://api.openai.com/v1"

// Config is the endpoint configuration, a plain value: internal/app/config
// reads it from the environment (OCR_LLM_*, OPENAI_* fallbacks); this
// package reads no environment.
type Config struct {
	// URL is a base URL ending in /v1 or a full .../chat/completions URL.
	URL   string
	Token string
	Model string
	// Timeout bounds one HTTP attempt: integer seconds or a Go duration.
	Timeout Seconds
	// ExtraHeaders are sent with every request: a JSON object or k=v,k=v.
	ExtraHeaders Headers
	// ExtraBody is a JSON object merged into every request body
	// (provider switches such as {"enable_thinking": false}).
	ExtraBody Body
	// AzureDeployment selects Azure OpenAI: URL is then the resource endpoint
	// (https://NAME.openai.azure.com) and requests go to this deployment.
	AzureDeployment string
	// AzureAPIVersion is the api-version query parameter (default DefaultAzureAPIVersion).
	AzureAPIVersion string
	// OpenAIKey, OpenAIBaseURL and OpenAIModel are the fallbacks for
	// Token, URL and Model (the OpenAI SDKs' OPENAI_* variables).
	OpenAIKey     string
	OpenAIBaseURL string
	OpenAIModel   string
	// Tools is the tool protocol, OCR_LLM_TOOLS: auto (default), native or text.
	Tools string
	// Context is the model's context window in tokens (OCR_LLM_CONTEXT; 0:
	// unknown, learned from the endpoint's first over-context refusal).
	Context int
	// ModelFrom names where Model came from when it is not OCR_LLM_MODEL
	// (the caller's override, such as "--model"); empty means OCR_LLM_MODEL.
	ModelFrom string
	// Temperature is sent with every request (default 0).
	Temperature Temperature
	// Seed is sent with every request that carries none (nil: DefaultSeed).
	Seed *int
}

// ToolMode is Tools, defaulted to ToolsAuto.
func (c Config) ToolMode() string {
	if c.Tools == "" {
		return ToolsAuto
	}
	return c.Tools
}

// BaseURL is the resolved endpoint without a trailing /chat/completions.
func (c Config) BaseURL() string {
	u, _ := c.url()
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	u = strings.TrimSuffix(u, "/chat/completions")
	return strings.TrimRight(u, "/")
}

// url is the endpoint as given and the variable it came from.
func (c Config) url() (string, string) {
	switch {
	case c.URL != "":
		return c.URL, "OCR_LLM_URL"
	case c.OpenAIBaseURL != "":
		return c.OpenAIBaseURL, "OPENAI_BASE_URL"
	case c.OpenAIKey != "":
		return openAIURL, "OpenAI's default, as OPENAI_API_KEY is set"
	}
	return "", ""
}

// URLSource names the variable the endpoint URL came from ("" when unset).
func (c Config) URLSource() string {
	_, src := c.url()
	return src
}

// APIToken is OCR_LLM_TOKEN, or OPENAI_API_KEY when that is unset.
func (c Config) APIToken() string {
	if c.Token != "" {
		return c.Token
	}
	return c.OpenAIKey
}

// TokenSource names the variable the API token came from ("" when unset),
// and how it is sent for Azure.
func (c Config) TokenSource() string {
	src := ""
	switch {
	case c.Token != "":
		src = "OCR_LLM_TOKEN"
	case c.OpenAIKey != "":
		src = "OPENAI_API_KEY"
	default:
		return ""
	}
	if c.Resolved().AzureDeployment != "" {
		src += ", sent as Azure's api-key"
	}
	return src
}

// ModelName is the model to request: Model, else OPENAI_MODEL, else the
// Azure deployment.
func (c Config) ModelName() string {
	name, _ := c.model()
	return name
}

// ModelSource names where the model came from ("" when unset).
func (c Config) ModelSource() string {
	_, src := c.model()
	return src
}

func (c Config) model() (string, string) {
	switch {
	case c.Model != "" && c.ModelFrom != "":
		return c.Model, c.ModelFrom
	case c.Model != "":
		return c.Model, "OCR_LLM_MODEL"
	case c.OpenAIModel != "":
		return c.OpenAIModel, "OPENAI_MODEL"
	case c.AzureDeployment != "":
		return c.AzureDeployment, "OCR_LLM_AZURE_DEPLOYMENT"
	}
	if dep, _, _, ok := c.azurePortal(); ok {
		return dep, "the deployment in OCR_LLM_URL"
	}
	return "", ""
}

// Validate reports missing or malformed settings, naming the variables to set.
func (c Config) Validate() error {
	var missing []string
	base := c.BaseURL()
	if base == "" {
		missing = append(missing, "OCR_LLM_URL (or OPENAI_BASE_URL)")
	}
	if c.APIToken() == "" && !local(base) {
		missing = append(missing, "OCR_LLM_TOKEN (or OPENAI_API_KEY)")
	}
	switch c.ToolMode() {
	case ToolsAuto, ToolsNative, ToolsText:
	default:
		return fmt.Errorf("invalid OCR_LLM_TOOLS %q: want auto, native or text", c.Tools)
	}
	if c.ModelName() == "" {
		missing = append(missing, "OCR_LLM_MODEL (or --model, or OPENAI_MODEL)")
	}
	switch {
	case len(missing) == 0:
	case base == "":
		return fmt.Errorf("no LLM endpoint configured: set %s", strings.Join(missing, ", "))
	default:
		return fmt.Errorf("the LLM endpoint from %s needs more settings: set %s%s",
			c.URLSource(), strings.Join(missing, ", "), tokenNote(base, c.APIToken()))
	}
	u, err := url.Parse(base)
	if err != nil {
		// url.Parse's error quotes the URL, which may carry credentials.
		return fmt.Errorf("invalid %s: it does not parse as a URL; want an http(s) URL such as https://api.openai.com/v1", c.URLSource())
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("invalid %s %q: want an http(s) URL such as https://api.openai.com/v1", c.URLSource(), u.Redacted())
	}
	return nil
}

// tokenNote says why a token is needed when it is missing: the host is
// not one where a token is optional.
func tokenNote(base, token string) string {
	if token != "" || local(base) {
		return ""
	}
	host := "it"
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return fmt.Sprintf(" (%s is not localhost, a loopback address or a name without a dot: it needs a token)", host)
}

// local reports whether base points at this machine or at a single-label
// host such as a CI service container ("ollama", "vllm"), where a token is
// optional.
func local(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" || (h != "" && !strings.Contains(h, ".") && !strings.Contains(h, ":")) {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Seconds is a duration read as integer seconds ("300") or a Go duration ("5m").
type Seconds time.Duration

// Decode parses integer seconds or a Go duration.
func (s *Seconds) Decode(v string) error {
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		*s = Seconds(time.Duration(n) * time.Second)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q is not a positive number of seconds", v)
	}
	*s = Seconds(d)
	return nil
}
