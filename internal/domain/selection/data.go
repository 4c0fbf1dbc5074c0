package selection

import (
	"path"
	"strings"
)

// dataExts are extensions of data rather than code or configuration.
var dataExts = toSet(`json jsonl ndjson geojson yaml yml csv tsv psv snap`)

// fixtureDirs hold test data, whatever its extension.
var fixtureDirs = toSet(`testdata fixtures __fixtures__ __snapshots__`)

// configDataNames are JSON and YAML files that configure a build, a CI or a
// tool: configuration, not data.
var configDataNames = toSet(`package.json composer.json tsconfig.json jsconfig.json deno.json app.json
	angular.json vercel.json firebase.json renovate.json manifest.json project.json nx.json turbo.json lerna.json
	docker-compose.yml docker-compose.yaml compose.yml compose.yaml action.yml action.yaml chart.yaml
	pnpm-workspace.yaml mkdocs.yml serverless.yml serverless.yaml buildspec.yml cloudbuild.yaml cloudbuild.yml
	azure-pipelines.yml bitbucket-pipelines.yml appveyor.yml codecov.yml dependabot.yml openapi.yaml
	openapi.yml openapi.json swagger.yaml swagger.json`)

// configDataDirs are directories whose YAML and JSON files are CI or tool
// configuration.
var configDataDirs = []string{".github/", ".gitlab/", ".circleci/", ".buildkite/", ".devcontainer/", ".vscode/"}

// IsData reports whether p is a data file: JSON, YAML, CSV or a snapshot
// that configures nothing, or any file under a fixtures directory
// (testdata/, fixtures/, __snapshots__/). A scan leaves data files out
// (review.ReasonData) unless --include names them, and ranks them last.
func IsData(p string) bool {
	lower := strings.ToLower(p)
	parts := strings.Split(lower, "/")
	for _, d := range parts[:len(parts)-1] {
		if fixtureDirs[d] {
			return true
		}
	}
	base := parts[len(parts)-1]
	if !dataExts[strings.TrimPrefix(path.Ext(base), ".")] || configDataNames[base] || strings.HasPrefix(base, ".") ||
		strings.HasPrefix(base, "tsconfig.") || strings.HasPrefix(base, "docker-compose.") {
		return false
	}
	for _, d := range configDataDirs {
		if strings.HasPrefix(lower, d) || strings.Contains(lower, "/"+d) {
			return false
		}
	}
	return true
}
