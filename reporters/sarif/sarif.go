// Package sarif writes the review as a SARIF 2.1.0 log for code scanning.
package sarif

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/ocr-ci/ocr/internal/infra/logtext"
	"github.com/ocr-ci/ocr/reporters"
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
func (s *Reporter) Log(r *review.Review) ([]byte, error) { return s.fit(r, s.encode) }

// fit encodes the most severe comments (encode's cut counts the rest) that
// stay within GitHub's result and compressed-size limits.
func (s *Reporter) fit(r *review.Review, encode func(r *review.Review, comments []review.Comment, cut int) ([]byte, error)) ([]byte, error) {
	comments := reporters.BySeverity(r.Comments)
	maxResults, maxGzip := reporters.OrDefault(s.MaxResults, sarifMaxResults), reporters.OrDefault(s.MaxGzipBytes, sarifMaxGzipBytes)
	keep := min(len(comments), maxResults)
	for {
		data, err := encode(r, comments[:keep], len(comments)-keep)
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
	data, err := marshal(s.build(r, comments, cut))
	if err != nil {
		return nil, fmt.Errorf("could not encode the SARIF report: %w", err)
	}
	return data, nil
}

// build is the log of one run with the given results. language,
// newlineSequences, contents and isComprehensive are SARIF's defaults,
// written out as earlier versions did.
func (s *Reporter) build(r *review.Review, comments []review.Comment, cut int) *logFile {
	rules, index := sarifRules(comments, r.Rules)
	results := make([]result, 0, len(comments))
	fps := map[string]int{}
	for _, c := range comments {
		results = append(results, sarifResult(c, index[reporters.RuleID(c)], reporters.UniqueFingerprint(fps, c)))
	}
	v := semanticVersion(r.Version)
	one := run{
		AutomationDetails: automationDetails{ID: automationID(s.Category)},
		Invocations:       []invocation{sarifInvocation(r, cut)},
		Language:          "en-US",
		NewlineSequences:  []string{"\r\n", "\n"},
		Results:           results,
		Tool: tool{Driver: driver{
			Contents: []string{"localizedData", "nonLocalizedData"}, InformationURI: informationURI,
			Language: "en-US", Name: ToolName(r), Rules: rules, SemanticVersion: v, Version: v,
		}},
		VersionControlProvenance: s.provenance(r),
	}
	return &logFile{Schema: schemaURI, Runs: []run{one}, Version: "2.1.0"}
}

// provenance records the head commit when the repository is known.
func (s *Reporter) provenance(r *review.Review) []vcsDetails {
	if s.RepositoryURI == "" || r.Head == "" {
		return nil
	}
	return []vcsDetails{{MappedTo: baseLocation{URIBaseID: srcRoot}, RepositoryURI: s.RepositoryURI, RevisionID: r.Head}}
}

// marshal encodes the log once, indented and without HTML escaping, as
// reporters.MarshalIndent does, and makes it inert in an Actions log.
func marshal(log *logFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return []byte(logtext.Inert(string(rawReplacement(buf.Bytes())))), nil
}

// replacementEscape is what encoding/json writes for each byte of invalid
// UTF-8 in a string.
const replacementEscape = `\ufffd`

// rawReplacement writes each replacementEscape as the character U+FFFD
// itself, as earlier versions did (they decoded and re-encoded the log), so
// a path or message with invalid UTF-8 gives the same bytes as before. A
// backslash of the text is encoded as two, so escapes are read in pairs.
func rawReplacement(data []byte) []byte {
	if !bytes.Contains(data, []byte(replacementEscape)) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] != '\\':
			out = append(out, data[i])
		case bytes.HasPrefix(data[i:], []byte(replacementEscape)):
			out = append(out, "\uFFFD"...)
			i += len(replacementEscape) - 1
		default: // an escape never ends the output
			out = append(out, data[i], data[i+1])
			i++
		}
	}
	return out
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
