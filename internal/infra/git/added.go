package git

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxUntrackedSize bounds the untracked files put into a workspace diff;
// larger ones are reported as binary so one stray log cannot flood it.
const maxUntrackedSize = 16 << 20

// binarySniffLen is how much git inspects for a NUL byte to call a file
// binary (FIRST_FEW_BYTES in git's xdiff-interface.c).
const binarySniffLen = 8000

// writeAddedFile appends an untracked file as git would show it with
// `git diff --no-index /dev/null <path>`; diffAttr is its "diff"
// attribute. A file that vanished or is not a regular file or symlink is
// skipped.
func (r *Repo) writeAddedFile(buf *bytes.Buffer, rel, diffAttr string) error {
	full := filepath.Join(r.dir, filepath.FromSlash(rel))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("could not read untracked file %s: %w", rel, err)
	}
	mode, content, err := addedContent(full, fi)
	if err != nil || mode == "" {
		if err != nil {
			r.logf("skipping untracked file %s: %v", rel, err)
		}
		return nil
	}
	tooLarge := fi.Mode().IsRegular() && fi.Size() > maxUntrackedSize
	if tooLarge {
		r.logf("untracked file %s is larger than %d bytes; shown as binary", rel, maxUntrackedSize)
	}
	binary := tooLarge || diffAttr == "unset" ||
		diffAttr != "set" && bytes.IndexByte(content[:min(len(content), binarySniffLen)], 0) >= 0
	id := strings.Repeat("0", 7)
	if !tooLarge {
		id = r.blobID(content)[:7]
	}
	a, b := quotePath("a/"+rel), quotePath("b/"+rel)
	fmt.Fprintf(buf, "diff --git %s %s\nnew file mode %s\nindex 0000000..%s\n", a, b, mode, id)
	switch {
	case binary:
		fmt.Fprintf(buf, "Binary files /dev/null and %s differ\n", b)
	case len(content) > 0:
		tab := ""
		if strings.Contains(rel, " ") {
			tab = "\t"
		}
		fmt.Fprintf(buf, "--- /dev/null\n+++ %s%s\n", b, tab)
		writeAddedHunk(buf, content)
	}
	return nil
}

// addedContent returns the git mode and the content of an untracked file:
// a symlink's target, or a regular file's bytes (none when too large).
// mode is "" for anything else.
func addedContent(full string, fi fs.FileInfo) (mode string, content []byte, err error) {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(full)
		return "120000", []byte(target), err
	case !fi.Mode().IsRegular():
		return "", nil, nil
	case fi.Mode()&0o111 != 0:
		mode = "100755"
	default:
		mode = "100644"
	}
	if fi.Size() > maxUntrackedSize {
		return mode, nil, nil
	}
	content, err = os.ReadFile(full)
	return mode, content, err
}

// writeAddedHunk writes the single hunk of an added file.
func writeAddedHunk(buf *bytes.Buffer, content []byte) {
	lines := bytes.SplitAfter(content, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 1 {
		buf.WriteString("@@ -0,0 +1 @@\n")
	} else {
		fmt.Fprintf(buf, "@@ -0,0 +1,%d @@\n", len(lines))
	}
	for _, l := range lines {
		buf.WriteByte('+')
		buf.Write(l)
	}
	if content[len(content)-1] != '\n' {
		buf.WriteString("\n\\ No newline at end of file\n")
	}
}

// blobID is the object name git would give content.
func (r *Repo) blobID(content []byte) string {
	h := hash.Hash(sha1.New())
	if r.sha256 {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// quotePath quotes a path the way git does with core.quotepath=false:
// C-style, only when it holds a control character, '"' or '\'.
// https://git-scm.com/docs/git-config#Documentation/git-config.txt-corequotePath
func quotePath(p string) string {
	if !strings.ContainsFunc(p, func(c rune) bool { return c < 0x20 || c == '"' || c == '\\' || c == 0x7f }) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 7 && c <= 13:
			b.WriteByte('\\')
			b.WriteByte("abtnvfr"[c-7])
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
