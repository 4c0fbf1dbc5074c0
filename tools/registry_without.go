package tools

// Without returns a copy of the registry without the named tools, for a
// run where they have nothing to offer (file_read_diff in a scan, which
// has no diff). The model is not offered them, and a call answers
// NotFoundText.
func (r *Registry) Without(names ...string) *Registry {
	drop := map[string]bool{}
	for _, n := range names {
		drop[n] = true
	}
	out := &Registry{impl: r.impl}
	for _, e := range r.entries {
		if !drop[e.Name] {
			out.entries = append(out.entries, e)
		}
	}
	return out
}
