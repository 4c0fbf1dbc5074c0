package sarif

import (
	"slices"
	"sort"
	"strings"

	"github.com/ocr-ci/ocr/reporters"
	"github.com/ocr-ci/ocr/review"
)

// categoryInfo describes a category for rule metadata.
type categoryInfo struct{ title, description string }

var categoryInfos = map[review.Category]categoryInfo{
	review.CategoryBug:             {"Bug", "A defect or logic error: the code does not do what it is meant to."},
	review.CategorySecurity:        {"Security", "A security weakness: injection, unsafe input handling, secrets, missing checks."},
	review.CategoryPerformance:     {"Performance", "Needless work, allocation or latency on a hot path."},
	review.CategoryMaintainability: {"Maintainability", "Code that is hard to read, change or reason about."},
	review.CategoryTest:            {"Test", "Missing, wrong or fragile tests."},
	review.CategoryStyle:           {"Style", "Deviation from the project's conventions."},
	review.CategoryDocumentation:   {"Documentation", "Missing, outdated or misleading documentation or comments."},
	review.CategoryOther:           {"Other", "A finding that fits no other category."},
}

// securitySeverity maps our severities to GitHub's security-severity scores
// (critical > 9.0, high 7.0-8.9, medium 4.0-6.9, low 0.1-3.9).
// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning#reportingdescriptor-object
var securitySeverity = map[review.Severity]string{
	review.SeverityCritical: "9.5",
	review.SeverityHigh:     "8.0",
	review.SeverityMedium:   "5.5",
	review.SeverityLow:      "3.0",
}

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(s review.Severity) string {
	switch s {
	case review.SeverityCritical, review.SeverityHigh:
		return levelError
	case review.SeverityMedium:
		return levelWarning
	}
	return levelNote
}

// sarifRules builds one reporting descriptor per distinct ruleId used by
// the comments, sorted by id, and the index of each id.
func sarifRules(cs []review.Comment, catalogue []review.Rule) ([]ruleDesc, map[string]int) {
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
	rules := make([]ruleDesc, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		rules[i] = sarifRule(id, seen[id], byID[seen[id].RuleID])
		index[id] = i
	}
	return rules, index
}

// sarifRule describes one ruleId from its catalogue rule and category; a
// security rule carries GitHub's security-severity and its level.
func sarifRule(id string, c review.Comment, rule review.Rule) ruleDesc {
	cat := review.ParseCategory(string(c.Category))
	info := categoryInfos[cat]
	title := rule.Title
	if title == "" {
		title = "ocr review"
	}
	d := ruleDesc{
		DefaultConfiguration: ruleConfig{Enabled: true, Level: levelWarning},
		FullDescription:      message{Text: fullDescription(rule, info)},
		Help:                 help{Markdown: helpMarkdown(rule, info), Text: helpText(rule, info)},
		HelpURI:              informationURI,
		ID:                   id,
		Name:                 ruleName(id),
		Properties:           ruleProperties{Precision: "medium", Tags: ruleTags(rule, cat)},
		ShortDescription:     message{Text: title + ": " + strings.ToLower(info.title) + " finding"},
	}
	if cat == review.CategorySecurity {
		sev := review.ParseSeverity(string(c.Severity))
		score := securitySeverity[sev]
		d.Properties.SecuritySeverity = &score
		d.DefaultConfiguration.Level = sarifLevel(sev)
	}
	return d
}

// ruleName turns "ocr/go/bug" into "OcrGoBug" (SARIF recommends PascalCase names).
func ruleName(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if r == '/' || r == '-' || r == '_' || r == '.' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func fullDescription(rule review.Rule, info categoryInfo) string {
	if rule.Description == "" {
		return info.description
	}
	return strings.TrimSpace(rule.Description) + " " + info.description
}

func helpText(rule review.Rule, info categoryInfo) string {
	s := info.title + ": " + info.description + "\nFound by ocr, an AI code reviewer: verify before acting."
	if rule.Help != "" {
		s += "\n\n" + rule.Help
	}
	return s
}

func helpMarkdown(rule review.Rule, info categoryInfo) string {
	s := "**" + info.title + "**: " + info.description + "\n\nFound by [ocr](" + informationURI + "), an AI code reviewer: verify before acting."
	if rule.Help != "" {
		s += "\n\n" + rule.Help
	}
	return s
}

// ruleTags are the catalogue tags plus the category; GitHub keeps 10 of at most 20.
func ruleTags(rule review.Rule, cat review.Category) []string {
	tags := []string{string(cat)}
	for _, t := range rule.Tags {
		if !slices.Contains(tags, t) && len(tags) < 10 {
			tags = append(tags, t)
		}
	}
	return tags
}
