package llm

import (
	"regexp"
	"strconv"
)

// windowPatterns read the context window out of the over-context refusals
// of the servers ocr meets (lower-cased text of the message and body):
// OpenAI and vLLM ("maximum context length is 8192 tokens"), llama.cpp's
// server (its n_ctx field; older builds name it in the message), LM
// Studio, Anthropic's and Google's OpenAI-compatible endpoints.
var windowPatterns = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+) tokens`),
	regexp.MustCompile(`"n_ctx"\s*:\s*(\d+)`),
	regexp.MustCompile(`available context size \((\d+) tokens\)`),
	regexp.MustCompile(`context length of only (\d+) tokens`),
	regexp.MustCompile(`prompt is too long: \d+ tokens > (\d+) maximum`),
	regexp.MustCompile(`exceeds the maximum number of tokens allowed \((\d+)\)`),
}

// contextWindow finds the window in an over-context refusal.
func contextWindow(text string) (int, bool) {
	for _, re := range windowPatterns {
		if m := re.FindStringSubmatch(text); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n, true
			}
		}
	}
	return 0, false
}
