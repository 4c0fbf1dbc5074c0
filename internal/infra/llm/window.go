package llm

import (
	"regexp"
	"strconv"
)

// windowPatterns read the context window out of the over-context refusals
// of the servers ocr meets (lower-cased text of the message and body):
// OpenAI and vLLM ("maximum context length is 8192 tokens"), llama.cpp's
// server (its n_ctx field; older builds name it in the message), LM
// Studio (older: "loaded with context length of only 4096 tokens"; newer:
// "(n_keep: 13055>= n_ctx: 4096)" and "n_keep (15028) >= n_ctx (7424)"),
// Anthropic's and Google's OpenAI-compatible endpoints.
var windowPatterns = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+) tokens`),
	regexp.MustCompile(`"?n_ctx"?\s*:\s*(\d+)`),
	regexp.MustCompile(`n_ctx \((\d+)\)`),
	regexp.MustCompile(`available context size \((\d+) tokens\)`),
	regexp.MustCompile(`context length of only (\d+) tokens`),
	regexp.MustCompile(`prompt is too long: \d+ tokens > (\d+) maximum`),
	regexp.MustCompile(`exceeds the maximum number of tokens allowed \((\d+)\)`),
}

// outputPatterns read the most completion tokens a model allows out of the
// refusal of a larger max_tokens (lower-cased): OpenAI ("max_tokens is too
// large: 8192. This model supports at most 4096 completion tokens, whereas
// you provided 8192.") and Anthropic's OpenAI-compatible endpoint
// ("max_tokens: 8192 > 4096, which is the maximum allowed number of output
// tokens for claude-3-haiku-20240307").
var outputPatterns = []*regexp.Regexp{
	regexp.MustCompile(`supports at most (\d+) completion tokens`),
	regexp.MustCompile(`> (\d+), which is the maximum allowed number of output tokens`),
}

// outputCap finds the model's completion-token limit in a refusal.
func outputCap(text string) (int, bool) {
	return firstNumber(outputPatterns, text)
}

// contextWindow finds the window in an over-context refusal.
func contextWindow(text string) (int, bool) {
	return firstNumber(windowPatterns, text)
}

// firstNumber is the positive number the first matching pattern captures.
func firstNumber(patterns []*regexp.Regexp, text string) (int, bool) {
	for _, re := range patterns {
		if m := re.FindStringSubmatch(text); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n, true
			}
		}
	}
	return 0, false
}
