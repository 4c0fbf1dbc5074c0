package tools

// Golden tests modelled on Open Code Review's own tool tests
// (internal/tool/*_test.go in alibaba/open-code-review): where its tests pin
// a behaviour, ocr agrees. Each test names the OCR test it follows.
// docs/tools.md lists where ocr deliberately differs.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
)

// modeSources commits files in a new repository and returns the three ways
// the tools read it: the commit, the work tree, and a plain copy without
// .git. work (may be nil) is written to the work tree and the plain copy
// after the commit.
func modeSources(t *testing.T, files, work map[string]string) []struct {
	mode string
	src  Source
} {
	t.Helper()
	dir, repo, head := commitFiles(t, files)
	gitrepo.WriteFiles(t, dir, work)
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.CopyFS(plain, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(plain, ".git")); err != nil {
		t.Fatal(err)
	}
	return []struct {
		mode string
		src  Source
	}{{"commit", RefSource(repo, head)}, {"workspace", WorkSource(repo)}, {"plain", DirSource(plain)}}
}

// modeTranscripts runs the calls of one tool in every mode and joins the
// transcripts under a "## mode" header each.
func modeTranscripts(t *testing.T, files, work map[string]string, tool string, calls []string) string {
	t.Helper()
	var b strings.Builder
	for _, m := range modeSources(t, files, work) {
		fmt.Fprintf(&b, "## %s\n\n", m.mode)
		b.WriteString(transcript(t, Default(), &Session{Source: m.src}, tool, calls))
	}
	return b.String()
}

// commentsAsString is code_comment's arguments with comments sent as the
// given serialized text, the way a model that stringifies the array does.
func commentsAsString(t *testing.T, serialized string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"comments": serialized})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Fixtures of OCR's comment_args_repair_test.go: the prose of a comment
// quotes a term with an unescaped double quote (English and Chinese), a raw
// newline, several comments.
const (
	proseQuoteEnglish = `[{"content":"the name suggests "a trusted proxy exists" but the call returns the opposite","existing_code":"boolean ok = cfg.isEmpty();","path":"Auth.java"}]`
	proseQuoteChinese = `[{"content":"变量名暗示的是"存在可信代理"，但调用返回的是相反的结果。","existing_code":"boolean ok = cfg.isEmpty();","path":"Auth.java"}]`
	twoProseQuotes    = `[{"content":"the counter changed from "files finished" to "files started"","path":"a.go"},{"content":"the flag reads as "proxy present" but means the opposite","path":"b.go"}]`
	rawNewline        = "[{\"content\":\"first line\nsecond line\",\"path\":\"a.go\"}]"
	truncatedBatch    = `[{"content":"say "hi""},{"content"`
	repairEmptiesOne  = `[{"content":"say "hi" loudly"},{"content":""}]`
	escapedCorrectly  = `[{"content":"the name suggests \"ok\"","path":"a.go"}]`
)

// TestOCRCommentsStringRepair follows OCR's TestParseComments_Repairs*,
// _RepairKeepsEveryCommentInTheBatch, _UnrepairableKeepsOriginalParserWording,
// _RepairRejectedWhenABatchEntryEndsUpEmpty and _WellFormedInputReportsNoRepair.
func TestOCRCommentsStringRepair(t *testing.T) {
	s := &Session{File: "fallback.go", Diffs: map[string]string{"Auth.java": "@@\n", "a.go": "@@\n", "b.go": "@@\n"}}
	var calls []string
	for _, c := range []string{proseQuoteEnglish, proseQuoteChinese, twoProseQuotes, rawNewline, truncatedBatch, repairEmptiesOne, escapedCorrectly} {
		calls = append(calls, commentsAsString(t, c))
	}
	got := transcript(t, Default(), s, "code_comment", calls)
	golden(t, "ocr/code_comment_repair", got)

	r := Default()
	check := func(args string, wantPaths ...string) Result {
		t.Helper()
		res := r.Call(context.Background(), PhaseMain, s, "code_comment", args)
		var paths []string
		for _, c := range res.Comments {
			paths = append(paths, c.Path)
		}
		if res.IsError || strings.Join(paths, ",") != strings.Join(wantPaths, ",") {
			t.Errorf("%s: got %+v, want comments on %v", args, res, wantPaths)
		}
		return res
	}
	if res := check(commentsAsString(t, proseQuoteEnglish), "Auth.java"); len(res.Comments) == 1 {
		if c := res.Comments[0]; !strings.Contains(c.Content, `"a trusted proxy exists"`) || c.ExistingCode != "boolean ok = cfg.isEmpty();" {
			t.Errorf("the quoted term or the code was lost: %+v", c)
		}
	}
	if res := check(commentsAsString(t, proseQuoteChinese), "Auth.java"); len(res.Comments) == 1 && !strings.HasSuffix(res.Comments[0].Content, "相反的结果。") {
		t.Errorf("multi-byte content did not survive the repair: %q", res.Comments[0].Content)
	}
	check(commentsAsString(t, twoProseQuotes), "a.go", "b.go")
	if res := check(commentsAsString(t, rawNewline), "a.go"); len(res.Comments) == 1 && res.Comments[0].Content != "first line\nsecond line" {
		t.Errorf("content = %q, want the newline kept", res.Comments[0].Content)
	}
	for _, bad := range []string{truncatedBatch, repairEmptiesOne} {
		res := r.Call(context.Background(), PhaseMain, s, "code_comment", commentsAsString(t, bad))
		if !res.IsError || len(res.Comments) != 0 || !strings.Contains(res.Text, "failed to parse 'comments' JSON string") || !strings.Contains(res.Text, "invalid character") {
			t.Errorf("%s: got %+v, want the parser's own error", bad, res)
		}
	}
}

