package agent

import "github.com/ocr-ci/ocr/tools"

// RequestFloor is the estimated tokens every request of a review carries
// before any code: the system prompt and the tool schemas of the cheapest
// phase. A --max-tokens-budget below it cannot pay for one request, which
// the runner says before anything is sent.
func RequestFloor(reg *tools.Registry, language string) int {
	r := &run{a: New(Config{}, nil, reg), in: Input{Language: language}}
	r.fixed()
	return min(r.system.tokens+r.mainTools.tokens, r.planSystem.tokens+r.planTools.tokens)
}
