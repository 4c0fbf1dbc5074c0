package sarif

// The SARIF 2.1.0 objects ocr writes, with only the properties it sets.
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
//
// Fields are declared in the alphabetical order of their JSON names, so the
// log's keys come out sorted, as they did when the log was re-encoded
// through maps: logs stay byte-identical across versions (golden files,
// users' diffs). omitempty marks what SARIF lets us leave out; an absent
// index is left out, never written as -1 (the SARIF multitool's SARIF2004),
// and "results" and "rules" stay even when empty: results marks the run as a
// scan, and GitHub requires rules (GH1018).

// schemaURI is the log's $schema.
const schemaURI = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/main/sarif-2.1/schema/sarif-schema-2.1.0.json"

// Result levels (§3.27.10).
const (
	levelError   = "error"
	levelWarning = "warning"
	levelNote    = "note"
)

// logFile is the sarifLog object (§3.13).
type logFile struct {
	Schema  string `json:"$schema"`
	Runs    []run  `json:"runs"`
	Version string `json:"version"`
}

// run is one run of the tool (§3.14).
type run struct {
	AutomationDetails        automationDetails `json:"automationDetails"`
	Invocations              []invocation      `json:"invocations"`
	Language                 string            `json:"language"`
	NewlineSequences         []string          `json:"newlineSequences"`
	Results                  []result          `json:"results"`
	Tool                     tool              `json:"tool"`
	VersionControlProvenance []vcsDetails      `json:"versionControlProvenance,omitempty"`
}

// automationDetails is a runAutomationDetails object (§3.17).
type automationDetails struct {
	ID string `json:"id"`
}

// tool holds the driver (§3.18).
type tool struct {
	Driver driver `json:"driver"`
}

// driver is the toolComponent that ran (§3.19).
type driver struct {
	Contents        []string   `json:"contents"`
	InformationURI  string     `json:"informationUri"`
	IsComprehensive bool       `json:"isComprehensive"`
	Language        string     `json:"language"`
	Name            string     `json:"name"`
	Rules           []ruleDesc `json:"rules"`
	SemanticVersion string     `json:"semanticVersion"`
	Version         string     `json:"version"`
}

// ruleDesc is a reportingDescriptor for one ruleId (§3.49).
type ruleDesc struct {
	DefaultConfiguration ruleConfig     `json:"defaultConfiguration"`
	FullDescription      message        `json:"fullDescription"`
	Help                 help           `json:"help"`
	HelpURI              string         `json:"helpUri"`
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	Properties           ruleProperties `json:"properties"`
	ShortDescription     message        `json:"shortDescription"`
}

// ruleConfig is a reportingConfiguration (§3.50).
type ruleConfig struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

// help is a multiformatMessageString (§3.12).
type help struct {
	Markdown string `json:"markdown"`
	Text     string `json:"text"`
}

// ruleProperties is a rule's property bag (§3.8); GitHub reads precision,
// security-severity and tags.
// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#reportingdescriptor-object
type ruleProperties struct {
	Precision        string   `json:"precision"`
	SecuritySeverity *string  `json:"security-severity,omitempty"`
	Tags             []string `json:"tags,omitempty"`
}

// message is a message object with plain text (§3.11).
type message struct {
	Text string `json:"text"`
}

// vcsDetails is a versionControlDetails object (§3.23).
type vcsDetails struct {
	MappedTo      baseLocation `json:"mappedTo"`
	RepositoryURI string       `json:"repositoryUri"`
	RevisionID    string       `json:"revisionId"`
}

// baseLocation is an artifactLocation naming only a uriBaseId (§3.4.4).
type baseLocation struct {
	URIBaseID string `json:"uriBaseId"`
}

// invocation records how the run went (§3.20).
type invocation struct {
	EndTimeUTC                 string         `json:"endTimeUtc,omitempty"`
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	StartTimeUTC               string         `json:"startTimeUtc,omitempty"`
	ToolExecutionNotifications []notification `json:"toolExecutionNotifications,omitempty"`
}

// notification is a message about the run itself (§3.58).
type notification struct {
	Level     string     `json:"level"`
	Locations []location `json:"locations,omitempty"`
	Message   message    `json:"message"`
}

// result is one finding (§3.27).
type result struct {
	Fixes               []fix             `json:"fixes,omitempty"`
	Kind                string            `json:"kind"`
	Level               string            `json:"level"`
	Locations           []location        `json:"locations"`
	Message             message           `json:"message"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          resultProperties  `json:"properties"`
	Rank                *float64          `json:"rank,omitempty"`
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Suppressions        []suppression     `json:"suppressions,omitempty"`
}

// resultProperties is a result's property bag (§3.8).
type resultProperties struct {
	Anchor   string `json:"anchor,omitempty"`
	Category string `json:"category"`
	Severity string `json:"severity"`
	Votes    string `json:"votes,omitempty"`
}

// location is a location with a physical location (§3.28).
type location struct {
	PhysicalLocation physicalLocation `json:"physicalLocation"`
}

// physicalLocation is a file and, for results, a region of it (§3.29).
type physicalLocation struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Region           *region          `json:"region,omitempty"`
}

// artifactLocation is a URI relative to a uriBaseId (§3.4).
type artifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// region is a range of whole lines (§3.30); endLine defaults to startLine.
type region struct {
	EndLine   *int `json:"endLine,omitempty"`
	StartLine int  `json:"startLine"`
}

// suppression records that someone ignored the finding (§3.35).
type suppression struct {
	Justification string       `json:"justification"`
	Kind          string       `json:"kind"`
	Properties    suppressedBy `json:"properties"`
	Status        string       `json:"status"`
}

// suppressedBy is a suppression's property bag: who ignored the finding.
type suppressedBy struct {
	By string `json:"by"`
}

// fix is a proposed change (§3.55).
type fix struct {
	ArtifactChanges []artifactChange `json:"artifactChanges"`
	Description     message          `json:"description"`
}

// artifactChange is the change to one file (§3.56).
type artifactChange struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Replacements     []replacement    `json:"replacements"`
}

// replacement replaces a region with new text (§3.57).
type replacement struct {
	DeletedRegion   region          `json:"deletedRegion"`
	InsertedContent artifactContent `json:"insertedContent"`
}

// artifactContent is text to insert (§3.3).
type artifactContent struct {
	Text string `json:"text"`
}
