package reporters

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/review/reportspec"
)

func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "r.json")
	for _, tc := range []struct {
		reports []string
		bad     string // part of the error; "" = accepted
	}{
		{[]string{"json=" + f, "sarif=" + f}, "both write to"},
		{[]string{"json=" + f, "sarif=" + filepath.Join(dir, ".", "r.json")}, "both write to"},
		{[]string{"json", "text"}, "cannot share standard output"},
		{[]string{"text", "sarif=-"}, "cannot share standard output"},
		{[]string{"json", "json"}, "cannot share standard output"},
		{[]string{"text", "github-annotations", "sarif=" + f}, ""},
		{[]string{"json", "github-review", "sarif=" + f}, ""},
		{[]string{"json=" + f, "sarif=" + filepath.Join(dir, "r.sarif"), "text"}, ""},
	} {
		specs, err := reportspec.ParseAll(tc.reports...)
		if err != nil {
			t.Fatal(err)
		}
		err = Files{}.CheckWritable(specs)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%v: %v, want accepted", tc.reports, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%v: error %v, want one saying %q", tc.reports, err, tc.bad)
		}
	}
}
