// Package toolargs is the tools' argument handling, shared by every tool:
// Schema checks a definition's parameters (from tools.json or a --tools
// file) against the arguments an implementation reads, and a call's
// argument names against what the model was offered; Values decodes one
// call's JSON arguments leniently, naming the field and the expected type
// when one is wrong.
package toolargs
