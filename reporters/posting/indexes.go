package posting

import "errors"

// ErrNoWriteAccess is returned (wrapped) when the platform refused a write
// because of the token's permissions.
var ErrNoWriteAccess = errors.New("the token cannot write comments")

// InlineIndexes are the indexes of the inline placements.
func InlineIndexes(ps []Placement) []int { return indexesOf(ps, PlaceInline) }

// FileIndexes are the indexes of the file-level placements.
func FileIndexes(ps []Placement) []int { return indexesOf(ps, PlaceFile) }

func indexesOf(ps []Placement, k PlaceKind) []int {
	var out []int
	for i, p := range ps {
		if p.Kind == k {
			out = append(out, i)
		}
	}
	return out
}

// placementsOf are the placements of kind k, in order.
func placementsOf(ps []Placement, k PlaceKind) []Placement {
	var out []Placement
	for _, p := range ps {
		if p.Kind == k {
			out = append(out, p)
		}
	}
	return out
}
