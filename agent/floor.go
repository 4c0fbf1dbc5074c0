package agent

import "github.com/ocr-ci/ocr/tools"

// RequestFloor is the estimated tokens of the smallest request that can
// review anything: the main phase's system prompt and tool schemas, which
// every group sends at least once (a plan comes on top), before any code.
// A --max-tokens-budget below it cannot review one file, which the runner
// says before anything is sent.
func RequestFloor(reg *tools.Registry, language string) int {
	r := &run{a: New(Config{}, nil, reg), in: Input{Language: language}}
	r.fixed()
	return r.system.tokens + r.mainTools.tokens
}
