package sarif

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ocr-ci/ocr/reporters"
)

// go-sarif's structs serialise every unset index as -1 and every empty list
// as [], which the SARIF multitool flags (SARIF2004, "unset index
// sentinel") and which bloats logs towards GitHub's size limit. pruneSARIF
// removes both, and empty objects, from the encoded log, keeping the arrays SARIF consumers
// expect even when empty.

// sarifSentinels are the properties whose -1 means "unset" (SARIF §3.7.4 etc.).
var sarifSentinels = map[string]bool{
	"index": true, "parentIndex": true, "length": true, "byteOffset": true,
	"charOffset": true, "id": true, "rank": true, "ruleIndex": true,
}

// sarifKeepEmpty are arrays that stay even when empty: results marks a run
// as a scan, rules is required by GitHub (GH1018).
var sarifKeepEmpty = map[string]bool{"results": true, "rules": true}

// pruneSARIF rewrites an encoded log without unset sentinels and empty lists.
func pruneSARIF(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("could not re-read the SARIF report: %w", err)
	}
	return reporters.MarshalIndent(prune(v))
}

func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if n, ok := val.(json.Number); ok && n == "-1" && sarifSentinels[k] {
				delete(x, k)
				continue
			}
			if a, ok := val.([]any); ok && len(a) == 0 && !sarifKeepEmpty[k] {
				delete(x, k)
				continue
			}
			if m, ok := val.(map[string]any); ok && len(m) == 0 {
				delete(x, k)
				continue
			}
			x[k] = prune(val)
		}
	case []any:
		for i := range x {
			x[i] = prune(x[i])
		}
	}
	return v
}
