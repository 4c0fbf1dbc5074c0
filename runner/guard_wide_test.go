package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/ocr-ci/ocr/internal/app/config"
	"github.com/ocr-ci/ocr/internal/domain/selection"
	"github.com/ocr-ci/ocr/review"
	"github.com/ocr-ci/ocr/tools"
)

// credentialNames are credentials files the first guard let through.
var credentialNames = []string{
	"credentials.json", "deploy/service-account.json", "gcp-key.json",
	"prod.env", ".envrc", "k8s/secrets.yaml", "infra/terraform.tfvars",
	"home/.kube/config", ".pgpass", ".vault-token",
	"keys/id_rsa.bak", "key.ppk", ".yarnrc.yml", "gha-creds-1a2b3c.json", ".env.production",
}

// guardedSession opens the tool session of cfg, as `ocr tools call` does.
func guardedSession(t *testing.T, cfg *config.Config) *tools.Session {
	t.Helper()
	c := &Command{Stdout: &strings.Builder{}, Stderr: &strings.Builder{}}
	s, done, err := c.toolSession(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(done)
	return s
}

// checkHidden calls file_read, file_find and code_search and fails when
// secret shows in any answer.
func checkHidden(t *testing.T, s *tools.Session, secret string, paths ...string) {
	t.Helper()
	reg := tools.Default()
	calls := [][2]string{{"code_search", `{"search_text": "` + secret + `"}`}}
	for _, p := range paths {
		calls = append(calls, [2]string{"file_read", `{"file_path": "` + p + `"}`},
			[2]string{"file_find", `{"query_name": "` + p[strings.LastIndex(p, "/")+1:] + `"}`})
	}
	for _, call := range calls {
		res := reg.CallJSON(context.Background(), s, call[0], call[1])
		if strings.Contains(res.Text, secret) {
			t.Errorf("%s %s showed a credential:\n%s", call[0], call[1], res.Text)
		}
		if call[0] == "file_find" && strings.Contains(res.Text, call[1][15:len(call[1])-2]) && !strings.Contains(res.Text, "No files") {
			t.Errorf("%s %s listed a credentials file:\n%s", call[0], call[1], res.Text)
		}
	}
}

func TestToolsNeverShowWidenedCredentialNames(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("app.go", "package app\n")
	for _, n := range credentialNames {
		r.write(n, "PASSWORD=hunter2\n")
	}
	r.commit("one")
	for _, n := range credentialNames {
		if !selection.IsSecretPath(n) {
			t.Errorf("%s is not taken for a credentials file", n)
		}
	}
	checkHidden(t, guardedSession(t, &config.Config{Repo: r.dir, Commit: "HEAD", MaxGitProcs: 4}), "hunter2", credentialNames...)
	for _, n := range []string{"app.go", "example.env", ".env.example", "x.tfvars.example", "id_rsa.pub", "docs/keys.md", "monkey.json"} {
		if selection.IsSecretPath(n) {
			t.Errorf("%s is taken for a credentials file", n)
		}
	}
}

// credentialContents are credentials under innocent names.
var credentialContents = map[string]string{
	"notes.md":        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAsecretbody\n-----END RSA PRIVATE KEY-----\n",
	"deploy/app.json": `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEsecretbody\n-----END PRIVATE KEY-----\n"}` + "\n",
	"cfg/aws.go":      "package cfg\n\nconst id = \"AKIAQWERTYUIOPASDFGH\" // secretbody\n",
	"cfg/gh.go":       "package cfg\n\nconst tok = \"ghp_a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2a1B2\" // secretbody\n",
	"cfg/gl.yml":      "token: glpat-Ab1_Ab1_Ab1_Ab1_Ab1_ # secretbody\n",
	"cfg/slack.txt":   "xoxb-1234567890-abcdefghij secretbody\n",
	"cfg/openai.py":   "KEY = 'sk-proj-aB3daB3daB3daB3daB3daB3daB3daB3daB3d' # secretbody\n",
	"cfg/pat.sh":      "export GH=github_pat_11ABCDEFG0xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx # secretbody\n",
}

func TestToolsNeverShowCredentialContent(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("app.go", "package app // secretbody is not here\n")
	paths := []string{}
	for p, c := range credentialContents {
		r.write(p, c)
		paths = append(paths, p)
	}
	r.commit("one")
	s := guardedSession(t, &config.Config{Repo: r.dir, Commit: "HEAD", MaxGitProcs: 4})
	reg := tools.Default()
	for _, p := range paths {
		res := reg.CallJSON(context.Background(), s, "file_read", `{"file_path": "`+p+`"}`)
		if strings.Contains(res.Text, "secretbody") {
			t.Errorf("file_read %s showed a credential:\n%s", p, res.Text)
		}
	}
	for _, q := range []string{"secretbody", "MIIE", "AKIA", "ghp_", "glpat", "xoxb", "sk-proj", "github_pat"} {
		res := reg.CallJSON(context.Background(), s, "code_search", `{"search_text": "`+q+`"}`)
		for _, p := range paths {
			if strings.Contains(res.Text, p) {
				t.Errorf("code_search %q showed a line of %s:\n%s", q, p, res.Text)
			}
		}
	}
	if res := reg.CallJSON(context.Background(), s, "code_search", `{"search_text": "secretbody"}`); !strings.Contains(res.Text, "app.go") {
		t.Errorf("the guard must not hide ordinary files:\n%s", res.Text)
	}
}

// A pull request that renames a credentials file (git mv .env notes.txt)
// must not make it readable under the new name; git's rename detection
// pairs the names, also when the content changed a little.
func TestToolsNeverShowRenamedCredentials(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write("app.go", "package app\n")
	r.write(".env", "PASSWORD=hunter2\nUSER=admin\nHOST=db\nPORT=5432\n")
	r.write("deploy/id_rsa", "not really a key but hunter2\nline two\nline three\n")
	r.write("k8s/secrets.yaml", "password: hunter2\nuser: admin\nhost: db\nport: 5432\n")
	base := r.commit("base")
	r.git("mv", ".env", "notes.txt")
	r.write("docs/index.md", "# docs\n")
	r.git("mv", "deploy/id_rsa", "docs/readme.txt")
	r.git("mv", "k8s/secrets.yaml", "k8s/values.yaml")
	r.write("k8s/values.yaml", "password: hunter2\nuser: admin\nhost: db\nport: 5433\n")
	r.commit("rename")
	moved := []string{"notes.txt", "docs/readme.txt", "k8s/values.yaml"}
	checkHidden(t, guardedSession(t, &config.Config{Repo: r.dir, From: base, To: "HEAD", MaxGitProcs: 4}), "hunter2", moved...)

	p := previewJSON(t, "--repo", r.dir, "--from", base, "--to", "HEAD")
	checkReasons(t, p, map[string]review.Reason{"notes.txt": review.ReasonSecret, "docs/readme.txt": review.ReasonSecret, "k8s/values.yaml": review.ReasonSecret})
}
