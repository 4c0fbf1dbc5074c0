package udiff

import "fmt"

// finish decides the file's paths, status and flags once its header and
// hunks are read.
func (h *fileHeader) finish(f *File) error {
	if !h.named {
		switch {
		case h.gitNamed:
			f.OldPath, f.NewPath = h.gitOld, h.gitNew
		case h.binNamed:
			f.OldPath, f.NewPath = h.binOld, h.binNew
		default:
			return &ParseError{Line: h.start, Msg: `cannot tell the old path from the new one in the "diff --git" line and no later line names them`}
		}
	}
	f.Status = h.status()
	switch f.Status {
	case StatusAdded:
		f.OldPath = ""
	case StatusDeleted:
		f.NewPath = ""
	}
	if !h.pathsFit(f) {
		return &ParseError{Line: h.start, Msg: fmt.Sprintf("the header names old path %q and new path %q, which do not fit a %s file", f.OldPath, f.NewPath, f.Status)}
	}
	f.Submodule = f.OldMode == gitlinkMode || f.NewMode == gitlinkMode
	f.ModeOnly = h.modeLines && f.Status == StatusModified && len(f.Hunks) == 0 &&
		!f.Binary && f.OldMode != f.NewMode
	return nil
}

// gitlinkMode is the mode of a submodule entry.
const gitlinkMode = "160000"

// status maps the header's findings to a Status.
func (h *fileHeader) status() Status {
	switch {
	case h.added:
		return StatusAdded
	case h.deleted:
		return StatusDeleted
	case h.renamed:
		return StatusRenamed
	case h.copied:
		return StatusCopied
	}
	return StatusModified
}

// pathsFit reports whether the paths suit the status: an added file has
// only a new path, a deleted one only an old path, all others both.
func (h *fileHeader) pathsFit(f *File) bool {
	switch f.Status {
	case StatusAdded:
		return f.NewPath != ""
	case StatusDeleted:
		return f.OldPath != ""
	}
	return f.OldPath != "" && f.NewPath != ""
}
