package ci

import (
	"fmt"

	"github.com/kelseyhightower/envconfig"
)

// GitHubEnv is what GitHub Actions tells a step through its environment.
// https://docs.github.com/actions/learn-github-actions/variables#default-environment-variables
type GitHubEnv struct {
	Actions     bool   `envconfig:"GITHUB_ACTIONS"`
	EventName   string `envconfig:"GITHUB_EVENT_NAME"`
	EventPath   string `envconfig:"GITHUB_EVENT_PATH"`
	Repository  string `envconfig:"GITHUB_REPOSITORY"`
	APIURL      string `envconfig:"GITHUB_API_URL" default:"https://api.github.com"`
	ServerURL   string `envconfig:"GITHUB_SERVER_URL" default:"https://github.com"`
	Workspace   string `envconfig:"GITHUB_WORKSPACE"`
	SHA         string `envconfig:"GITHUB_SHA"`
	StepSummary string `envconfig:"GITHUB_STEP_SUMMARY"`
	Output      string `envconfig:"GITHUB_OUTPUT"`
	RunnerTemp  string `envconfig:"RUNNER_TEMP"`
	// Token is OCR_GITHUB_TOKEN, else GITHUB_TOKEN.
	Token         string `envconfig:"OCR_GITHUB_TOKEN"`
	TokenFallback string `envconfig:"GITHUB_TOKEN"`
}

// GitLabEnv is what GitLab CI tells a job through its environment.
// https://docs.gitlab.com/ci/variables/predefined_variables/
type GitLabEnv struct {
	CI              bool   `envconfig:"GITLAB_CI"`
	PipelineSource  string `envconfig:"CI_PIPELINE_SOURCE"`
	MRIID           int    `envconfig:"CI_MERGE_REQUEST_IID"`
	MRProjectID     string `envconfig:"CI_MERGE_REQUEST_PROJECT_ID"`
	MREventType     string `envconfig:"CI_MERGE_REQUEST_EVENT_TYPE"`
	DiffBaseSHA     string `envconfig:"CI_MERGE_REQUEST_DIFF_BASE_SHA"`
	SourceBranchSHA string `envconfig:"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"`
	TargetBranch    string `envconfig:"CI_MERGE_REQUEST_TARGET_BRANCH_NAME"`
	CommitSHA       string `envconfig:"CI_COMMIT_SHA"`
	BeforeSHA       string `envconfig:"CI_COMMIT_BEFORE_SHA"`
	DefaultBranch   string `envconfig:"CI_DEFAULT_BRANCH"`
	ProjectID       string `envconfig:"CI_PROJECT_ID"`
	ProjectDir      string `envconfig:"CI_PROJECT_DIR"`
	APIURL          string `envconfig:"CI_API_V4_URL"`
	ServerURL       string `envconfig:"CI_SERVER_URL"`
	ProjectURL      string `envconfig:"CI_PROJECT_URL"`
	CAFile          string `envconfig:"CI_SERVER_TLS_CA_FILE"`
	// Token is OCR_GITLAB_TOKEN, else GITLAB_TOKEN; CI_JOB_TOKEN cannot post notes.
	Token         string `envconfig:"OCR_GITLAB_TOKEN"`
	TokenFallback string `envconfig:"GITLAB_TOKEN"`
	JobToken      string `envconfig:"CI_JOB_TOKEN"`
}

// TermEnv is what the terminal conventions say.
type TermEnv struct {
	// NoColor disables colour when set to anything (https://no-color.org).
	NoColor string `envconfig:"NO_COLOR"`
}

// Env is the CI environment, read once. Tests build it directly.
type Env struct {
	GitHub GitHubEnv
	GitLab GitLabEnv
	Term   TermEnv
}

// Load reads the CI variables.
func Load() (Env, error) {
	var e Env
	if err := envconfig.Process("", &e.GitHub); err != nil {
		return e, fmt.Errorf("could not read the GitHub Actions environment: %w", err)
	}
	if err := envconfig.Process("", &e.GitLab); err != nil {
		return e, fmt.Errorf("could not read the GitLab CI environment: %w", err)
	}
	if err := envconfig.Process("", &e.Term); err != nil {
		return e, fmt.Errorf("could not read NO_COLOR: %w", err)
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
