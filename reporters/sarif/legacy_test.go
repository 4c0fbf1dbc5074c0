package sarif

// The log as ocr wrote it up to this change: built with go-sarif v3's
// structs, encoded, decoded into maps to prune go-sarif's unset sentinels
// (-1) and empty lists, and encoded again. It is kept, for tests only, as
// the oracle that the one-pass encoder writes the same bytes
// (TestSARIFMatchesLegacy) and as the baseline of BenchmarkSARIFLegacy.
// Delete this file (and go-sarif from go.mod) once neither is wanted.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// LegacyLog is Log through the pre-change encoder (the "before" of the
// benchmark and the oracle of the byte-identity test).
func (s *Reporter) LegacyLog(r *review.Review) ([]byte, error) { return s.fit(r, s.legacyEncode) }

// legacyEncode builds and marshals one run with the given results; cut counts the
// results left out to respect the limits.
func (s *Reporter) legacyEncode(r *review.Review, comments []review.Comment, cut int) ([]byte, error) {
	run := sarif.NewRunWithInformationURI(ToolName(r), informationURI)
	v := semanticVersion(r.Version)
	driver := run.Tool.Driver.WithVersion(v).WithSemanticVersion(v)
	if s.RepositoryURI != "" && r.Head != "" {
		vcs := sarif.NewVersionControlDetails().WithRepositoryURI(s.RepositoryURI).WithRevisionID(r.Head).
			WithMappedTo(sarif.NewArtifactLocation().WithURIBaseID(srcRoot))
		run.VersionControlProvenance = []*sarif.VersionControlDetails{vcs}
	}
	rules, index := legacyRules(comments, r.Rules)
	driver.Rules = rules
	fps := map[string]int{}
	for _, c := range comments {
		run.AddResult(legacyResult(c, index[reporters.RuleID(c)], reporters.UniqueFingerprint(fps, c)))
	}
	run.AutomationDetails = sarif.NewRunAutomationDetails().WithID(automationID(s.Category))
	run.Invocations = []*sarif.Invocation{legacyInvocation(r, cut)}
	log := sarif.NewReport()
	log.AddRun(run)
	data, err := reporters.MarshalIndent(log)
	if err != nil {
		return nil, fmt.Errorf("could not encode the SARIF report: %w", err)
	}
	return legacyPrune(data)
}

// legacyResult converts one comment.
func legacyResult(c review.Comment, ruleIndex int, fingerprint string) *sarif.Result {
	res := sarif.NewResult()
	id := reporters.RuleID(c)
	res.RuleID = &id
	res.RuleIndex = ruleIndex
	res.Level = legacyLevel(c.Severity)
	res.Message = sarif.NewTextMessage(sarifMessage(c))
	res.Locations = []*sarif.Location{legacyLocation(c)}
	res.PartialFingerprints = map[string]string{fingerprintKey: fingerprint}
	props := sarif.NewPropertyBag()
	props.Add("category", string(c.Category)).Add("severity", string(c.Severity))
	if c.Method != "" {
		props.Add("anchor", string(c.Method))
	}
	if c.Votes != nil {
		// rank (§3.27.24): 0.0-100.0, the share of the passes that found it.
		res.Rank = math.Round(c.Votes.Share()*1000) / 10
		props.Add("votes", c.Votes.String())
	}
	res.Properties = props
	res.Suppressions = legacySuppressions(c)
	if fix := legacyFix(c); fix != nil {
		res.Fixes = []*sarif.Fix{fix}
	}
	return res
}

