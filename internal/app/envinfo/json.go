package envinfo

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Problems are the messages of the errors that are not nil, in order.
func Problems(errs ...error) []string {
	out := []string{}
	for _, err := range errs {
		if err != nil {
			out = append(out, err.Error())
		}
	}
	return out
}

// WriteJSON writes the rows as one JSON object, each name in snake case
// ("llm endpoint" → "llm_endpoint", "" for "-"), and the problems as the
// array "problems" (empty when there is none).
func WriteJSON(w io.Writer, rows []Row, problems []string) error {
	obj := make(map[string]any, len(rows)+1)
	for _, r := range rows {
		obj[strings.ReplaceAll(r.Name, " ", "_")] = r.Value
	}
	obj["problems"] = problems
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return fmt.Errorf("could not write the JSON of ocr env: %w", err)
	}
	return nil
}

// Print writes the rows and then the problems, as text (one "problem:"
// row each, made safe for a log by safe) or as JSON (WriteJSON).
func Print(w io.Writer, asJSON bool, rows []Row, problems []string, safe func(string) string) error {
	if asJSON {
		return WriteJSON(w, rows, problems)
	}
	for _, p := range problems {
		rows = append(rows, Row{Name: "problem", Value: safe(p)})
	}
	return Write(w, rows)
}
