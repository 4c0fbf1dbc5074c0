package udiff

import (
	"fmt"
	"strings"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// testHistory is the property-test repository: edits, renames with edits,
// deletes, CRLF, no-newline toggles, unicode and space paths, binaries,
// empty files, mode changes, a merge and a gitlink. Commit i of the steps
// is "step i"; the merge of step 8 is followed by an empty "step 8".
func testHistory() gitrepo.History {
	big := numbered("line", 120, "\n")
	crlf := numbered("dos", 12, "\r\n")
	bin := "\x00\x01\x02 binary \x00 payload"
	n := 0
	step := func(c gitrepo.Change) gitrepo.Change {
		if c.Message == "" {
			c.Message = fmt.Sprintf("step %d", n)
			n++
		}
		return c
	}
	topA := "top\n" + numbered("a", 40, "\n")
	return gitrepo.History{Commits: []gitrepo.Change{
		step(gitrepo.Change{Files: map[string]string{
			"a.txt": numbered("a", 40, "\n"), "big.txt": big, "crlf.txt": crlf,
			"dir with space/file name.txt": "spaced\n", "ünï/ðata.txt": "unicode\n",
			"bin.dat": bin, "empty.txt": "", "script.sh": "echo hi\n",
			"nonl.txt": "one\ntwo", "x b/y": numbered("y", 10, "\n"),
		}}),
		step(gitrepo.Change{Files: map[string]string{
			"a.txt":    strings.Replace(numbered("a", 40, "\n"), "a 20\n", "A 20\nA 20b\n", 1) + "a 41\n",
			"nonl.txt": "one\ntwo\n",
		}}),
		step(gitrepo.Change{Remove: []string{"big.txt", "x b/y"}, Files: map[string]string{
			"moved dir/big renamed.txt": strings.Replace(big, "line 60\n", "LINE 60\n", 1),
			"x b/y b/z":                 numbered("y", 10, "\n") + "y 11\n",
		}}),
		step(gitrepo.Change{Remove: []string{"empty.txt"}, Files: map[string]string{"new empty": "", "script.sh": "echo hi\n"},
			Exec: []string{"script.sh"}}),
		step(gitrepo.Change{Files: map[string]string{
			"crlf.txt": strings.Replace(crlf, "dos 5\r\n", "DOS 5\r\nmixed\n", 1),
			"bin.dat":  bin + "\x00 more",
		}}),
		step(gitrepo.Change{Files: map[string]string{"nonl.txt": "one\ntwo", "ünï/ðata.txt": "unicode\nmore ünïcødé\n"}}),
		step(gitrepo.Change{Branch: "feature", From: "main", Files: map[string]string{"a.txt": topA}}),
		step(gitrepo.Change{Files: map[string]string{"other.txt": "main side\n"}}),
		{Message: "merge feature", Merge: []string{"feature"}, Files: map[string]string{"a.txt": topA}},
		step(gitrepo.Change{}),
		step(gitrepo.Change{Files: map[string]string{"tab\tname.txt": "tab\n", `quote"name\.txt`: "quote\n", "a b/c d.txt": "x\n"}}),
		step(gitrepo.Change{Remove: []string{"nonl.txt"}, Files: map[string]string{"all gone.txt": numbered("g", 5, "\n")}}),
		step(gitrepo.Change{Files: map[string]string{"all gone.txt": "", "a.txt": numbered("rewritten", 30, "\n")}}),
		step(gitrepo.Change{Remove: []string{"a b/c d.txt"}, Files: map[string]string{"tab\tname.txt": "tab\nedited\n", "a b/c e.txt": "x\ny\n"}}),
		step(gitrepo.Change{Gitlinks: map[string]string{"sub": "1111111111111111111111111111111111111111"}}),
		// "git add -A" without a checkout of sub staged its removal.
		step(gitrepo.Change{Remove: []string{"sub"}, Files: map[string]string{"script.sh": "echo bye\n", "crlf.txt": "only\r\nlast no newline\r"},
			Exec: []string{"script.sh"}}),
		step(gitrepo.Change{Files: map[string]string{"crlf.txt": "only\r\nlast no newline\r\n", "moved dir/big renamed.txt": big}}),
	}}
}
