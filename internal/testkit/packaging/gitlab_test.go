package packaging

import (
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// imageRef is the image reference grammar of the OCI distribution spec
// (github.com/distribution/reference): [domain[:port]/]path[:tag][@digest].
var imageRef = regexp.MustCompile(`^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*` +
	`(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::\w[\w.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$`)

// gitlabImage returns the component's version regex and the image the job
// runs with the given version input (the other inputs at their defaults).
func gitlabImage(t *testing.T, version string) (*regexp.Regexp, string) {
	t.Helper()
	head, body, ok := strings.Cut(string(read(t, "gitlab/templates/review.yml")), "\n---\n")
	if !ok {
		t.Fatal("gitlab/templates/review.yml: want the spec and the jobs, separated by ---")
	}
	var spec struct {
		Spec struct {
			Inputs map[string]struct {
				Default any    `yaml:"default"`
				Regex   string `yaml:"regex"`
			} `yaml:"inputs"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal([]byte(head), &spec); err != nil {
		t.Fatal(err)
	}
	body = regexp.MustCompile(`\$\[\[ inputs\.([a-z0-9-]+) \]\]`).ReplaceAllStringFunc(body, func(m string) string {
		name := m[len("$[[ inputs.") : len(m)-len(" ]]")]
		if name == "version" {
			return version
		}
		s, _ := spec.Spec.Inputs[name].Default.(string)
		return s
	})
	var jobs map[string]struct {
		Image struct {
			Name string `yaml:"name"`
		} `yaml:"image"`
	}
	if err := yaml.Unmarshal([]byte(body), &jobs); err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(spec.Spec.Inputs["version"].Regex), jobs["ocr-review"].Image.Name
}

// TestGitLabImageDigest: a tag can be moved to another image; a digest
// cannot. The component's version input takes a release tag with the
// image's digest, and the job then runs ghcr.io/ocr-ci/ocr:vX.Y.Z@sha256:…,
// which registries and runners pull by the digest.
func TestGitLabImageDigest(t *testing.T) {
	digest := "sha256:" + strings.Repeat("0123456789abcdef", 4)
	re, name := gitlabImage(t, "v1.2.3@"+digest)
	if name != "ghcr.io/ocr-ci/ocr:v1.2.3@"+digest || !imageRef.MatchString(name) {
		t.Errorf("image %q, want ghcr.io/ocr-ci/ocr:v1.2.3@%s, a valid image reference", name, digest)
	}
	for _, v := range []string{"v1.2.3@" + digest, "v1@" + digest, "v2.0.0-rc.1@" + digest, "v1.2.3", "v1"} {
		if !re.MatchString(v) {
			t.Errorf("the version input refuses %q", v)
		}
	}
	for _, v := range []string{"v1.2.3@" + digest[:70], "v1.2.3@" + strings.ToUpper(digest), "v1.2.3@sha512:" + digest[7:],
		"@" + digest, digest, "v1.2.3@" + digest[7:], "v1.2.3@" + digest + "x", "latest@" + digest} {
		if re.MatchString(v) {
			t.Errorf("the version input accepts %q, which is no release tag with an image digest", v)
		}
	}
}
