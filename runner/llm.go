package runner

import (
	"github.com/kelseyhightower/envconfig"

	"github.com/ocr-ci/ocr/internal/llm"
)

// loadLLM reads the endpoint configuration (OCR_LLM_*, OPENAI_* fallbacks);
// --model wins over OCR_LLM_MODEL.
func loadLLM(cfg *Config) (llm.Config, error) {
	var lc llm.Config
	if err := envconfig.Process("", &lc); err != nil {
		return lc, usagef("could not read the LLM configuration: %w", err)
	}
	if cfg.Model != "" {
		lc.Model = cfg.Model
	}
	return lc, nil
}
