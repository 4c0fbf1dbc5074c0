package promptname

import "testing"

func TestNameKeepsPlainNames(t *testing.T) {
	for _, p := range []string{"svc/calc.go", "docs/ünïcode name.md", "a b/c-d_e.f"} {
		if got := Name(p); got != p {
			t.Errorf("Name(%q) = %q, want it unchanged", p, got)
		}
	}
}
