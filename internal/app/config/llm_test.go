package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// The LLM settings keep the rules llm.Load had: an empty or blank value is
// unset, values are trimmed, OCR_LLM_* wins over OPENAI_*.

func TestLoad(t *testing.T) {
	c, err := loadLLM(MapLookup(map[string]string{
		"OCR_LLM_URL":           "https://api.example.com/v1/chat/completions/",
		"OCR_LLM_TOKEN":         "sk-secret",
		"OCR_LLM_MODEL":         "m1",
		"OCR_LLM_TIMEOUT":       "42",
		"OCR_LLM_EXTRA_HEADERS": "X-A=1, X-B = two",
		"OCR_LLM_EXTRA_BODY":    `{"enable_thinking":false}`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.BaseURL(); got != "https://api.example.com/v1" {
		t.Errorf("BaseURL = %q", got)
	}
	if time.Duration(c.Timeout) != 42*time.Second {
		t.Errorf("Timeout = %v", time.Duration(c.Timeout))
	}
	if diff := cmp.Diff(llm.Headers{"X-A": "1", "X-B": "two"}, c.ExtraHeaders); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if string(c.ExtraBody["enable_thinking"]) != "false" {
		t.Errorf("ExtraBody = %v", c.ExtraBody)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"timeout": {"OCR_LLM_TIMEOUT": "soon"},
		"headers": {"OCR_LLM_EXTRA_HEADERS": `{"a":1}`},
		"pair":    {"OCR_LLM_EXTRA_HEADERS": "novalue"},
		"body":    {"OCR_LLM_EXTRA_BODY": "[1]"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := loadLLM(MapLookup(env))
			for k := range env {
				if err == nil || !strings.Contains(err.Error(), k) {
					t.Errorf("Load error = %v, want one naming %s", err, k)
				}
			}
		})
	}
}

func TestFallbacksAndValidate(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantURL string
		wantErr []string
	}{
		{"openai key only", map[string]string{"OPENAI_API_KEY": "k", "OCR_LLM_MODEL": "gpt"}, "https://api.openai.com/v1", nil},
		{"openai base", map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://gw/v1/", "OCR_LLM_MODEL": "m"}, "https://gw/v1", nil},
		{"ocr wins", map[string]string{"OCR_LLM_URL": "https://a/v1", "OPENAI_BASE_URL": "https://b/v1", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"}, "https://a/v1", nil},
		{"nothing", map[string]string{}, "", []string{"OCR_LLM_URL", "OCR_LLM_TOKEN", "OCR_LLM_MODEL"}},
		{"no model", map[string]string{"OCR_LLM_URL": "https://a/v1", "OCR_LLM_TOKEN": "t"}, "https://a/v1", []string{"OCR_LLM_MODEL"}},
		{"ollama needs no token", map[string]string{"OCR_LLM_URL": "http://localhost:11434/v1", "OCR_LLM_MODEL": "qwen"}, "http://localhost:11434/v1", nil},
		{"remote needs token", map[string]string{"OCR_LLM_URL": "https://api.example.com/v1", "OCR_LLM_MODEL": "m"}, "https://api.example.com/v1", []string{"OCR_LLM_TOKEN"}},
		{"service container needs no token", map[string]string{"OCR_LLM_URL": "http://ollama:11434/v1", "OCR_LLM_MODEL": "m"}, "http://ollama:11434/v1", nil},
		{"bad scheme", map[string]string{"OCR_LLM_URL": "ftp://a", "OCR_LLM_TOKEN": "t", "OCR_LLM_MODEL": "m"}, "ftp://a", []string{"invalid OCR_LLM_URL"}},
		{"openai model", map[string]string{"OPENAI_API_KEY": "k", "OPENAI_MODEL": "gpt-4.1-mini"}, "https://api.openai.com/v1", nil},
		{"openai base url garbage is named", map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "gw/v1", "OPENAI_MODEL": "m"}, "gw/v1", []string{"invalid OPENAI_BASE_URL"}},
		{"azure deployment is the model", map[string]string{"OCR_LLM_URL": "https://r.openai.azure.com", "OCR_LLM_TOKEN": "t", "OCR_LLM_AZURE_DEPLOYMENT": "gpt4o"}, "https://r.openai.azure.com", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := loadLLM(MapLookup(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.BaseURL(); got != tt.wantURL {
				t.Errorf("BaseURL = %q, want %q", got, tt.wantURL)
			}
			err = c.Validate()
			if (err != nil) != (len(tt.wantErr) > 0) {
				t.Fatalf("Validate = %v, want errors naming %v", err, tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate = %v, want it to name %s", err, w)
				}
			}
		})
	}
}

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
		c, err := loadLLM(MapLookup(env))
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

// TestOpenAIModel: OPENAI_MODEL, the OpenAI SDKs' variable, names the model
// when OCR_LLM_MODEL does not; OCR_LLM_MODEL and --model win; each
// setting says where it came from.
func TestOpenAIModel(t *testing.T) {
	c, err := loadLLM(MapLookup(map[string]string{"OPENAI_API_KEY": "k", "OPENAI_MODEL": "gpt-4.1-mini"}))
	if err != nil || c.Validate() != nil {
		t.Fatalf("OPENAI_API_KEY + OPENAI_MODEL: %v, %v", err, c.Validate())
	}
	if c.ModelName() != "gpt-4.1-mini" || c.ModelSource() != "OPENAI_MODEL" || c.TokenSource() != "OPENAI_API_KEY" ||
		!strings.Contains(c.URLSource(), "OPENAI_API_KEY") {
		t.Errorf("model %q from %q, token from %q, URL from %q", c.ModelName(), c.ModelSource(), c.TokenSource(), c.URLSource())
	}
	c, _ = loadLLM(MapLookup(map[string]string{"OCR_LLM_MODEL": "ocr", "OPENAI_MODEL": "sdk"}))
	if c.ModelName() != "ocr" || c.ModelSource() != "OCR_LLM_MODEL" {
		t.Errorf("OCR_LLM_MODEL must win: %q from %q", c.ModelName(), c.ModelSource())
	}
	c.Model, c.ModelFrom = "flag", "--model"
	if c.ModelName() != "flag" || c.ModelSource() != "--model" {
		t.Errorf("--model must win: %q from %q", c.ModelName(), c.ModelSource())
	}
	c, _ = loadLLM(MapLookup(map[string]string{"OCR_LLM_URL": "https://r.openai.azure.com", "OCR_LLM_TOKEN": "t", "OCR_LLM_AZURE_DEPLOYMENT": "d"}))
	if c.TokenSource() != "OCR_LLM_TOKEN, sent as Azure's api-key" || c.ModelSource() != "OCR_LLM_AZURE_DEPLOYMENT" {
		t.Errorf("azure: token from %q, model from %q", c.TokenSource(), c.ModelSource())
	}
}
