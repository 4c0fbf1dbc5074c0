package reportspec

import (
	"fmt"
	"path/filepath"
)

// machineReadable reports whether a consumer parses the whole output of
// the kind, so it cannot share standard output with another report.
func (k Kind) machineReadable() bool {
	return k == KindJSON || k == KindSARIF || k == KindCodeQuality || k == KindHTML
}

// CheckOutputs fails when two reports would write to the same file (the
// last one to close would silently replace the other), or when a JSON,
// SARIF or Code Quality report shares standard output with another report
// (its consumer could no longer parse it). A relative path starts from
// dir ("": the process's working directory).
func CheckOutputs(dir string, specs []Spec) error {
	files := map[string]Kind{}
	var onStdout []Kind
	for _, s := range specs {
		switch {
		case s.Kind.API() || s.Path == "":
			continue
		case s.Path == Stdout:
			onStdout = append(onStdout, s.Kind)
			continue
		}
		key := outputKey(dir, s.Path)
		if k, dup := files[key]; dup {
			return fmt.Errorf("reports %s and %s both write to %q: give each report its own file (KIND=PATH)", k, s.Kind, s.Path)
		}
		files[key] = s.Kind
	}
	if len(onStdout) < 2 {
		return nil
	}
	for _, k := range onStdout {
		if k.machineReadable() {
			return fmt.Errorf("report %s cannot share standard output with %d other report(s): write it to a file (%s=PATH)", k, len(onStdout)-1, k)
		}
	}
	return nil
}

// SplitAPI separates the specs that write a file or a stream from those
// that post to a pull or merge request (`ocr scan` and `ocr merge` have
// none to post to).
func SplitAPI(specs []Spec) (files, api []Spec) {
	for _, s := range specs {
		if s.Kind.API() {
			api = append(api, s)
		} else {
			files = append(files, s)
		}
	}
	return files, api
}

// OnStdout reports whether a report of kind k goes to standard output.
func OnStdout(specs []Spec, k Kind) bool {
	for _, s := range specs {
		if s.Kind == k && s.Path == Stdout {
			return true
		}
	}
	return false
}

// outputKey is path made absolute against dir (or the process's working
// directory), so two spellings of one file are one key.
func outputKey(dir, path string) string {
	if dir != "" && !filepath.IsAbs(path) {
		return filepath.Join(dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
