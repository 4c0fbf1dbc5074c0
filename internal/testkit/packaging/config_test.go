package packaging

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root(), path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// dockerfile returns the Dockerfile's instructions, continuation lines
// joined, comments dropped.
func dockerfile(t *testing.T) [][2]string {
	var out [][2]string
	var cur string
	for _, line := range strings.Split(string(read(t, "Dockerfile")), "\n") {
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

// TestDockerfile: one stage on a Debian slim base (overridable, so
// .ci/extra can use a debootstrap one), the release binary copied as
// goreleaser lays it out, nothing compiled, git with safe.directory, a
// non-root user with its own HOME.
func TestDockerfile(t *testing.T) {
	var froms, runs, copies, envs []string
	var args []string
	var user, entrypoint string
	for _, ins := range dockerfile(t) {
		switch ins[0] {
		case "ARG":
			args = append(args, ins[1])
		case "FROM":
			froms = append(froms, ins[1])
		case "RUN":
			runs = append(runs, ins[1])
		case "COPY":
			copies = append(copies, ins[1])
		case "ENV":
			envs = append(envs, ins[1])
		case "USER":
			user = ins[1]
		case "ENTRYPOINT":
			entrypoint = ins[1]
		}
	}
	if !reflect.DeepEqual(froms, []string{"${BASE}"}) || len(args) == 0 || !regexp.MustCompile(`^BASE=debian:[a-z]+-slim(@sha256:[0-9a-f]{64})?$`).MatchString(args[0]) {
		t.Errorf("ARG %q, FROM %q: want ARG BASE=debian:<release>-slim first and one stage FROM ${BASE}", args, froms)
	}
	if !slices.Contains(args, "TARGETPLATFORM") || !reflect.DeepEqual(copies, []string{"$TARGETPLATFORM/ocr /usr/local/bin/ocr"}) {
		t.Errorf("COPY %q: want the release binary $TARGETPLATFORM/ocr (goreleaser's dockers_v2 context)", copies)
	}
	all := strings.Join(runs, "\n")
	if strings.Contains(all, "go build") || strings.Contains(all, "golang") {
		t.Error("the image compiles ocr again; it must copy the release binary")
	}
	for _, want := range []string{"apt-get install -y --no-install-recommends git ca-certificates", "rm -rf /var/lib/apt/lists/*",
		"git config --system --add safe.directory '*'", "< 30", "useradd --uid 1001"} {
		if !strings.Contains(all, want) {
			t.Errorf("RUN lacks %q", want)
		}
	}
	if user != "1001:1001" || !slices.Contains(envs, "HOME=/home/ocr") || !strings.Contains(all, "--home-dir /home/ocr") {
		t.Errorf("USER %q, ENV %q: want the non-root user 1001 with HOME=/home/ocr", user, envs)
	}
	var ep []string
	if err := json.Unmarshal([]byte(entrypoint), &ep); err != nil || !reflect.DeepEqual(ep, []string{"ocr"}) {
		t.Errorf(`ENTRYPOINT = %s, want ["ocr"]`, entrypoint)
	}
}

// TestDockerignore: a local build context keeps the release binaries only.
func TestDockerignore(t *testing.T) {
	var patterns []string
	for _, l := range strings.Split(string(read(t, ".dockerignore")), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	ignored := func(p string) bool { // the last matching pattern wins
		out := false
		for _, pat := range patterns {
			neg := strings.HasPrefix(pat, "!")
			if ok, _ := filepath.Match(strings.TrimPrefix(pat, "!"), p); ok {
				out = !neg
			}
		}
		return out
	}
	for _, p := range []string{"linux/amd64/ocr", "linux/arm64/ocr"} {
		if ignored(p) {
			t.Errorf(".dockerignore drops %s, which the image copies", p)
		}
	}
	for _, p := range []string{".git", "go.mod", "cmd"} {
		if !ignored(p) {
			t.Errorf(".dockerignore sends %s to the builder; the image needs the binaries only", p)
		}
	}
}

type goreleaser struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		NameTemplate    string   `yaml:"name_template"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	SBOMs []struct {
		Artifacts string `yaml:"artifacts"`
	} `yaml:"sboms"`
	Signs []struct {
		Cmd       string   `yaml:"cmd"`
		Artifacts string   `yaml:"artifacts"`
		Args      []string `yaml:"args"`
	} `yaml:"signs"`
	DockerSigns []struct {
		Cmd       string   `yaml:"cmd"`
		Artifacts string   `yaml:"artifacts"`
		Args      []string `yaml:"args"`
	} `yaml:"docker_signs"`
	DockersV2 []struct {
		Dockerfile string            `yaml:"dockerfile"`
		Images     []string          `yaml:"images"`
		Tags       []string          `yaml:"tags"`
		Platforms  []string          `yaml:"platforms"`
		Labels     map[string]string `yaml:"labels"`
		SBOM       bool              `yaml:"sbom"`
		Flags      []string          `yaml:"flags"`
	} `yaml:"dockers_v2"`
}

// TestGoreleaserConfig: what the issue asks of a release, and the names
// action/install.sh downloads. `goreleaser check` (in .ci/extra) checks
// the schema; this checks the intent.
func TestGoreleaserConfig(t *testing.T) {
	var g goreleaser
	if err := yaml.Unmarshal(read(t, ".goreleaser.yaml"), &g); err != nil {
		t.Fatal(err)
	}
	if g.Version != 2 || len(g.Builds) != 1 || len(g.Archives) != 1 || len(g.DockersV2) != 1 {
		t.Fatalf("want goreleaser v2 config with one build, one archive, one image: %+v", g)
	}
	b := g.Builds[0]
	if b.Main != "./cmd/ocr" || b.Binary != "ocr" || !slices.Contains(b.Env, "CGO_ENABLED=0") ||
		!reflect.DeepEqual(b.Goos, []string{"linux", "darwin", "windows"}) || !reflect.DeepEqual(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build %+v: want a static ./cmd/ocr for linux, darwin, windows × amd64, arm64", b)
	}
	if !strings.Contains(strings.Join(b.Ldflags, " "), "-X github.com/ocr-ci/ocr/runner.Version={{ .Version }}") {
		t.Errorf("ldflags %q do not stamp runner.Version", b.Ldflags)
	}
	a := g.Archives[0]
	// action/install.sh: ocr_${version#v}_${os}_${arch}.tar.gz, .zip on Windows.
	if a.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" || !reflect.DeepEqual(a.Formats, []string{"tar.gz"}) ||
		len(a.FormatOverrides) != 1 || a.FormatOverrides[0].Goos != "windows" || !reflect.DeepEqual(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("archives %+v: action/install.sh expects ocr_<version>_<os>_<arch>.tar.gz and .zip on Windows", a)
	}
	if !strings.Contains(string(read(t, "action/install.sh")), `asset="ocr_${version#v}_${os}_${arch}.${ext}"`) {
		t.Error("action/install.sh no longer builds the asset name this test compares with the archives' name_template")
	}
	if g.Checksum.NameTemplate != "checksums.txt" || g.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v: action/install.sh downloads a SHA-256 checksums.txt", g.Checksum)
	}
	if len(g.SBOMs) != 1 || g.SBOMs[0].Artifacts != "archive" {
		t.Errorf("sboms %+v: want one SBOM per archive", g.SBOMs)
	}
	if len(g.Signs) != 1 || g.Signs[0].Cmd != "cosign" || g.Signs[0].Artifacts != "checksum" || !slices.Contains(g.Signs[0].Args, "sign-blob") ||
		slices.ContainsFunc(g.Signs[0].Args, func(s string) bool { return strings.Contains(s, "--key") }) {
		t.Errorf("signs %+v: want a keyless cosign sign-blob of the checksums", g.Signs)
	}
	if len(g.DockerSigns) != 1 || g.DockerSigns[0].Cmd != "cosign" || g.DockerSigns[0].Artifacts != "images" {
		t.Errorf("docker_signs %+v: want cosign signing the image", g.DockerSigns)
	}
	d := g.DockersV2[0]
	if d.Dockerfile != "Dockerfile" || !reflect.DeepEqual(d.Images, []string{"ghcr.io/ocr-ci/ocr"}) ||
		!reflect.DeepEqual(d.Platforms, []string{"linux/amd64", "linux/arm64"}) || len(d.Tags) != 2 ||
		d.Tags[0] != "v{{ .Version }}" || !strings.Contains(d.Tags[1], "v{{ .Major }}") {
		t.Errorf("dockers_v2 %+v: want ghcr.io/ocr-ci/ocr:vX.Y.Z and :vX for linux/amd64 and arm64 from ./Dockerfile", d)
	}
	for _, l := range []string{"title", "description", "source", "version", "revision", "created"} {
		if d.Labels["org.opencontainers.image."+l] == "" {
			t.Errorf("the image lacks the OCI label org.opencontainers.image.%s", l)
		}
	}
	if !d.SBOM || !slices.Contains(d.Flags, "--provenance=mode=max") {
		t.Errorf("image sbom %v flags %q: want SBOM and provenance attestations", d.SBOM, d.Flags)
	}
}

// TestPinnedToolVersions: the release workflow and .ci/extra use the same
// goreleaser.
func TestPinnedToolVersions(t *testing.T) {
	rel := regexp.MustCompile(`(?m)^\s+version: (v2\.\d+\.\d+)`).FindSubmatch(read(t, ".github/workflows/release.yml"))
	extra := regexp.MustCompile(`GORELEASER_VERSION:-(v2\.\d+\.\d+)`).FindSubmatch(read(t, ".ci/extra"))
	if rel == nil || extra == nil || string(rel[1]) != string(extra[1]) {
		t.Errorf("goreleaser: release.yml pins %q, .ci/extra %q: want one pinned version", rel, extra)
	}
}

// TestWorkflows: every workflow starts from read-only permissions; write
// scopes are granted per job. (Pinning: TestActionsPinnedBySHA.)
func TestWorkflows(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(root(), ".github", "workflows", "*.yml"))
	if len(files) != 3 {
		t.Errorf("workflows %q: want ci.yml, release.yml, dogfood.yml", files)
	}
	for _, f := range files {
		var wf struct {
			Permissions map[string]string `yaml:"permissions"`
		}
		data, _ := os.ReadFile(f)
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(wf.Permissions) == 0 {
			t.Errorf("%s: no top-level permissions", filepath.Base(f))
		}
		if filepath.Base(f) != "dogfood.yml" && !reflect.DeepEqual(wf.Permissions, map[string]string{"contents": "read"}) {
			t.Errorf("%s: top-level permissions %v, want contents: read (jobs add what they need)", filepath.Base(f), wf.Permissions)
		}
	}
	var action struct {
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Uses  string `yaml:"uses"`
				Shell string `yaml:"shell"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(read(t, "action.yml"), &action); err != nil {
		t.Fatal(err)
	}
	for _, s := range action.Runs.Steps {
		// bash exists on Linux, macOS and Windows runners (Git Bash); sh,
		// pwsh or cmd would not run the same script everywhere.
		if s.Uses == "" && s.Shell != "bash" {
			t.Errorf("action.yml: a run step with shell %q, want bash", s.Shell)
		}
	}
}
