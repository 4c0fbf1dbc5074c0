package udiff

import "strings"

// historySteps are the commits of the property-test repository: edits,
// renames with edits, deletes, CRLF, no-newline toggles, unicode and space
// paths, binaries, empty files, mode changes, a merge and a gitlink.
func historySteps() []step {
	big := numbered("line", 120, "\n")
	crlf := numbered("dos", 12, "\r\n")
	bin := "\x00\x01\x02 binary \x00 payload"
	return []step{
		{write: map[string]*string{
			"a.txt": text(numbered("a", 40, "\n")), "big.txt": text(big), "crlf.txt": text(crlf),
			"dir with space/file name.txt": text("spaced\n"), "ünï/ðata.txt": text("unicode\n"),
			"bin.dat": text(bin), "empty.txt": text(""), "script.sh": text("echo hi\n"),
			"nonl.txt": text("one\ntwo"), "x b/y": text(numbered("y", 10, "\n")),
		}},
		{write: map[string]*string{
			"a.txt":    text(strings.Replace(numbered("a", 40, "\n"), "a 20\n", "A 20\nA 20b\n", 1) + "a 41\n"),
			"nonl.txt": text("one\ntwo\n"),
		}},
		{write: map[string]*string{
			"big.txt": nil, "moved dir/big renamed.txt": text(strings.Replace(big, "line 60\n", "LINE 60\n", 1)),
			"x b/y": nil, "x b/y b/z": text(numbered("y", 10, "\n") + "y 11\n"),
		}},
		{write: map[string]*string{"empty.txt": nil, "new empty": text("")}, exec: []string{"script.sh"}},
		{write: map[string]*string{
			"crlf.txt": text(strings.Replace(crlf, "dos 5\r\n", "DOS 5\r\nmixed\n", 1)),
			"bin.dat":  text(bin + "\x00 more"),
		}},
		{write: map[string]*string{"nonl.txt": text("one\ntwo"), "ünï/ðata.txt": text("unicode\nmore ünïcødé\n")}},
		{git: [][]string{{"checkout", "-q", "-b", "feature"}},
			write: map[string]*string{"a.txt": text("top\n" + numbered("a", 40, "\n"))}},
		{git: [][]string{{"checkout", "-q", "main"}},
			write: map[string]*string{"other.txt": text("main side\n")}},
		{git: [][]string{{"merge", "-q", "--no-ff", "-m", "merge feature", "feature"}}},
		{write: map[string]*string{
			"tab\tname.txt": text("tab\n"), `quote"name\.txt`: text("quote\n"), "a b/c d.txt": text("x\n"),
		}},
		{write: map[string]*string{"nonl.txt": nil, "all gone.txt": text(numbered("g", 5, "\n"))}},
		{write: map[string]*string{"all gone.txt": text(""), "a.txt": text(numbered("rewritten", 30, "\n"))}},
		{write: map[string]*string{"tab\tname.txt": text("tab\nedited\n"), "a b/c d.txt": nil, "a b/c e.txt": text("x\ny\n")}},
		{git: [][]string{{"update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub"}}, noAdd: true},
		{write: map[string]*string{"script.sh": text("echo bye\n"), "crlf.txt": text("only\r\nlast no newline\r")}},
		{write: map[string]*string{"crlf.txt": text("only\r\nlast no newline\r\n"), "moved dir/big renamed.txt": text(big)}},
	}
}
