package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// PatchIDs returns the stable patch ID of each patch, as `git patch-id
// --stable` computes it: a hash of the patch's file names and changed
// lines with whitespace and line numbers ignored, and the hunks summed
// independently of their order. So the same change made on another base
// (a rebase) keeps its ID, and any other change gets another. A patch git
// finds nothing to hash in has the ID "". All patches go through one git
// process: each is given a made-up commit header, the way git patch-id
// reads a series from git log -p.
// https://git-scm.com/docs/git-patch-id
func (r *Repo) PatchIDs(ctx context.Context, patches []string) ([]string, error) {
	var in bytes.Buffer
	for i, p := range patches {
		fmt.Fprintf(&in, "commit %040x\n%s", i+1, p)
		if !strings.HasSuffix(p, "\n") {
			in.WriteByte('\n')
		}
	}
	out, err := r.run(ctx, call{args: []string{"patch-id", "--stable"}, stdin: in.Bytes()})
	if err != nil {
		return nil, fmt.Errorf("could not compute patch IDs: %w", err)
	}
	ids := make([]string, len(patches))
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		id, commit, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseUint(commit, 16, 64)
		if !ok || err != nil || n == 0 || n > uint64(len(patches)) {
			return nil, fmt.Errorf("could not read git patch-id's output %q", sc.Text())
		}
		ids[n-1] = id
	}
	return ids, sc.Err()
}
