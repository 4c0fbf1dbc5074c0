package packaging

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ocr-ci/ocr/internal/testkit/gitrepo"
	"github.com/ocr-ci/ocr/internal/testkit/llmtest"
)

// The container image run for real: .ci/extra builds it with buildah from
// ./Dockerfile, the release binary and a debootstrap bookworm base, and
// names it in OCR_TEST_IMAGE; this test then runs ocr in it the way a CI
// job does: as the image's user, on a mounted repository that belongs to
// another user, against the scripted model on loopback. It needs root
// (buildah with the vfs driver and chroot isolation, chown).

// otherUID owns the mounted repository, as the CI runner's user does.
const otherUID = 4242

// container is a buildah working container of the image under test.
type container struct {
	t    *testing.T
	name string
	repo string
}

func newContainer(t *testing.T, image, repo string) *container {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "buildah", "from", "--pull-never", image).CombinedOutput()
	if err != nil {
		t.Fatalf("buildah from %s: %v\n%s", image, err, out)
	}
	c := &container{t: t, name: strings.TrimSpace(string(out)), repo: repo}
	t.Cleanup(func() {
		// t.Context() is already cancelled when cleanups run.
		if out, err := exec.CommandContext(context.Background(), "buildah", "rm", c.name).CombinedOutput(); err != nil {
			t.Logf("warning: buildah rm %s: %v (the working container is left behind)\n%s", c.name, err, out)
		}
	})
	return c
}

// run runs argv in the container as the image's user, with the repository
// mounted at /work as the working directory; it returns the exit code.
func (c *container) run(env map[string]string, argv ...string) (int, string, string) {
	c.t.Helper()
	args := []string{"run", "--isolation", "chroot", "--network", "host", "--volume", c.repo + ":/work",
		"--workingdir", "/work"}
	for k, v := range env {
		args = append(args, "--env", k+"="+v)
	}
	args = append(append(args, c.name, "--"), argv...)
	cmd := exec.CommandContext(c.t.Context(), "buildah", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	c.t.Fatalf("buildah run %q: %v\n%s", argv, err, stderr.String())
	return 0, "", ""
}

// reviewRepo is a repository of three commits: a file, a clean helper, a
// nil dereference; owned by otherUID, writable by all (as a GitLab clone
// made with umask 0000).
func reviewRepo(t *testing.T) string {
	dir := t.TempDir()
	gitrepo.Import(t, dir, gitrepo.History{Identity: "ci <ci@localhost>", Checkout: true, Commits: []gitrepo.Change{
		{Message: "root", Files: map[string]string{"store/store.go": "package store\n\nfunc Get(m map[string]*int, k string) int {\n\treturn 0\n}\n"}},
		{Message: "util", Files: map[string]string{"util/util.go": "package util\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n"}},
		{Message: "deref", Files: map[string]string{"store/store.go": "package store\n\nfunc Get(m map[string]*int, k string) int {\n\tv := m[k]\n\treturn *v\n}\n"}},
	}})
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, otherUID, otherUID); err != nil {
			return err
		}
		if info.Mode()&os.ModeSymlink != 0 {
			return nil
		}
		mode := info.Mode().Perm() | 0o666
		if info.IsDir() {
			mode = 0o777
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		t.Fatalf("giving the repository to uid %d: %v", otherUID, err)
	}
	return dir
}

