// Package tools holds the six read-only agent tools of ocr — task_done,
// code_comment, file_read, file_read_diff, file_find and code_search — and
// the registry that offers them to the model per phase.
//
// The registry is data: an embedded tools.json (or a --tools override) of
// OpenAI function definitions; every entry must name one of the Go
// implementations in this package. Tools read the repository through a
// Source (a ref, the work tree, or a plain directory) and never execute,
// write or check out anything. Formats, limits and messages follow
// docs/tools-spec.md; the model is tuned to them. Where Open Code Review's
// own tests pin a behaviour the tools agree (ocr_parity_test.go); the
// deliberate differences are listed in docs/tools.md.
//
// A call's argument names are checked against the schema the model was
// offered before the tool runs: an unknown name or a missing required one
// is an error result naming the valid ones. Load checks that a schema
// offers only arguments the implementation reads, with the types it reads
// (Tool.Params); the implementations decode the values leniently. The schema check and
// the decoding are package internal/toolargs.
package tools
