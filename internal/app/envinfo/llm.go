package envinfo

import (
	"cmp"
	"net/url"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// LLM says which endpoint, token and model a review would use, each with
// the variable it came from; the token masked.
func LLM(lc llm.Config) []Row {
	host := ""
	if lc.BaseURL() != "" {
		host = Endpoint(lc.BaseURL())
	}
	return []Row{
		{"llm endpoint", from(host, lc.URLSource())},
		{"llm token", cmp.Or(from(Mask(lc.APIToken()), lc.TokenSource()), "not set (OCR_LLM_TOKEN or OPENAI_API_KEY)")},
		{"model", from(lc.ModelName(), lc.ModelSource())},
	}
}

// NoLLM are the LLM rows when its settings do not load.
func NoLLM() []Row {
	return []Row{{"llm endpoint", ""}, {"llm token", ""}, {"model", ""}}
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
