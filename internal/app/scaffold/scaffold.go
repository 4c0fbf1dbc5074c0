// Package scaffold is what `ocr init` writes: the forge a repository's
// origin remote names, the CI file that runs ocr there (the GitHub
// workflow of docs/conversation.md, or the GitLab component include of
// docs/gitlab.md), and what is still to set by hand.
package scaffold

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"text/template"
)

// The forges `ocr init` knows.
const (
	GitHub = "github"
	GitLab = "gitlab"
)

var (
	//go:embed github.yml
	githubWorkflow string
	//go:embed gitlab-include.yml
	gitlabInclude string
)

// File is one file `ocr init` writes, relative to the repository's top.
type File struct {
	Path, Content string
	// Addition is what to add to the file when it exists already (it is
	// never overwritten); "" when the whole file is ocr's.
	Addition string
}

// ForgeOf names the forge of a remote URL (https://, ssh://, scp-like
// git@host:path) by its host: a host naming github or gitlab. ok is false
// when the host names neither (a self-hosted forge under another name).
func ForgeOf(remote string) (forge, host string, ok bool) {
	host = hostOf(remote)
	switch h := strings.ToLower(host); {
	case strings.Contains(h, "github"):
		return GitHub, host, true
	case strings.Contains(h, "gitlab"):
		return GitLab, host, true
	}
	return "", host, false
}

// hostOf is the host of a remote URL, "" for a local path.
func hostOf(remote string) string {
	if u, err := url.Parse(remote); err == nil && u.Host != "" {
		return u.Hostname()
	}
	// scp-like: [user@]host:path
	before, _, ok := strings.Cut(remote, ":")
	if !ok || strings.Contains(before, "/") {
		return ""
	}
	_, host, found := strings.Cut(before, "@")
	if !found {
		host = before
	}
	return host
}

// Files is what `ocr init` writes for forge; version pins the GitLab
// component and image ("1.2.3").
func Files(forge, version string) ([]File, error) {
	switch forge {
	case GitHub:
		return []File{{Path: ".github/workflows/ocr.yml", Content: githubWorkflow}}, nil
	case GitLab:
		var b bytes.Buffer
		t := template.Must(template.New("include").Parse(gitlabInclude))
		if err := t.Execute(&b, struct{ Version string }{strings.TrimPrefix(version, "v")}); err != nil {
			return nil, fmt.Errorf("could not write the GitLab include: %w", err)
		}
		return []File{{Path: ".gitlab-ci.yml", Content: b.String(), Addition: b.String()}}, nil
	}
	return nil, fmt.Errorf("unknown forge %q: want %s or %s", forge, GitHub, GitLab)
}

// NextSteps is what is still to do by hand once the file is written: the
// secrets or CI/CD variables to set, then the check.
func NextSteps(forge, host string) []string {
	if forge == GitHub {
		return []string{
			"set the repository secret OCR_LLM_TOKEN, your model provider's key (Settings → Secrets and variables → Actions; or: gh secret set OCR_LLM_TOKEN)",
			"check llm-url and llm-model in .github/workflows/ocr.yml: any OpenAI-compatible endpoint works (docs/providers.md)",
			"commit the workflow and open a pull request: ocr reviews it, and answers @ocr in its comments (docs/conversation.md)",
		}
	}
	steps := []string{
		"set the CI/CD variables OCR_LLM_URL, OCR_LLM_TOKEN (masked, not protected) and OCR_GITLAB_TOKEN (masked, not protected: a project access token with the api scope and the Developer role; CI_JOB_TOKEN cannot post) under Settings → CI/CD → Variables",
		"check llm-model in .gitlab-ci.yml (docs/providers.md)",
		"commit .gitlab-ci.yml and open a merge request: ocr reviews it (answering comments needs a trigger pipeline: docs/conversation.md#gitlab)",
	}
	if !strings.EqualFold(host, "gitlab.com") {
		steps = append(steps, "on a self-managed GitLab ("+host+"), mirror the component project and the image first: docs/gitlab.md")
	}
	return steps
}

// Detect names the forge of the origin remote's URL (urlErr: it could not
// be read); the errors say to pass --forge.
func Detect(url string, urlErr error) (forge, host string, err error) {
	if urlErr != nil {
		return "", "", errors.New("this repository has no origin remote to tell the forge by: pass --forge github or --forge gitlab")
	}
	forge, host, ok := ForgeOf(url)
	if !ok {
		return "", "", fmt.Errorf("cannot tell the forge of the origin remote (its host %q names neither GitHub nor GitLab): "+
			"pass --forge github or --forge gitlab", host)
	}
	return forge, host, nil
}
