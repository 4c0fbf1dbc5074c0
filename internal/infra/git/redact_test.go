package git

import (
	"context"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"fatal: unable to access 'https://gitlab-ci-token:glcbt-SECRET@gitlab.com/g/p.git/': 403": "fatal: unable to access 'https://***@gitlab.com/g/p.git/': 403",
		"remote https://x-access-token:ghs_SECRET@github.com/o/r":                                 "remote https://***@github.com/o/r",
		"https://ghp_SECRET@github.com/o/r and http://u:p@ss@h/x":                                 "https://***@github.com/o/r and http://***@h/x",
		"fatal: unable to look up u:SECRET@127.0.0.1:1 (port 9418)":                               "fatal: unable to look up ***@127.0.0.1:1 (port 9418)",
		"url=ssh://git:SECRET@host:22/x":                                                          "url=ssh://***@host:22/x",
		"git@github.com:o/r.git https://github.com/o/r a@b.c 10:30":                               "git@github.com:o/r.git https://github.com/o/r a@b.c 10:30",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// A fetch from a remote whose URL carries a token must not show the token
// in the error (git:// prints the user information when the lookup fails).
func TestEnsureHistoryRedactsRemoteCredentials(t *testing.T) {
	t.Parallel()
	const token = "glcbt-64_SECRETTOKEN"
	dir := initRepo(t)
	base := commitFiles(t, dir, "one", map[string]string{"a.txt": "a\n"})
	gitT(t, dir, "remote", "add", "origin", "git://gitlab-ci-token:"+token+"@127.0.0.1:1/g/p.git")
	missing := strings.Repeat("ab", 20)
	r := openT(t, dir)
	_, err := r.EnsureHistory(context.Background(), base, missing)
	if err == nil {
		t.Fatal("EnsureHistory fetched from a remote that does not exist")
	}
	if strings.Contains(err.Error(), token) {
		t.Fatalf("error shows the token: %v", err)
	}
	if !strings.Contains(err.Error(), "***@") {
		t.Errorf("error does not show where the credentials were: %v", err)
	}
}

func TestErrorRedactsArgsAndStderr(t *testing.T) {
	t.Parallel()
	e := &Error{Args: []string{"fetch", "https://u:SECRET@h/x"}, ExitCode: 128,
		Stderr: "fatal: repository 'https://u:SECRET@h/x/' not found"}
	if strings.Contains(e.Error(), "SECRET") {
		t.Fatalf("Error() shows the password: %s", e.Error())
	}
}
