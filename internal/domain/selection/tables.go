package selection

import (
	"path"
	"strings"
)

// secretNames are files whose content must never reach a model.
var secretNames = map[string]bool{
	"id_rsa": true, "id_dsa": true, "id_ecdsa": true, "id_ed25519": true,
	".netrc": true, "_netrc": true, ".npmrc": true, ".pypirc": true, ".dockercfg": true,
	".git-credentials": true, ".htpasswd": true, ".env": true, "credentials": true,
	".envrc": true, ".pgpass": true, ".vault-token": true, ".yarnrc.yml": true, ".yarnrc": true,
	".boto": true, ".s3cfg": true, ".my.cnf": true, ".dockerconfigjson": true, ".terraformrc": true,
	"terraform.rc": true, "credentials.json": true, "credentials.yaml": true, "credentials.yml": true,
	"credentials.xml": true, "client_secret.json": true, "service-account.json": true,
	"service_account.json": true, "serviceaccount.json": true, "secrets.json": true, "secrets.yaml": true,
	"secrets.yml": true, "secrets.toml": true, "secrets.env": true, "secret.yaml": true, "secret.yml": true,
	"secret.json": true, "kubeconfig": true, "keystore.properties": true, "local.properties": true,
}

// secretStems are name stems that mark a key or credentials file whatever
// their extension (id_rsa.bak, id_ed25519.old; not the .pub halves).
var secretStems = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// secretSuffixes are name endings of credentials files (gcp-key.json,
// prod-service-account.json, the gha-creds-*.json that google-github-actions/auth
// writes into the workspace).
var secretSuffixes = []string{"-key.json", "_key.json", ".key.json", "-credentials.json", "_credentials.json",
	"service-account.json", "service_account.json", "-sa.json", "-secrets.yaml", "-secrets.yml", "-secrets.json"}

// secretPaths are path endings of credentials files in known directories.
var secretPaths = []string{".kube/config", ".docker/config.json", ".aws/credentials", ".aws/config",
	".config/gcloud/application_default_credentials.json", ".azure/accesstokens.json", ".config/gh/hosts.yml",
	".terraform.d/credentials.tfrc.json", ".gnupg/"}

// secretExts are private-key and keystore extensions.
var secretExts = map[string]bool{".pem": true, ".key": true, ".p12": true, ".pfx": true, ".jks": true, ".keystore": true,
	".ppk": true, ".p8": true, ".pkcs12": true, ".jceks": true, ".bks": true, ".kdbx": true, ".tfvars": true,
	".tfstate": true, ".env": true, ".gpg": true, ".pgp": true, ".age": true, ".ovpn": true}

// envTemplates are .env variants that are documentation, not secrets.
var envTemplates = map[string]bool{"example": true, "sample": true, "template": true, "dist": true, "defaults": true}

// isSecretPath reports whether p names a credentials file.
func isSecretPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	lower := "/" + strings.ToLower(p)
	switch {
	case secretNames[base], strings.Contains(lower, "/.ssh/"), strings.HasPrefix(base, "gha-creds-"):
		return true
	case secretExts[path.Ext(base)]:
		// prod.env and .tfvars are secrets; example.env, x.tfvars.example are not.
		return !envTemplates[strings.TrimPrefix(strings.TrimSuffix(base, path.Ext(base)), ".")]
	}
	for _, suffix := range secretPaths {
		if strings.HasSuffix(lower, "/"+suffix) || strings.HasSuffix(suffix, "/") && strings.Contains(lower, "/"+suffix) {
			return true
		}
	}
	for _, suffix := range secretSuffixes {
		if strings.HasSuffix(base, suffix) {
			return true
		}
	}
	for _, stem := range secretStems {
		if strings.HasPrefix(base, stem) && !strings.HasSuffix(base, ".pub") {
			return true
		}
	}
	for _, prefix := range []string{".env.", ".envrc.", "secrets."} {
		if rest, ok := strings.CutPrefix(base, prefix); ok {
			for _, part := range strings.Split(rest, ".") {
				if envTemplates[part] {
					return false
				}
			}
			return true
		}
	}
	return false
}

// vendorDirs are directories of third-party code.
var vendorDirs = []string{"vendor", "node_modules", "third_party", "third-party", "thirdparty",
	"bower_components", "jspm_packages", "Pods", ".yarn", "Godeps"}

// isVendored reports whether a path component is a vendor directory.
func isVendored(p string) bool {
	parts := strings.Split(p, "/")
	for _, part := range parts[:len(parts)-1] {
		for _, d := range vendorDirs {
			if part == d {
				return true
			}
		}
	}
	return false
}

