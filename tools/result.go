package tools

import "fmt"

// NotFoundText is the result of a call to a tool that is not in the
// registry or not offered in the current phase (spec, verbatim).
const NotFoundText = "Error: Tool not found. The tool you attempted to call does not exist or is not available. Please check the tool name and try again with a valid tool."

// Exact texts the model is tuned to (spec).
const (
	commentedText     = "Successfully commented."
	doneText          = "Task completed successfully."
	fileNotFoundText  = "// The file was not found"
	noMatchesText     = "No matches found"
	blankSearchText   = "Error: search_text is blank"
	dotDotPatternText = "Error: file_patterns must not contain .."
	noFilesText       = "Error: no files found"
	noDiffText        = "Error: diff not found for the requested paths"
	readTruncatedNote = "Note: Results truncated to 500 lines. Please narrow your line range."
	searchCappedNote  = "Note: The results have been truncated. Only showing first 100 results."
	stateTypeText     = "Error: task_done state must be DONE or FAILED."
)

// Result is what a tool call gives back: Text goes to the model as the tool
// message; the other fields tell the agent loop what happened.
type Result struct {
	// Text is exactly what the model receives.
	Text string
	// Done is set by task_done: the main loop ends.
	Done bool
	// Failed is set by task_done with state FAILED: the task failed.
	Failed bool
	// Comments are the findings of a code_comment call.
	Comments []CommentInput
	// IsError marks a failed call (bad arguments, missing file, git error);
	// three in a row of the same tool disable it for the task.
	IsError bool
}

// CommentInput is one finding as the model sent it, before anchoring.
// Category and Severity are already case-folded (unknown values become
// "other" and "low"); Path defaults to the file under review.
type CommentInput struct {
	Path         string
	Content      string
	ExistingCode string
	Suggestion   string
	Category     string
	Severity     string
	// Thinking is the model's reasoning: kept, never shown to people.
	Thinking string
}

// errorf returns an error result; the text always starts with "Error: ".
func errorf(format string, args ...any) Result {
	return Result{Text: "Error: " + fmt.Sprintf(format, args...), IsError: true}
}

// errText returns an error result with a fixed text.
func errText(text string) Result { return Result{Text: text, IsError: true} }

// text returns an ordinary result.
func text(s string) Result { return Result{Text: s} }