// TestOCRRepairCounts follows OCR's escaped-character counts and
// TestRepairSerializedComments_LeavesWellFormedJSONByteIdentical.
func TestOCRRepairCounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{{proseQuoteEnglish, 2}, {proseQuoteChinese, 2}, {rawNewline, 1}, {twoProseQuotes, 6}} {
		if _, n, ok := repairComments(tc.in); !ok || n != tc.want {
			t.Errorf("repairComments(%q) escaped %d (ok %t), want %d", tc.in, n, ok, tc.want)
		}
	}
	for _, in := range []string{
		`[{"content":"plain","path":"a.go"}]`,
		`[{"content":"escaped \"term\" here","path":"a.go"}]`,
		`[{"content":"newline \n tab \t done","path":"a.go"}]`,
		`[ { "content" : "spaced out" } , { "content" : "second" } ]`,
		`[{"content":"trailing colon in prose: see","suggestion_code":"x := 1"}]`,
		`[{"content":"brace } and bracket ] inside prose","path":"a.go"}]`,
		`[]`,
	} {
		if out, n := escapeStrays(in); n != 0 || out != in {
			t.Errorf("escapeStrays changed valid input %q into %q (%d escaped)", in, out, n)
		}
		if _, _, ok := repairComments(in); ok {
			t.Errorf("repairComments accepted %q, which needed no repair", in)
		}
	}
}

// TestOCRSearchCRLF follows OCR's TestGitGrep_CRLFFileHasNoTrailingCR, in
// every mode.
func TestOCRSearchCRLF(t *testing.T) {
	files := map[string]string{"crlf.go": "package main\r\n\r\nfunc Crlf() {}\r\n"}
	got := modeTranscripts(t, files, nil, "code_search", []string{`{"search_text":"Crlf"}`})
	if strings.Contains(got, "\r") || strings.Count(got, "3|func Crlf() {}\n") != 3 {
		t.Errorf("a match line kept its carriage return:\n%q", got)
	}
	golden(t, "ocr/code_search_crlf", got)
}

// TestOCRSearchBackslashPattern follows OCR's
// TestCodeSearchProvider_Execute_WithFilePatterns ("pkg/" and `pkg\`).
func TestOCRSearchBackslashPattern(t *testing.T) {
	files := map[string]string{"hello.go": "package main\n\nfunc Hello() {}\n", "pkg/util.go": "package pkg\n\nfunc Util() {}\n"}
	calls := []string{`{"search_text":"Util","file_patterns":["pkg/"]}`, `{"search_text":"Util","file_patterns":["pkg\\"]}`,
		`{"search_text":"Hello","file_patterns":["pkg\\"]}`, `{"search_text":"x","file_patterns":["pkg\\..\\.."]}`}
	got := modeTranscripts(t, files, nil, "code_search", calls)
	if strings.Count(got, "File: pkg/util.go") != 6 {
		t.Errorf("pkg/ and pkg\\ do not both find pkg/util.go in every mode:\n%s", got)
	}
	golden(t, "ocr/code_search_backslash", got)
}

// TestOCRSearchResultLimit follows OCR's TestGitGrep_ResultLimit in all
// three modes: the note appears only when something was cut. ocr's cap is
// per file (spec: git grep --max-count 100), so the cases are per file.
func TestOCRSearchResultLimit(t *testing.T) {
	const needle = "result_limit_needle"
	var b strings.Builder
	for _, tc := range []struct {
		name                  string
		binary, first, second int
		wantShown             int
		wantNote              bool
	}{
		{name: "below_limit", first: 49, second: 50, wantShown: 99},
		{name: "exact_limit", first: 100, wantShown: 100},
		{name: "two_files_at_the_limit", first: 100, second: 100, wantShown: 200},
		{name: "one_more_than_the_limit", first: 101, wantShown: 100, wantNote: true},
		{name: "one_file_over_one_at", first: 150, second: 100, wantShown: 200, wantNote: true},
		{name: "binary_before_text", binary: 100, first: 1, wantShown: 1},
		{name: "binary_with_exact_limit", binary: 1, first: 100, wantShown: 100},
		{name: "binary_with_truncation", binary: 100, first: 101, wantShown: 100, wantNote: true},
	} {
		files := map[string]string{"a.go": strings.Repeat(needle+"\n", tc.first)}
		if tc.second > 0 {
			files["b.go"] = strings.Repeat(needle+"\n", tc.second)
		}
		for i := 0; i < tc.binary; i++ {
			files[fmt.Sprintf("0_binary_%03d.bin", i)] = "\x00" + needle + "\n"
		}
		for _, m := range modeSources(t, files, nil) {
			res := Default().Call(context.Background(), PhaseMain, &Session{Source: m.src}, "code_search", `{"search_text":"`+needle+`"}`)
			shown := strings.Count(res.Text, "|"+needle+"\n")
			note := strings.Contains(res.Text, searchCappedNote)
			if res.IsError || shown != tc.wantShown || note != tc.wantNote {
				t.Errorf("%s/%s: %d matches shown, note %t; want %d, %t", m.mode, tc.name, shown, note, tc.wantShown, tc.wantNote)
			}
			fmt.Fprintf(&b, "%s/%s: shown %d, note %t\n", m.mode, tc.name, shown, note)
		}
	}
	golden(t, "ocr/code_search_limit", b.String())
}