// lockfiles are dependency lock files: machine-written, reviewed by nobody.
var lockfiles = map[string]bool{
	"go.sum": true, "go.work.sum": true, "package-lock.json": true, "npm-shrinkwrap.json": true,
	"yarn.lock": true, "pnpm-lock.yaml": true, "bun.lockb": true, "bun.lock": true, "cargo.lock": true,
	"poetry.lock": true, "pipfile.lock": true, "uv.lock": true, "pdm.lock": true, "gemfile.lock": true,
	"composer.lock": true, "packages.lock.json": true, "paket.lock": true, "mix.lock": true,
	"pubspec.lock": true, "podfile.lock": true, "flake.lock": true, "gradle.lockfile": true,
	".terraform.lock.hcl": true, "package.resolved": true, "cartfile.resolved": true,
}

func isLockfile(p string) bool { return lockfiles[strings.ToLower(path.Base(p))] }

// generatedSuffixes are names that code generators produce.
var generatedSuffixes = []string{".pb.go", ".pb.gw.go", ".pb.cc", ".pb.h", "_pb2.py", "_pb2_grpc.py",
	".pb.swift", "_grpc.pb.go", ".gen.go", "_gen.go", "zz_generated.deepcopy.go", ".generated.cs",
	".designer.cs", ".g.dart", ".freezed.dart", "_string.go", ".pulsar.go"}

func isGeneratedName(p string) bool {
	base := strings.ToLower(path.Base(p))
	for _, s := range generatedSuffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return strings.Contains(base, ".generated.")
}

// sourceExts are the extensions worth a review (Open Code Review's list, plus a few).
var sourceExts = toSet(`java kt kts scala groovy py pyi js jsx ts tsx mjs cjs mts cts c h cpp cc cxx hpp hxx
	cs vb fs go rs rb rake gemspec php phtml swift m mm sh bash zsh fish ps1 sql css scss sass less html htm ftl
	ftlh ftlx hbs mustache pug astro vue ipynb svelte xml yaml yml json toml ini env gradle cmake r lua pl pm ex
	exs erl hrl ets json5 dart tf graphql gql prisma jl hcl tfvars bicep proto nix hs lhs nim nims nimble elm
	properties po pot jsonnet libsonnet zig thrift capnp ml mli re rei v sv vh vhd vhdl sol vy rego bzl bazel
	star mk cfg conf tpl j2 jinja tmpl dockerfile containerfile`)

// sourceNames are well-known files whose extension alone would exclude them.
var sourceNames = toSet(`go.mod go.work requirements.txt constraints.txt cmakelists.txt pipfile gemfile
	podfile brewfile procfile justfile`)

// nonSourceNames are extensionless or dot files that hold no code.
var nonSourceNames = toSet(`license licence copying notice authors contributors codeowners changelog
	.gitignore .gitattributes .gitmodules .mailmap .editorconfig .dockerignore .prettierignore .eslintignore
	.gitkeep .keep .nojekyll`)

// isSource reports whether p is text worth reviewing: a known extension, a
// known name, or no extension at all (Dockerfile, Makefile, scripts).
func isSource(p string) bool {
	base := strings.ToLower(path.Base(p))
	if sourceNames[base] || strings.HasPrefix(base, "dockerfile") || strings.HasPrefix(base, "containerfile") || strings.HasPrefix(base, ".env.") {
		return true
	}
	if nonSourceNames[base] {
		return false
	}
	ext := path.Ext(base)
	if ext == "" || ext == base {
		return true
	}
	return sourceExts[ext[1:]]
}

// testDirs are directories that hold tests or fixtures.
var testDirs = toSet(`__tests__ __snapshots__ __mocks__ testdata fixtures test tests spec specs e2e .ipynb_checkpoints`)

// isTestPath reports whether p is a test file by the conventions of its language.
func isTestPath(p string) bool {
	parts := strings.Split(p, "/")
	for _, d := range parts[:len(parts)-1] {
		if testDirs[strings.ToLower(d)] {
			return true
		}
	}
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	lower := strings.ToLower(stem)
	switch {
	case strings.HasSuffix(lower, "_test"), strings.HasSuffix(lower, ".test"), strings.HasSuffix(lower, ".spec"),
		strings.HasSuffix(lower, "_spec"), strings.HasPrefix(lower, "test_"), strings.HasSuffix(lower, ".t"),
		strings.HasSuffix(base, ".snap"):
		return true
	case strings.HasSuffix(stem, "Test"), strings.HasSuffix(stem, "Tests"), strings.HasSuffix(stem, "IT"):
		return len(stem) > 4 && path.Ext(base) != ".go"
	}
	return false
}

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
