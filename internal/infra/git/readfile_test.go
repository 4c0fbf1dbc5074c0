package git

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// readFixture is a repository with a committed binary, a large file, the
// tricky names, and symlinks inside and outside the tree.
func readFixture(t *testing.T) (dir, commit string, files map[string]string) {
	t.Helper()
	dir = initRepo(t)
	big := make([]byte, 3<<20)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(rnd.UintN(256))
	}
	files = map[string]string{"bin.dat": "\x00\x01\x02\n\n", "big.bin": string(big), "dir/a.go": "package a\n", "crlf.txt": "a\r\nb"}
	for _, n := range trickyNames {
		files[n] = "content of " + n
	}
	writeFiles(t, dir, files)
	symlinkT(t, "dir/a.go", filepath.Join(dir, "inside"))
	writeFiles(t, filepath.Dir(dir), map[string]string{"outside.txt": "secret\n"})
	symlinkT(t, "../outside.txt", filepath.Join(dir, "escape"))
	symlinkT(t, "/etc/passwd", filepath.Join(dir, "absolute"))
	symlinkT(t, "nowhere", filepath.Join(dir, "dangling"))
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "files")
	return dir, gitT(t, dir, "rev-parse", "HEAD"), files
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, commit, files := readFixture(t)
	r := openT(t, dir)
	for _, ref := range []string{commit, "HEAD", ""} {
		for name, want := range files {
			got, err := r.ReadFile(ctx, ref, name)
			if err != nil || !bytes.Equal(got, []byte(want)) {
				t.Errorf("ReadFile(%q, %q) = %d bytes, %v; want %d bytes", ref, name, len(got), err, len(want))
			}
		}
		if got, err := r.ReadFile(ctx, ref, "./inside"); err != nil || string(got) != "package a\n" {
			t.Errorf("ReadFile(%q, inside) = %q, %v; want the link target's content", ref, got, err)
		}
		for _, name := range []string{"missing.txt", "dir", "dangling", "bin.dat/x"} {
			_, err := r.ReadFile(ctx, ref, name)
			wantErr(t, err, ErrNotFound)
		}
		for _, name := range []string{"escape", "absolute", "../x", "dir/../../x", "/etc/passwd", ".git/config", "dir/.GIT/x"} {
			_, err := r.ReadFile(ctx, ref, name)
			wantErr(t, err, ErrOutsideRepository)
		}
		for _, name := range []string{"", "a\nb"} {
			if _, err := r.ReadFile(ctx, ref, name); err == nil {
				t.Errorf("ReadFile(%q, %q) succeeded", ref, name)
			}
		}
	}
	for _, ref := range []string{"-x", "--output=/tmp/x", "HEAD:dir", "a\nb"} {
		_, err := r.ReadFile(ctx, ref, "bin.dat")
		wantErr(t, err, ErrBadRef)
	}
	_, err := r.ReadFile(ctx, "nope", "bin.dat")
	wantErr(t, err, ErrNotFound)
}

func TestReadFilePlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	r := Plain(dir, Options{})
	if got, err := r.ReadFile(context.Background(), "", "a.txt"); err != nil || string(got) != "a\n" {
		t.Errorf("ReadFile = %q, %v", got, err)
	}
	writeFiles(t, filepath.Dir(dir), map[string]string{"outside.txt": "secret\n"})
	symlinkT(t, "..", filepath.Join(dir, "up"))
	_, err := r.ReadFile(context.Background(), "", "up/outside.txt")
	wantErr(t, err, ErrOutsideRepository)
}

func TestReadFileConcurrent(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("f%02d.txt", i)] = fmt.Sprintf("file %d\n%s", i, bytes.Repeat([]byte{byte('a' + i%26)}, i*997))
	}
	commit := commitFiles(t, dir, "many", files)
	r := openT(t, dir)
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				name := fmt.Sprintf("f%02d.txt", (i+g)%50)
				got, err := r.ReadFile(context.Background(), commit, name)
				if err != nil || string(got) != files[name] {
					t.Errorf("ReadFile(%s) = %d bytes, %v", name, len(got), err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestReadFileRecovers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "A\n"})
	r := openT(t, dir)
	read := func(when string) {
		t.Helper()
		if got, err := r.ReadFile(ctx, "HEAD", "a"); err != nil || string(got) != "A\n" {
			t.Fatalf("ReadFile %s = %q, %v", when, got, err)
		}
	}
	read("first")
	first := r.batch.cmd.Process.Pid
	if err := r.batch.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	read("after the process was killed")
	if r.batch.cmd.Process.Pid == first {
		t.Errorf("the killed process was not replaced")
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.ReadFile(cancelled, "HEAD", "a"); err == nil {
		t.Errorf("ReadFile with a cancelled context succeeded")
	}
	read("after a cancelled read")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if r.batch.cmd != nil {
		t.Errorf("Close left the process running")
	}
	read("after Close")
}

func TestReadFileWorkTreeChanges(t *testing.T) {
	t.Parallel()
	dir := initRepo(t)
	commitFiles(t, dir, "one", map[string]string{"a": "old\n"})
	writeFiles(t, dir, map[string]string{"a": "new\n", "untracked": "u\n"})
	r := openT(t, dir)
	for ref, want := range map[string]string{"HEAD": "old\n", "": "new\n"} {
		if got, err := r.ReadFile(context.Background(), ref, "a"); err != nil || string(got) != want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := r.ReadFile(context.Background(), "", "sub")
	wantErr(t, err, ErrNotFound)
}
