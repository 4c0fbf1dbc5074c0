package git

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadFile compares reading files at a commit through the shared
// cat-file --batch process with starting one `git show` per read.
func BenchmarkReadFile(b *testing.B) {
	dir := initRepo(b)
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/file%d.go", i%10, i)] = strings.Repeat(fmt.Sprintf("line %d\n", i), 500)
	}
	commit := commitFiles(b, dir, "files", files)
	r := openT(b, dir)
	ctx := context.Background()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	b.Run("batch", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := r.ReadFile(ctx, commit, names[i%len(names)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("show", func(b *testing.B) {
		i := 0
		for b.Loop() {
			spec := commit + ":" + names[i%len(names)]
			if _, err := r.run(ctx, call{args: []string{"show", "--end-of-options", spec}}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkResolveCommit compares resolving a name through the running
// cat-file process (ResolveCommit; "HEAD" is never remembered) with one
// `git rev-parse` per name, as before.
func BenchmarkResolveCommit(b *testing.B) {
	dir := initRepo(b)
	commitFiles(b, dir, "one", map[string]string{"a.txt": "a\n"})
	r := openT(b, dir)
	ctx := context.Background()
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.ResolveCommit(ctx, "HEAD"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rev-parse", func(b *testing.B) {
		for b.Loop() {
			if _, ok, err := r.revParse(ctx, "HEAD^{commit}"); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
}
