package posting

import "errors"

// ErrNoWriteAccess is returned (wrapped) when the platform refused a write
// because of the token's permissions.
var ErrNoWriteAccess = errors.New("the token cannot write comments")

func InlineIndexes(ps []Placement) []int { return indexesOf(ps, PlaceInline) }

func FileIndexes(ps []Placement) []int { return indexesOf(ps, PlaceFile) }

func indexesOf(ps []Placement, k placeKind) []int {
	var out []int
	for i, p := range ps {
		if p.Kind == k {
			out = append(out, i)
		}
	}
	return out
}
