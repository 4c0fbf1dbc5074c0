package runner

import (
	"os"

	"github.com/ocr-ci/ocr/internal/llm"
)

// loadLLM reads the endpoint configuration (OCR_LLM_*, OPENAI_* fallbacks)
// through llm.Load, which reads the same envconfig tags but takes an empty
// variable as unset (CI templates pass empty inputs); --model wins over
// OCR_LLM_MODEL.
func loadLLM(cfg *Config) (llm.Config, error) {
	lc, err := llm.Load(os.LookupEnv)
	if err != nil {
		return lc, usagef("could not read the LLM configuration: %w", err)
	}
	if cfg.Model != "" {
		lc.Model = cfg.Model
	}
	return lc, nil
}
