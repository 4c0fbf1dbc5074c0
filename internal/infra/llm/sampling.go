package llm

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultSeed is the seed sent with every request that carries none of its
// own: with temperature 0 it asks the provider for the same answer to the
// same request (providers that take a seed; the others ignore it).
const DefaultSeed = 1

// Temperature is the sampling temperature sent with every request
// (OCR_LLM_TEMPERATURE); its zero value is 0, the default, for reviews that
// do not change between runs of the same commit.
type Temperature float32

// Decode parses the variable's text: a number from 0 to 2.
func (t *Temperature) Decode(v string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 32)
	if err != nil || f < 0 || f > 2 || math.IsNaN(f) {
		return fmt.Errorf("temperature %q: want a number from 0 to 2 (0, the default, gives the same review for the same change)", v)
	}
	*t = Temperature(f)
	return nil
}

// sampling fills the request's temperature and seed from the
// configuration when the caller set none.
//
// go-openai's Temperature is `omitempty`, so a plain 0 would not be sent
// and the provider would sample at its default (1 for OpenAI). Its
// documented way to send zero is math.SmallestNonzeroFloat32 (README, "Why
// don't we get the same answer when specifying a temperature field of 0";
// sashabaranov/go-openai#9): the value is encoded as 1e-45, which every
// provider treats as greedy decoding.
func (c *Client) sampling(req *openai.ChatCompletionRequest) {
	if req.Temperature == 0 {
		req.Temperature = float32(c.temperature)
		if req.Temperature == 0 {
			req.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if req.Seed == nil {
		seed := c.seed
		req.Seed = &seed
	}
}
