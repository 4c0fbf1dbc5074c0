// Package udiff holds the unified-diff model (File, Hunk, Line) and the
// parser that reads git's unified diffs into it. It is pure: bytes in,
// values out; no exec, no network, no file system.
package udiff

// Status is what happened to a file in the change.
type Status string

// File statuses. Binary, mode-only and submodule changes keep the status of
// the underlying change and are flagged on File as well.
const (
	StatusAdded    Status = "added"
	StatusModified Status = "modified"
	StatusDeleted  Status = "deleted"
	StatusRenamed  Status = "renamed"
	StatusCopied   Status = "copied"
)

// File is one file of a unified diff.
type File struct {
	// OldPath is empty for an added file; NewPath is empty for a deleted one.
	OldPath string
	NewPath string
	Status  Status
	// Binary is true for "Binary files ... differ" or GIT binary patches.
	Binary bool
	// ModeOnly is true when only the file mode changed.
	ModeOnly bool
	// Submodule is true when the entry is a gitlink (mode 160000).
	Submodule bool
	OldMode   string
	NewMode   string
	// Similarity is the rename/copy similarity index in percent.
	Similarity int
	Hunks      []Hunk
	Additions  int
	Deletions  int
	// Raw is the file's own section of the diff, from its "diff --git" line
	// (what file_read_diff shows the model).
	Raw string
}

// Path is the file's path at the target side (the old path for a deleted file).
func (f *File) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Hunk is one "@@ -a,b +c,d @@" section.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// Section is the text after the closing "@@" (often a function name).
	Section string
	Lines   []Line
}

// LineKind is the first byte of a hunk line.
type LineKind byte

// Line kinds.
const (
	Context LineKind = ' '
	Added   LineKind = '+'
	Deleted LineKind = '-'
)

// Line is one line of a hunk. The fields are ordered to avoid padding: a
// large diff holds one Line per line.
type Line struct {
	// Text is the line without its marker and without "\n"; a CR before the
	// newline is kept, so CRLF content survives intact.
	Text string
	// OldLine and NewLine are 1-based; 0 when the line is not on that side.
	OldLine int
	NewLine int
	Kind    LineKind
	// NoNewline is true when "\ No newline at end of file" follows the line.
	NoNewline bool
}
