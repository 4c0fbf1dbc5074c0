package tools

import "context"

// cached gives a Source from elsewhere the run-wide file index that this
// package's Sources keep.
type cached struct {
	Source
	lister
}

// Cached wraps a Source from outside this package (a filter, a fake) so
// that its file list is read once per run and indexed for file_find, as
// RefSource, WorkSource and DirSource are. Wrap the outermost Source:
// file_find then sees exactly what its ListFiles returns. Without it each
// task indexes the list on its first file_find call.
func Cached(src Source) Source {
	if _, ok := src.(indexer); ok {
		return src
	}
	c := &cached{Source: src}
	c.list = src.ListFiles
	return c
}

// ListFiles implements Source.
func (c *cached) ListFiles(ctx context.Context) ([]string, error) { return c.files(ctx) }
