package git

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// zeroBlob commits path as size bytes of zeros (a few KiB packed), built
// by git from a stream so the test never holds it.
func zeroBlob(t *testing.T, dir, path string, size int64) string {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), "sh", "-c", "head -c "+strconv.FormatInt(size, 10)+" /dev/zero | git hash-object -w --stdin")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	gitT(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+strings.TrimSpace(string(out))+","+path)
	gitT(t, dir, "commit", "-q", "-m", "zeros "+path)
	return gitT(t, dir, "rev-parse", "HEAD")
}

// A blob that inflates to far more than ocr reads must fail before it is
// read: the first version allocated the whole blob (2.1 GB for 2 GB of
// zeros) before looking at its size.
func TestReadFileRefusesHugeBlobsBeforeReading(t *testing.T) {
	dir := initRepo(t)
	commitFiles(t, dir, "small", map[string]string{"small.txt": "hello\n"})
	sizes := []int64{MaxReadSize + 1, MaxReadSize * 3 / 2, 2 * MaxReadSize}
	var head string
	for i, size := range sizes {
		head = zeroBlob(t, dir, "zeros"+strconv.Itoa(i)+".bin", size)
	}
	r := openT(t, dir)
	ctx := context.Background()
	for i, size := range sizes {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := r.ReadFile(ctx, head, "zeros"+strconv.Itoa(i)+".bin")
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%d bytes: err = %v, want ErrTooLarge", size, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("%d bytes: the refused read allocated %d bytes", size, alloc)
		}
		// The cat-file process was replaced: the next read works.
		if data, err := r.ReadFile(ctx, head, "small.txt"); err != nil || string(data) != "hello\n" {
			t.Fatalf("read after a refused one: %q, %v", data, err)
		}
	}
}