// legacyLocation places the comment on the head version of the file; see
// SARIF's doc comment for file-level and old-side findings.
func legacyLocation(c review.Comment) *sarif.Location {
	region := sarif.NewRegion().WithStartLine(1)
	if !c.FileLevel() && c.Side != review.SideOld {
		region.WithStartLine(max(c.StartLine, 1))
		if c.EndLine > c.StartLine {
			region.WithEndLine(c.EndLine)
		}

	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(legacyArtifactLocation(c.Path)).WithRegion(region)
	return sarif.NewLocation().WithPhysicalLocation(phys)
}

// legacyArtifactLocation is a repository-relative, percent-encoded URI.
func legacyArtifactLocation(path string) *sarif.ArtifactLocation {
	return sarif.NewArtifactLocation().WithURI(RelativeURI(path)).WithURIBaseID(srcRoot)
}

// legacyFix proposes the suggestion as a replacement of whole lines, only
// when its range is exact: new side, inside one hunk.
func legacyFix(c review.Comment) *sarif.Fix {
	if c.Suggestion == "" || c.Side != review.SideNew || !c.InHunk || c.FileLevel() {
		return nil
	}
	region := sarif.NewRegion().WithStartLine(c.StartLine).WithEndLine(max(c.EndLine, c.StartLine))
	// A region without columns ends before the last line's newline.
	inserted := sarif.NewArtifactContent().WithText(strings.TrimSuffix(c.Suggestion, "\n"))
	rep := sarif.NewReplacement().WithDeletedRegion(region).WithInsertedContent(inserted)
	change := sarif.NewArtifactChange().WithArtifactLocation(legacyArtifactLocation(c.Path))
	change.Replacements = []*sarif.Replacement{rep}
	fix := sarif.NewFix().WithDescription(sarif.NewTextMessage("Apply the suggested change."))
	fix.ArtifactChanges = []*sarif.ArtifactChange{change}
	return fix
}

// legacyInvocation records whether the review completed, which files were
// not reviewed and why, run errors, and results cut by the limits.
func legacyInvocation(r *review.Review, cut int) *sarif.Invocation {
	inv := sarif.NewInvocation()
	ok := r.Status == review.StatusComplete
	inv.ExecutionSuccessful = &ok
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		start, end := r.Started.UTC().Format(time.RFC3339), r.Finished.UTC().Format(time.RFC3339)
		inv.StartTimeUtc, inv.EndTimeUtc = &start, &end
	}
	var notes []*sarif.Notification
	for _, e := range r.Errors {
		notes = append(notes, legacyNotification(sarif.LevelError, ensurePeriod(e)))
	}
	for _, f := range r.Files {
		if !f.Reviewed {
			notes = append(notes, legacyFileNotification(f))
		}
	}
	if cut > 0 {
		notes = append(notes, legacyNotification(sarif.LevelWarning, fmt.Sprintf(
			"%d least severe result(s) were left out to stay within GitHub's limits (%d results, %d MB gzipped); the JSON report and the step summary list them.",
			cut, sarifMaxResults, sarifMaxGzipBytes>>20)))
	}
	if r.Dropped > 0 {
		notes = append(notes, legacyNotification(sarif.LevelNote, fmt.Sprintf(
			"%d comment(s) over the configured caps were dropped before reporting.", r.Dropped)))
	}
	inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notes...)
	return inv
}

func legacyNotification(level, text string) *sarif.Notification {
	n := sarif.NewNotification()
	n.Level = level
	n.Message = sarif.NewTextMessage(text)
	return n
}

// legacyFileNotification names a file that was not reviewed and why.
func legacyFileNotification(f review.FileCoverage) *sarif.Notification {
	level := sarif.LevelNote
	if failureReasons[string(f.Reason)] {
		level = sarif.LevelWarning
	}
	text := fmt.Sprintf("%s was not reviewed (reason: %s)", f.Path, cmp.Or(f.Reason, "unknown"))
	if f.Detail != "" {
		text += ": " + f.Detail
	}
	n := legacyNotification(level, ensurePeriod(text))
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(legacyArtifactLocation(f.Path))
	n.Locations = []*sarif.Location{sarif.NewLocation().WithPhysicalLocation(phys)}
	return n
}

// legacySuppressions marks a finding someone ignored (SARIF 2.1.0
// §3.27.23, §3.35): kind "external", as the ignore lives outside the
// code (the pull request's conversation, .ocr/rule.json), with who and
// why as the justification, escaped like the message. GitHub code
// scanning shows such a result as dismissed. nil when c is not suppressed.
func legacySuppressions(c review.Comment) []*sarif.Suppression {
	if c.Suppressed == nil {
		return nil
	}
	s := sarif.NewSuppression().WithKind("external").WithStatus("accepted").
		WithJustification(sarifEscape(c.Suppressed.String()))
	s.Properties = sarif.NewPropertyBag().Add("by", c.Suppressed.By)
	return []*sarif.Suppression{s}
}

