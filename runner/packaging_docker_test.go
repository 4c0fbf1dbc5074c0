package runner

// Checks that action.yml, gitlab/ocr.yml, the Dockerfile and the setup docs
// say what the code does: every variable they set is one ocr reads, every
// default loads, every output is one ocr writes.

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// pkgDockerfile returns the Dockerfile's instructions, continuation lines
// joined, comments dropped.
func pkgDockerfile(t *testing.T) [][2]string {
	var out [][2]string
	var cur string
	for _, line := range strings.Split(string(pkgRead(t, "Dockerfile")), "\n") {
		if trimmed := strings.TrimSpace(line); cur == "" && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cur += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		op, args, _ := strings.Cut(strings.TrimSpace(cur+line), " ")
		out, cur = append(out, [2]string{strings.ToUpper(op), strings.Join(strings.Fields(args), " ")}), ""
	}
	return out
}

func TestDockerfile(t *testing.T) {
	var froms []string
	var build, runtime []string // RUN lines per stage
	var user, entrypoint string
	for _, ins := range pkgDockerfile(t) {
		switch ins[0] {
		case "FROM":
			froms = append(froms, ins[1])
		case "RUN":
			if len(froms) == 1 {
				build = append(build, ins[1])
			} else {
				runtime = append(runtime, ins[1])
			}
		case "USER":
			user = ins[1]
		case "ENTRYPOINT":
			entrypoint = ins[1]
		}
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(pkgRead(t, "go.mod"))
	if len(froms) != 2 || !strings.Contains(froms[0], "golang:"+string(goVersion[1])+"-") ||
		!strings.HasSuffix(froms[0], " AS build") || !strings.HasPrefix(froms[1], "alpine:3.22 ") {
		t.Errorf("stages = %q: want golang:%s-* AS build, then alpine:3.22 (git 2.49)", froms, goVersion[1])
	}
	all := strings.Join(build, "\n")
	for _, want := range []string{"CGO_ENABLED=0", "go build", "-X github.com/ocr-ci/ocr/runner.Version=", "./cmd/ocr"} {
		if !strings.Contains(all, want) {
			t.Errorf("build stage lacks %q", want)
		}
	}
	all = strings.Join(runtime, "\n")
	for _, want := range []string{"apk add --no-cache git ca-certificates", "git config --system --add safe.directory '*'", "2.41"} {
		if !strings.Contains(all, want) {
			t.Errorf("runtime stage lacks %q", want)
		}
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Errorf("USER = %q, want a non-root user", user)
	}
	var ep []string
	if err := json.Unmarshal([]byte(entrypoint), &ep); err != nil || !reflect.DeepEqual(ep, []string{"ocr"}) {
		t.Errorf(`ENTRYPOINT = %s, want ["ocr"]`, entrypoint)
	}
}

// TestDockerignoreKeepsSources: the build context must keep every Go file
// and everything in a package directory (embedded prompts, tools.json).
func TestDockerignoreKeepsSources(t *testing.T) {
	var patterns []string
	for _, l := range strings.Split(string(pkgRead(t, ".dockerignore")), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, strings.TrimPrefix(l, "/"))
		}
	}
	ignored := func(p string) bool {
		for ; p != "."; p = filepath.Dir(p) {
			for _, pat := range patterns {
				if ok, _ := filepath.Match(pat, p); ok {
					return true
				}
			}
		}
		return false
	}
	for _, p := range []string{"go.mod", "go.sum", "cmd/ocr/main.go", "internal/agent", "tools", "internal/rules"} {
		if ignored(p) {
			t.Errorf(".dockerignore drops %s, which the build needs", p)
		}
	}
	if !ignored(".git") {
		t.Error(".dockerignore should drop .git")
	}
}
