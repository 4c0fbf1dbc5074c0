package llm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Headers are extra HTTP headers, read from a JSON object or k=v,k=v.
type Headers map[string]string

// Decode parses the variable's text.
func (h *Headers) Decode(v string) error {
	out := Headers{}
	if strings.HasPrefix(strings.TrimSpace(v), "{") {
		if err := json.Unmarshal([]byte(v), (*map[string]string)(&out)); err != nil {
			return fmt.Errorf("headers must be a JSON object of strings or k=v,k=v: %w", err)
		}
		*h = out
		return nil
	}
	for _, pair := range strings.Split(v, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, val, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(k) == "" {
			// The pair may hold a secret ("Authorization: Bearer sk-..."):
			// name it by position, never show it.
			return fmt.Errorf("header %d is not k=v (write Name=value; the text is not shown, it may hold a secret)", len(out)+1)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	*h = out
	return nil
}

// Body is a JSON object merged into every request body.
type Body map[string]json.RawMessage

// Decode parses the variable's text.
func (b *Body) Decode(v string) error {
	out := Body{}
	if err := json.Unmarshal([]byte(v), (*map[string]json.RawMessage)(&out)); err != nil {
		return fmt.Errorf("extra body must be a JSON object: %w", err)
	}
	*b = out
	return nil
}
