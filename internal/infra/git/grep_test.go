package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGrep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	commit := commitFiles(t, dir, "one", map[string]string{
		"a.go":        "x := a.b(\nAPFEL\n-x flag\n",
		"many.txt":    strings.Repeat("hit\n", 10),
		"vendor/v.go": "a.b(\n",
		"ü/äpfel.txt": "Äpfel und äpfel\n",
		"bin.dat":     "a.b(\x00",
		".gitignore":  "*.log\n",
	})
	writeFiles(t, dir, map[string]string{"a.go": "changed a.b(\n", "new.txt": "a.b( untracked\n", "x.log": "a.b(\n"})
	r := openT(t, dir)

	cases := []struct {
		name string
		o    GrepOptions
		want string
	}{
		{"fixed string at a ref", GrepOptions{Pattern: "a.b(", Ref: commit},
			commit + ":a.go:1:x := a.b(\n" + commit + ":vendor/v.go:1:a.b(\n"},
		{"work tree", GrepOptions{Pattern: "a.b("}, "a.go:1:changed a.b(\nvendor/v.go:1:a.b(\n"},
		{"untracked", GrepOptions{Pattern: "a.b(", Untracked: true},
			"a.go:1:changed a.b(\nnew.txt:1:a.b( untracked\nvendor/v.go:1:a.b(\n"},
		{"pathspec exclude", GrepOptions{Pattern: "a.b(", Ref: "HEAD", Pathspecs: []string{":(exclude)vendor/"}},
			"HEAD:a.go:1:x := a.b(\n"},
		{"pattern starting with a dash", GrepOptions{Pattern: "-x", Ref: "HEAD"}, "HEAD:a.go:3:-x flag\n"},
		{"max count", GrepOptions{Pattern: "hit", Ref: "HEAD", MaxCount: 2}, "HEAD:many.txt:1:hit\nHEAD:many.txt:2:hit\n"},
		{"unicode ignore case", GrepOptions{Pattern: "äPFEL UND", Ref: "HEAD", IgnoreCase: true, Pathspecs: []string{"ü"}},
			"HEAD:ü/äpfel.txt:1:Äpfel und äpfel\n"},
		{"perl", GrepOptions{Pattern: `^[A-Z]{5}$`, Ref: "HEAD", Perl: true}, "HEAD:a.go:2:APFEL\n"},
		{"no match", GrepOptions{Pattern: "absent", Ref: "HEAD"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := r.Grep(ctx, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("Grep = %q, want %q", got, c.want)
			}
			if c.want == "" && got != nil {
				t.Errorf("no match should be nil, got %q", got)
			}
		})
	}
}

func TestGrepRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "a\n"})
	r := openT(t, dir)
	out := filepath.Join(t.TempDir(), "out")
	for _, ref := range []string{"-x", "--output=" + out, "--open-files-in-pager=touch " + out} {
		_, err := r.Grep(ctx, GrepOptions{Pattern: "a", Ref: ref})
		wantErr(t, err, ErrBadRef)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a ref was read as an option")
	}
	for _, o := range []GrepOptions{
		{Pattern: " "}, {Pattern: "a\nb"}, {Pattern: "a", Ref: "HEAD", Untracked: true}, {Pattern: "a", Ref: "HEAD", NoIndex: true},
	} {
		if _, err := r.Grep(ctx, o); err == nil {
			t.Errorf("Grep(%+v) succeeded", o)
		}
	}
	var e *Error
	if _, err := r.Grep(ctx, GrepOptions{Pattern: "a", Ref: "nope"}); !errors.As(err, &e) || e.ExitCode != 128 {
		t.Errorf("Grep at an unknown ref = %v", err)
	}
	_, err := r.Grep(ctx, GrepOptions{Pattern: "a", Timeout: 1})
	wantErr(t, err, ErrTimeout)
	if !strings.Contains(err.Error(), "narrow") {
		t.Errorf("timeout error %q does not advise narrowing", err)
	}
}

func TestGrepPlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "foo\n", "b.log": "foo\n", ".gitignore": "*.log\n"})
	r := Plain(dir, Options{})
	got, err := r.Grep(context.Background(), GrepOptions{Pattern: "foo"})
	if err != nil || string(got) != "a.txt:1:foo\n" {
		t.Errorf("Grep = %q, %v", got, err)
	}
}

func TestCapPerFile(t *testing.T) {
	t.Parallel()
	in := "a:1:x\na:2:x\na:3:x\nb:c:1:y\nb:c:5:y\nd:1:z\n"
	if got, want := string(capPerFile([]byte(in), 1)), "a:1:x\nb:c:1:y\nd:1:z\n"; got != want {
		t.Errorf("capPerFile = %q, want %q", got, want)
	}
}

func TestListFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a.go": "a\n", "ü/b c.go": "b\n", ".gitignore": "*.log\n"})
	writeFiles(t, dir, map[string]string{"new.go": "n\n", "x.log": "l\n"})
	r := openT(t, dir)
	for ref, want := range map[string]string{
		"HEAD": ".gitignore a.go ü/b c.go",
		"":     ".gitignore a.go new.go ü/b c.go",
	} {
		got, err := r.ListFiles(ctx, ref)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("ListFiles(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	_, err := r.ListFiles(ctx, "-x")
	wantErr(t, err, ErrBadRef)
}

func TestGrepMaxBytesStopsEarly(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	files := map[string]string{}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("f%03d.txt", i)] = strings.Repeat("needle in a haystack\n", 50)
	}
	c := commitFiles(t, dir, "many", files)
	r := openT(t, dir)
	full, err := r.Grep(context.Background(), GrepOptions{Pattern: "needle", Ref: c})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Grep(context.Background(), GrepOptions{Pattern: "needle", Ref: c, MaxBytes: 4096})
	if err != nil {
		t.Fatalf("a search stopped at its limit is not an error: %v", err)
	}
	if len(out) > 4096 || len(out) < 2048 || out[len(out)-1] != '\n' || !bytes.HasPrefix(full, out) {
		t.Errorf("limited output: %d bytes (full %d), want a prefix of whole lines under 4096", len(out), len(full))
	}
}
