// Package sarif writes the review as a SARIF 2.1.0 log for code scanning.
package sarif

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/reporters"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/ocr-ci/ocr/review"
)

// informationURI is where SARIF consumers learn about the tool.
const informationURI = "https://github.com/ocr-ci/ocr"

// GitHub code scanning limits per upload.
// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#validating-your-sarif-file
const (
	sarifMaxResults   = 25000
	sarifMaxGzipBytes = 10 << 20
)

// fingerprintKey names our partialFingerprints entry; bump the version when
// review.Fingerprint changes so GitHub does not match old and new alerts.
const fingerprintKey = "ocr/v1"

// Reporter writes the review as a SARIF 2.1.0 log for GitHub code scanning.
//
// Decisions (see also reporters.RuleID):
//   - URIs are repository-relative with uriBaseId %SRCROOT%.
//   - A file-level finding is placed on line 1 and its message says so.
//   - SARIF regions are on the file at head, and a finding about removed
//     lines (old side) has no line there: it is placed on line 1 of the
//     file (the new path of a rename) and its message names the removed
//     lines and the old path.
//   - partialFingerprints["ocr/v1"] is Comment.Fingerprint (path, category,
//     normalised anchored code), suffixed "/2", "/3" for repeats in one log.
//   - fixes are written only for new-side suggestions inside one hunk.
//   - Over GitHub's limits (25,000 results, 10 MB gzipped) the least severe
//     results are cut and a notification says how many.
type Reporter struct {
	// W receives the log.
	W io.Writer
	// Category is the code-scanning category (automationDetails.id,
	// --sarif-category); default "ocr".
	Category string
	// RepositoryURI, when set (e.g. https://github.com/o/r), records the
	// head commit as versionControlProvenance.
	RepositoryURI string
	// MaxResults and MaxGzipBytes override GitHub's limits (tests).
	MaxResults, MaxGzipBytes int
}

var _ reporters.Reporter = (*Reporter)(nil)

// Report writes the log to W.
func (s *Reporter) Report(_ context.Context, r *review.Review) error {
	data, err := s.Log(r)
	if err != nil {
		return err
	}
	if _, err := s.W.Write(data); err != nil {
		return fmt.Errorf("could not write the SARIF report: %w", err)
	}
	return nil
}

// Log renders the review as indented SARIF JSON within GitHub's limits.
func (s *Reporter) Log(r *review.Review) ([]byte, error) {
	comments := reporters.BySeverity(r.Comments)
	maxResults, maxGzip := reporters.OrDefault(s.MaxResults, sarifMaxResults), reporters.OrDefault(s.MaxGzipBytes, sarifMaxGzipBytes)
	keep := min(len(comments), maxResults)
	for {
		data, err := s.encode(r, comments[:keep], len(comments)-keep)
		if err != nil {
			return nil, err
		}
		if len(data) <= maxGzip-1024 || keep == 0 { // gzip adds < 1 KiB to anything
			return data, nil
		}
		size, err := gzipSize(data)
		if err != nil {
			return nil, err
		}
		if size <= maxGzip {
			return data, nil
		}
		keep = min(keep-1, keep*maxGzip/size*9/10)
		keep = max(keep, 0)
	}
}

func gzipSize(data []byte) (int, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		return 0, fmt.Errorf("could not measure the SARIF report: %w", err)
	}
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("could not measure the SARIF report: %w", err)
	}
	return buf.Len(), nil
}

// encode builds and marshals one run with the given results; cut counts the
// results left out to respect the limits.
func (s *Reporter) encode(r *review.Review, comments []review.Comment, cut int) ([]byte, error) {
	run := sarif.NewRunWithInformationURI(ToolName(r), informationURI)
	v := semanticVersion(r.Version)
	driver := run.Tool.Driver.WithVersion(v).WithSemanticVersion(v)
	if s.RepositoryURI != "" && r.Head != "" {
		vcs := sarif.NewVersionControlDetails().WithRepositoryURI(s.RepositoryURI).WithRevisionID(r.Head).
			WithMappedTo(sarif.NewArtifactLocation().WithURIBaseID(srcRoot))
		run.VersionControlProvenance = []*sarif.VersionControlDetails{vcs}
	}
	rules, index := sarifRules(comments, r.Rules)
	driver.Rules = rules
	fps := map[string]int{}
	for _, c := range comments {
		run.AddResult(sarifResult(c, index[reporters.RuleID(c)], reporters.UniqueFingerprint(fps, c)))
	}
	run.AutomationDetails = sarif.NewRunAutomationDetails().WithID(automationID(s.Category))
	run.Invocations = []*sarif.Invocation{sarifInvocation(r, cut)}
	log := sarif.NewReport()
	log.AddRun(run)
	data, err := reporters.MarshalIndent(log)
	if err != nil {
		return nil, fmt.Errorf("could not encode the SARIF report: %w", err)
	}
	return pruneSARIF(data)
}

// ToolName is the tool name recorded in the log.
func ToolName(r *review.Review) string {
	if r.Tool != "" {
		return r.Tool
	}
	return "ocr"
}

var semverRE = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// semanticVersion is the SemVer 2.0 form of a version ("v1.2.3" → "1.2.3");
// a version that is not numeric (a development build) becomes "0.0.0-dev"
// because SARIF consumers compare versions numerically.
func semanticVersion(v string) string {
	m := semverRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "0.0.0-dev"
	}
	return m[1]
}

// automationID is "<category>/": a category with no run id, so a new
// upload for the same category replaces the previous analysis.
func automationID(category string) string {
	category = strings.Trim(strings.TrimSpace(category), "/")
	if category == "" {
		category = "ocr"
	}
	return category + "/"
}
