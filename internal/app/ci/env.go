package ci

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/sethvargo/go-envconfig"
)

// GitHubEnv is what GitHub Actions tells a step through its environment.
// https://docs.github.com/actions/learn-github-actions/variables#default-environment-variables
type GitHubEnv struct {
	Actions     bool   `env:"GITHUB_ACTIONS"`
	EventName   string `env:"GITHUB_EVENT_NAME"`
	EventPath   string `env:"GITHUB_EVENT_PATH"`
	Repository  string `env:"GITHUB_REPOSITORY"`
	APIURL      string `env:"GITHUB_API_URL, default=https://api.github.com"`
	ServerURL   string `env:"GITHUB_SERVER_URL, default=https://github.com"`
	Workspace   string `env:"GITHUB_WORKSPACE"`
	SHA         string `env:"GITHUB_SHA"`
	StepSummary string `env:"GITHUB_STEP_SUMMARY"`
	Output      string `env:"GITHUB_OUTPUT"`
	RunnerTemp  string `env:"RUNNER_TEMP"`
	// Token is OCR_GITHUB_TOKEN, else GITHUB_TOKEN.
	Token         string `env:"OCR_GITHUB_TOKEN"`
	TokenFallback string `env:"GITHUB_TOKEN"`

	// GraphQLURL is the GraphQL endpoint (GitHub Enterprise Server sets
	// it); "" derives it from APIURL.
	GraphQLURL string `env:"GITHUB_GRAPHQL_URL"`
}

// GitLabEnv is what GitLab CI tells a job through its environment.
// https://docs.gitlab.com/ci/variables/predefined_variables/
type GitLabEnv struct {
	CI             bool   `env:"GITLAB_CI"`
	PipelineSource string `env:"CI_PIPELINE_SOURCE"`
	MRIID          int    `env:"CI_MERGE_REQUEST_IID"`
	MRProjectID    string `env:"CI_MERGE_REQUEST_PROJECT_ID"`
	// SourceProjectID differs from MRProjectID for a fork's merge request.
	SourceProjectID   string `env:"CI_MERGE_REQUEST_SOURCE_PROJECT_ID"`
	SourceProjectPath string `env:"CI_MERGE_REQUEST_SOURCE_PROJECT_PATH"`
	MREventType       string `env:"CI_MERGE_REQUEST_EVENT_TYPE"`
	DiffBaseSHA       string `env:"CI_MERGE_REQUEST_DIFF_BASE_SHA"`
	SourceBranchSHA   string `env:"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"`
	TargetBranch      string `env:"CI_MERGE_REQUEST_TARGET_BRANCH_NAME"`
	CommitSHA         string `env:"CI_COMMIT_SHA"`
	BeforeSHA         string `env:"CI_COMMIT_BEFORE_SHA"`
	DefaultBranch     string `env:"CI_DEFAULT_BRANCH"`
	ProjectID         string `env:"CI_PROJECT_ID"`
	ProjectDir        string `env:"CI_PROJECT_DIR"`
	APIURL            string `env:"CI_API_V4_URL"`
	ServerURL         string `env:"CI_SERVER_URL"`
	ProjectURL        string `env:"CI_PROJECT_URL"`
	CAFile            string `env:"CI_SERVER_TLS_CA_FILE"`
	// Token is OCR_GITLAB_TOKEN, else GITLAB_TOKEN; CI_JOB_TOKEN cannot post notes.
	Token         string `env:"OCR_GITLAB_TOKEN"`
	TokenFallback string `env:"GITLAB_TOKEN"`
	JobToken      string `env:"CI_JOB_TOKEN"`
	// TriggerPayload is the path of the webhook's JSON in a trigger
	// pipeline (a file-type variable): the note event of the conversation.
	TriggerPayload string `env:"TRIGGER_PAYLOAD"`
	// NodeIndex and NodeTotal are set in a job with `parallel: N` (from 1):
	// `ocr scan` reviews that shard.
	NodeIndex int `env:"CI_NODE_INDEX"`
	NodeTotal int `env:"CI_NODE_TOTAL"`
}

// TermEnv is what the terminal conventions say.
type TermEnv struct {
	// NoColor disables colour when set to anything (https://no-color.org).
	NoColor string `env:"NO_COLOR"`
}

// Env is the CI environment, read once. Tests build it directly.
type Env struct {
	GitHub GitHubEnv
	GitLab GitLabEnv
	Term   TermEnv
}

// Load reads the CI variables through lookup (os.LookupEnv in production,
// a map in tests).
func Load(lookup func(string) (string, bool)) (Env, error) {
	var e Env
	l := envconfig.LookuperFunc(lookup)
	for _, part := range []struct {
		what   string
		target any
	}{{"the GitHub Actions environment", &e.GitHub}, {"the GitLab CI environment", &e.GitLab}, {"NO_COLOR", &e.Term}} {
		if err := envconfig.ProcessWith(context.Background(), &envconfig.Config{Target: part.target, Lookuper: l}); err != nil {
			return e, fmt.Errorf("could not read %s: %w", part.what, err)
		}
	}
	if e.GitHub.Token == "" {
		e.GitHub.Token = e.GitHub.TokenFallback
	}
	if e.GitLab.Token == "" {
		e.GitLab.Token = e.GitLab.TokenFallback
	}
	e.GitHub.TokenFallback, e.GitLab.TokenFallback = "", ""
	return e, nil
}

// Keys lists every variable Load reads, for the documentation checks.
func Keys() []string {
	var keys []string
	for _, v := range []any{GitHubEnv{}, GitLabEnv{}, TermEnv{}} {
		t := reflect.TypeOf(v)
		for i := range t.NumField() {
			k, _, _ := strings.Cut(t.Field(i).Tag.Get("env"), ",")
			keys = append(keys, k)
		}
	}
	return keys
}
