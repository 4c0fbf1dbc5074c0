package envinfo

import (
	"cmp"
	"net/url"
	"strconv"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// LLM says which endpoint, token and model a review would use, each with
// the variable it came from; the token masked.
func LLM(lc llm.Config) []Row {
	azure, model := lc.AzureRecognised(), from(lc.ModelName(), lc.ModelSource())
	lc = lc.Resolved()
	host := ""
	if lc.BaseURL() != "" {
		host = Endpoint(lc.BaseURL())
	}
	rows := []Row{
		{"llm endpoint", from(host, lc.URLSource())},
		{"llm token", cmp.Or(from(Mask(lc.APIToken()), lc.TokenSource()), "not set (OCR_LLM_TOKEN or OPENAI_API_KEY)")},
		{"model", model},
		{"llm tools", protocol(lc.ToolMode())},
		{"llm context", window(lc.Context)},
	}
	if azure != "" {
		rows = append(rows, Row{"azure", azure + " (recognised in OCR_LLM_URL)"})
	}
	return rows
}

// protocol says which tool protocol a review starts with and why.
func protocol(mode string) string {
	switch mode {
	case llm.ToolsText:
		return "text: tools described in the prompt, one JSON action per answer (from OCR_LLM_TOOLS)"
	case llm.ToolsNative:
		return "native tool calls (from OCR_LLM_TOOLS)"
	}
	return "native tool calls; switches to the text protocol if the endpoint refuses tools (OCR_LLM_TOOLS=auto)"
}

func window(n int) string {
	if n > 0 {
		return strconv.Itoa(n) + " tokens (from OCR_LLM_CONTEXT)"
	}
	return "the default (128000 tokens), lowered to what the endpoint's first over-context refusal says; set OCR_LLM_CONTEXT for a smaller model"
}

// NoLLM are the LLM rows when its settings do not load.
func NoLLM() []Row {
	return []Row{{"llm endpoint", ""}, {"llm token", ""}, {"model", ""}, {"llm tools", ""}, {"llm context", ""}}
}

// from appends where a shown setting came from.
func from(val, source string) string {
	if val == "" || source == "" {
		return val
	}
	return val + " (from " + source + ")"
}

// Endpoint shows an endpoint URL with its path; credentials in it and
// the values of its query parameters (keys, signatures) are masked, except
// Azure's harmless api-version.
func Endpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(invalid URL)"
	}
	user := ""
	if u.User != nil {
		user, u.User = "***@", nil
	}
	q := u.Query()
	for k := range q {
		if !strings.EqualFold(k, "api-version") {
			q[k] = []string{"***"}
		}
	}
	u.RawQuery = strings.ReplaceAll(q.Encode(), "%2A%2A%2A", "***")
	u.Fragment = ""
	return strings.Replace(u.String(), "://", "://"+user, 1)
}
