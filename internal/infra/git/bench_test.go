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