func TestImageReview(t *testing.T) {
	image := os.Getenv("OCR_TEST_IMAGE")
	if image == "" {
		t.Skip("OCR_TEST_IMAGE is not set: .ci/extra builds the image with buildah and runs this test as root")
	}
	if os.Geteuid() != 0 {
		t.Fatal("OCR_TEST_IMAGE is set but the test is not root: buildah (vfs, chroot) and chown need root")
	}
	repo := reviewRepo(t)
	llm := llmtest.New(t,
		llmtest.Script{Match: []string{"store/store.go"}, Answers: []llmtest.Answer{
			llmtest.Calls(llmtest.Tool("code_comment", map[string]any{"comments": []map[string]string{{
				"content": "v is nil when k is missing: nil dereference", "existing_code": "return *v",
				"category": "bug", "severity": "high"}}}), llmtest.Done()),
		}},
		llmtest.Script{Match: []string{"util/util.go"}, Answers: []llmtest.Answer{llmtest.Calls(llmtest.Done())}},
	)
	c := newContainer(t, image, repo)
	model := map[string]string{"OCR_LLM_URL": llm.URL, "OCR_LLM_TOKEN": llmtest.Token, "OCR_LLM_MODEL": llmtest.Model}

	t.Run("user, HOME and safe.directory", func(t *testing.T) {
		code, out, errs := c.run(nil, "sh", "-c", `id -u; echo "$HOME"; test -w "$HOME" && echo writable; git config --system --get-all safe.directory; ocr version`)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) != 5 || lines[0] != "1001" || lines[1] != "/home/ocr" || lines[2] != "writable" || lines[3] != "*" ||
			!strings.HasPrefix(lines[4], "ocr ") {
			t.Fatalf("exit %d, got %q (want uid 1001, HOME /home/ocr writable, safe.directory *, ocr version)\n%s", code, lines, errs)
		}
		// The mount belongs to another user: without the image's system
		// config git refuses it, which is what safe.directory is for.
		code, _, errs = c.run(map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}, "git", "rev-parse", "HEAD")
		if code == 0 || !strings.Contains(errs, "dubious ownership") {
			t.Errorf("git without safe.directory: exit %d, %s: want a dubious ownership refusal (is the repository owned by uid %d?)", code, errs, otherUID)
		}
	})

	t.Run("finding: exit 1 and reports in the workspace", func(t *testing.T) {
		code, out, errs := c.run(model, "ocr", "review", "--commit", "HEAD", "--no-filter", "--fail-on", "high",
			"--report", "sarif=ocr.sarif", "--report", "codequality=gl-code-quality-report.json", "--report", "text")
		if code != 1 {
			t.Fatalf("exit %d, want 1 (a high finding with --fail-on high)\n%s\n%s", code, out, errs)
		}
		if !strings.Contains(out, "nil dereference") {
			t.Errorf("the text report lacks the comment:\n%s", out)
		}
		for _, name := range []string{"ocr.sarif", "gl-code-quality-report.json"} {
			p := filepath.Join(repo, name)
			data, err := os.ReadFile(p)
			if err != nil || !json.Valid(data) || !bytes.Contains(data, []byte("nil dereference")) {
				t.Errorf("%s in the workspace: %v, valid JSON %v, with the comment %v", name, err, json.Valid(data), bytes.Contains(data, []byte("nil dereference")))
				continue
			}
			st, _ := os.Stat(p)
			if uid := st.Sys().(*syscall.Stat_t).Uid; uid != 1001 {
				t.Errorf("%s is owned by uid %d, want 1001 (the image's user)", name, uid)
			}
		}
		if strings.Contains(out+errs, llmtest.Token) {
			t.Error("the model's token was printed")
		}
	})

	t.Run("no finding: exit 0", func(t *testing.T) {
		code, out, errs := c.run(model, "ocr", "review", "--commit", "HEAD~1", "--no-filter", "--fail-on", "high", "--report", "text")
		if code != 0 {
			t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
		}
	})

	t.Run("no endpoint: exit 2 with a clear error", func(t *testing.T) {
		code, out, errs := c.run(nil, "ocr", "review", "--commit", "HEAD")
		if code != 2 || !strings.Contains(errs, "OCR_LLM_URL") {
			t.Errorf("exit %d, stdout %q, stderr %q: want 2 naming OCR_LLM_URL on stderr", code, out, errs)
		}
	})
	if n := len(llm.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2 (one per reviewed file)", n)
	}
}