// legacyLevel maps a severity to a SARIF result level.
func legacyLevel(s review.Severity) string {
	switch s {
	case review.SeverityCritical, review.SeverityHigh:
		return sarif.LevelError
	case review.SeverityMedium:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// legacyRules builds one reporting descriptor per distinct ruleId used by
// the comments, sorted by id, and the index of each id.
func legacyRules(cs []review.Comment, catalogue []review.Rule) ([]*sarif.ReportingDescriptor, map[string]int) {
	byID := map[string]review.Rule{}
	for _, r := range catalogue {
		byID[r.ID] = r
	}
	seen := map[string]review.Comment{}
	for _, c := range cs {
		if _, ok := seen[reporters.RuleID(c)]; !ok {
			seen[reporters.RuleID(c)] = c
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rules := make([]*sarif.ReportingDescriptor, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		rules[i] = legacyRule(id, seen[id], byID[seen[id].RuleID])
		index[id] = i
	}
	return rules, index
}

// legacyRule describes one ruleId from its catalogue rule and category.
func legacyRule(id string, c review.Comment, rule review.Rule) *sarif.ReportingDescriptor {
	cat := review.ParseCategory(string(c.Category))
	info := categoryInfos[cat]
	title := rule.Title
	if title == "" {
		title = "ocr review"
	}
	d := sarif.NewRule(id).
		WithName(ruleName(id)).
		WithHelpURI(informationURI).
		WithShortDescription(sarif.NewMultiformatMessageString().WithText(title + ": " + strings.ToLower(info.title) + " finding")).
		WithFullDescription(sarif.NewMultiformatMessageString().WithText(fullDescription(rule, info))).
		WithHelp(sarif.NewMultiformatMessageString().WithText(helpText(rule, info)).WithMarkdown(helpMarkdown(rule, info)))
	props := sarif.NewPropertyBag()
	props.Tags = ruleTags(rule, cat)
	props.Add("precision", "medium")
	cfg := sarif.NewReportingConfiguration()
	if cat == review.CategorySecurity {
		sev := review.ParseSeverity(string(c.Severity))
		props.Add("security-severity", securitySeverity[sev])
		cfg.Level = legacyLevel(sev)
	}
	d.DefaultConfiguration = cfg
	d.Properties = props
	return d
}

// go-sarif's structs serialise every unset index as -1 and every empty list
// as [], which the SARIF multitool flags (SARIF2004, "unset index
// sentinel") and which bloats logs towards GitHub's size limit. legacyPrune
// removes both, and empty objects, from the encoded log, keeping the arrays SARIF consumers
// expect even when empty.

// legacySentinels are the properties whose -1 means "unset" (SARIF §3.7.4 etc.).
var legacySentinels = map[string]bool{
	"index": true, "parentIndex": true, "length": true, "byteOffset": true,
	"charOffset": true, "id": true, "rank": true, "ruleIndex": true,
}

// legacyKeepEmpty are arrays that stay even when empty: results marks a run
// as a scan, rules is required by GitHub (GH1018).
var legacyKeepEmpty = map[string]bool{"results": true, "rules": true}

// legacyPrune rewrites an encoded log without unset sentinels and empty lists.
func legacyPrune(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("could not re-read the SARIF report: %w", err)
	}
	return reporters.MarshalIndent(legacyPruneValue(v))
}

func legacyPruneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if n, ok := val.(json.Number); ok && n == "-1" && legacySentinels[k] {
				delete(x, k)
				continue
			}
			if a, ok := val.([]any); ok && len(a) == 0 && !legacyKeepEmpty[k] {
				delete(x, k)
				continue
			}
			if m, ok := val.(map[string]any); ok && len(m) == 0 {
				delete(x, k)
				continue
			}
			x[k] = legacyPruneValue(val)
		}
	case []any:
		for i := range x {
			x[i] = legacyPruneValue(x[i])
		}
	}
	return v
}
