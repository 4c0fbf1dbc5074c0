package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/ocr-ci/ocr/tools/internal/toolargs"
)

// taskDone ends the main loop. state is DONE or FAILED (the registry
// requires it; called directly, a missing state means DONE); anything else,
// a value that is not a string included, is an error result naming the two
// valid values.
func taskDone(_ context.Context, _ *Session, raw json.RawMessage) Result {
	a := toolargs.Parse(raw)
	if v, ok := a.Get("state"); ok && toolargs.Kind(v) != "a string" {
		return errText(stateTypeText)
	}
	state := a.Str("state", false)
	if a.Err() != nil {
		return errorf("%s", a.Err())
	}
	switch strings.ToUpper(strings.TrimSpace(state)) {
	case "", "DONE":
		return Result{Text: doneText, Done: true}
	case "FAILED":
		return Result{Text: "Task ended as FAILED.", Done: true, Failed: true}
	}
	return errorf("invalid task_done state %q; expected DONE or FAILED.", state)
}