// TestOCRMissingFileGuidesRecovery follows OCR's
// TestExecute_MissingFileGuidesRecovery, _MissingFileCommitModeGuidesRecovery
// and _WorktreeOnlyFileCommitModeGuidesRecovery.
func TestOCRMissingFileGuidesRecovery(t *testing.T) {
	files := map[string]string{"hello.go": "package main\n"}
	got := modeTranscripts(t, files, map[string]string{"after-commit.txt": "not in the reviewed commit\n"}, "file_read",
		[]string{`{"file_path":"missing.txt"}`, `{"file_path":"after-commit.txt"}`})
	want := `Error: file not found: "missing.txt". Use file_find to locate the exact path, then retry file_read.`
	if strings.Count(got, want+"\n") != 3 {
		t.Errorf("a mode lacks %q:\n%s", want, got)
	}
	if !strings.Contains(got, `Error: file not found: "after-commit.txt". Use file_find to locate the exact path, then retry file_read.`) {
		t.Errorf("a file only in the work tree is not reported missing in commit mode:\n%s", got)
	}
	golden(t, "ocr/file_read_missing", got)
}

// TestOCRTaskDoneState follows OCR's task_done handling (agent.go; its
// session test pins the text): a state that is not a string names DONE and
// FAILED.
func TestOCRTaskDoneState(t *testing.T) {
	calls := []string{`{"state":1}`, `{"state":true}`, `{"state":["DONE"]}`, `{"state":{"value":"DONE"}}`, `{"state":"MAYBE"}`}
	got := transcript(t, Default(), &Session{}, "task_done", calls)
	if strings.Count(got, stateTypeText+"\n") != 4 {
		t.Errorf("a non-string state does not name the valid values:\n%s", got)
	}
	golden(t, "ocr/task_done_state", got)
}

// TestOCRAbsolutePathStaysUnderRepo follows OCR's
// TestReadLines_Disk_AbsolutePathStaysUnderRepo and
// _RejectsParentTraversal, in every mode: "/etc/passwd" is the
// repository's etc/passwd, and ".." still cannot climb out.
func TestOCRAbsolutePathStaysUnderRepo(t *testing.T) {
	files := map[string]string{"etc/passwd": "repo-passwd\n", "src/foo.go": "package foo\n"}
	calls := []string{`{"file_path":"/etc/passwd"}`, `{"file_path":"/src/foo.go"}`, `{"file_path":"//src\\foo.go"}`,
		`{"file_path":"/../etc/passwd"}`, `{"file_path":"/src/../../etc/passwd"}`, `{"file_path":"/.git/config"}`, `{"file_path":"/"}`}
	got := modeTranscripts(t, files, nil, "file_read", calls)
	if strings.Count(got, "1|repo-passwd") != 3 || strings.Count(got, "1|package foo") != 6 {
		t.Errorf("an absolute path is not read from the repository root:\n%s", got)
	}
	golden(t, "ocr/file_read_absolute", got)
}

// TestAbsolutePathCannotEscapeThroughSymlinks: reading absolute paths
// from the root must not open a way out through a symlinked directory or
// file, in any mode (OCR's TestReadLines_Disk_RejectsSymlinkOutsideRepo).
func TestAbsolutePathCannotEscapeThroughSymlinks(t *testing.T) {
	outside := t.TempDir()
	gitrepo.WriteFiles(t, outside, map[string]string{"passwd": "outside-secret\n"})
	files := map[string]string{
		"etc":      "->" + outside,
		"rel":      "->../" + filepath.Base(outside),
		"link.txt": "->" + filepath.Join(outside, "passwd"),
		"ok.go":    "package ok\n",
	}
	for _, m := range modeSources(t, files, nil) {
		for _, p := range []string{"/etc/passwd", "etc/passwd", "/link.txt", "/rel/passwd", "//etc//passwd", `\etc\passwd`, "/ok.go/../etc/passwd"} {
			args, _ := json.Marshal(map[string]string{"file_path": p})
			res := Default().Call(context.Background(), PhaseMain, &Session{Source: m.src}, "file_read", string(args))
			if !res.IsError || strings.Contains(res.Text, "outside-secret") {
				t.Errorf("%s: file_read %s = %q; want an error", m.mode, p, res.Text)
			}
		}
	}
}
