package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/golden"
	"github.com/ocr-ci/ocr/review"
)

// loadFilterFixture reads testdata/<name>.diff and testdata/<name>.json.
func loadFilterFixture(t *testing.T, name string) (string, []review.Comment) {
	t.Helper()
	diff, err := os.ReadFile(filepath.Join("testdata", name+".diff"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []review.Comment
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return string(diff), cs
}

// renderFilterRequest shows a filter request as reviewable text.
func renderFilterRequest(t *testing.T, diff string, cs []review.Comment) string {
	t.Helper()
	req, err := filterRequest("m", diff, cs)
	if err != nil {
		t.Fatal(err)
	}
	fn := req.Tools[0].Function
	schema, err := json.MarshalIndent(fn.Parameters, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return "== system ==\n" + req.Messages[0].Content + "\n== user ==\n" + req.Messages[1].Content +
		"\n== tool " + fn.Name + " ==\n" + fn.Description + "\n== parameters ==\n" + string(schema) + "\n"
}

func TestFilterPromptGolden(t *testing.T) {
	for _, name := range []string{"filter_fixture"} {
		t.Run(name, func(t *testing.T) {
			diff, cs := loadFilterFixture(t, name)
			got := renderFilterRequest(t, diff, cs)
			golden.CheckString(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

func TestFilterPromptShowsLocations(t *testing.T) {
	cs := []review.Comment{
		{Location: review.Location{Path: "a.go"}, Content: "file", ExistingCode: "x"},
		{Location: review.Location{Path: "a.go", Side: review.SideOld, StartLine: 4, EndLine: 6}, Content: "old"},
		{Location: review.Location{Path: "a.go", Side: review.SideNew, StartLine: 9}, Content: "one", Suggestion: "y()\n"},
	}
	got := renderFilterRequest(t, "d", cs)
	for _, want := range []string{"[1] a.go (file) (", "[2] a.go:4-6 (old side) (", "[3] a.go:9 (", "Suggested code:\ny()\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q:\n%s", want, got)
		}
	}
}
