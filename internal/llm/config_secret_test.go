package llm

import (
	"strings"
	"testing"
)

// Configuration errors are printed (stderr, `ocr env`): they must not show
// a secret the user put in the wrong place or form.
func TestConfigErrorsHideSecrets(t *testing.T) {
	const secret = "sk-SECRET0123456789"
	for name, env := range map[string]map[string]string{
		"header with a colon": {"OCR_LLM_URL": "https://api.example.com/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m",
			"OCR_LLM_EXTRA_HEADERS": "X-Org=1,Authorization: Bearer " + secret},
		"URL with a wrong scheme": {"OCR_LLM_URL": "htps://user:" + secret + "@api.example.com/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"},
		"URL that does not parse": {"OCR_LLM_URL": "https://user:" + secret + "@api.example.com:port/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"},
	} {
		c, err := Load(lookupMap(env))
		if err == nil {
			err = c.Validate()
		}
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: error shows the secret: %v", name, err)
		}
	}
}
