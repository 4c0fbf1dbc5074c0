package rules

import "github.com/ocr-ci/ocr/review"

// ApplySelection applies rule.json's include/exclude on top of the flags:
// a reviewed file the rules leave out gets their reason.
func (s *Set) ApplySelection(files []review.FileCoverage) []review.FileCoverage {
	for i, f := range files {
		if f.Reviewed {
			if ok, reason := s.Selects(f.Path); !ok {
				files[i].Reviewed, files[i].Reason = false, reason
			}
		}
	}
	return files
}

// Used lists the rules of the reviewed files, once each.
func (s *Set) Used(files []review.FileCoverage) []review.Rule {
	seen := map[string]bool{}
	var out []review.Rule
	for _, f := range files {
		if !f.Reviewed {
			continue
		}
		r := s.Match(f.Path).Rule()
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	return out
}
