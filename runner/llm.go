package runner

import (
	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/infra/llm"
)

// loadLLM reads the endpoint configuration through internal/app/config
// (OCR_LLM_*, OPENAI_* fallbacks, empty values unset); --model wins over
// OCR_LLM_MODEL and OPENAI_MODEL.
func (c *Command) loadLLM(cfg *config.Config) (llm.Config, error) {
	lc, err := config.LoadLLM(c.lookup)
	if err != nil {
		return lc, err
	}
	if cfg.Model != "" {
		lc.Model, lc.ModelFrom = cfg.Model, "--model/OCR_MODEL"
	}
	return lc, nil
}
