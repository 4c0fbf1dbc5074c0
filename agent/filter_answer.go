package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// ErrNoDrops is the filter's answer without a drop_comments call: the
// model named nothing to drop. It is normal, not a failure; Filter returns
// it (wrapped) with every comment kept.
var ErrNoDrops = errors.New("the model named no comment to drop")

// dropArgs is the strict schema of a drop_comments call.
type dropArgs struct {
	Drop *[]struct {
		ID     *int    `json:"id"`
		Reason *string `json:"reason"`
	} `json:"drop"`
}

// parseDrops reads the drop_comments calls of resp and returns the reason
// for each dropped 1-based id. Any deviation from the schema, another tool,
// plain text instead of a call or an id outside 1..n is an error, so the
// caller keeps every comment.
func parseDrops(resp openai.ChatCompletionResponse, n int) (map[int]string, error) {
	if len(resp.Choices) == 0 {
		return nil, errors.New("the answer has no choices")
	}
	calls := resp.Choices[0].Message.ToolCalls
	if len(calls) == 0 {
		return nil, fmt.Errorf("%w (the answer has no %s call, finish reason %q)", ErrNoDrops, FilterTool, resp.Choices[0].FinishReason)
	}
	reasons := map[int]string{}
	for _, c := range calls {
		if c.Function.Name != FilterTool {
			return nil, fmt.Errorf("the answer calls %q instead of %s", c.Function.Name, FilterTool)
		}
		if err := decodeDrops(c.Function.Arguments, n, reasons); err != nil {
			return nil, fmt.Errorf("malformed %s arguments: %w", FilterTool, err)
		}
	}
	return reasons, nil
}

// decodeDrops decodes one call's arguments strictly into reasons.
func decodeDrops(args string, n int, reasons map[int]string) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(args)))
	dec.DisallowUnknownFields()
	var a dropArgs
	if err := dec.Decode(&a); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON object")
	}
	if a.Drop == nil {
		return errors.New(`missing "drop"`)
	}
	for i, d := range *a.Drop {
		if d.ID == nil || d.Reason == nil {
			return fmt.Errorf("drop[%d]: id and reason are required", i)
		}
		if *d.ID < 1 || *d.ID > n {
			return fmt.Errorf("drop[%d]: unknown comment id %d (comments are 1..%d)", i, *d.ID, n)
		}
		reasons[*d.ID] = strings.TrimSpace(*d.Reason)
	}
	return nil
}
