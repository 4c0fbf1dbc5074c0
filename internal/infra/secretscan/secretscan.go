// Package secretscan recognises content that is unmistakably a credential:
// private keys and access tokens in well-known formats. It is a guard for
// what ocr shows a model or prints, not a secret scanner: a match must be
// near-certain, so ordinary code is never hidden by accident.
package secretscan

import "regexp"

// Kind names what was found.
type Kind string

// The kinds of credential Find reports.
const (
	PrivateKey Kind = "private key"
	Token      Kind = "access token"
)

// privateKey matches the armour of PEM, OpenSSH, PGP and PuTTY private
// keys, and a Google service-account key file's "private_key" field.
var privateKey = regexp.MustCompile(`-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|` +
	`PuTTY-User-Key-File-\d+:|"private_key"\s*:\s*"-----BEGIN`)

// tokens are well-known token formats (prefix, alphabet and length as
// their issuers document them).
var tokens = regexp.MustCompile(anyOf(
	`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`,                          // AWS access key id
	`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`,                                // GitHub classic tokens
	`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`,                              // GitHub fine-grained token
	`\bglpat-[A-Za-z0-9_-]{20,}`,                                       // GitLab personal access token
	`\bgl(?:dt|rt|ptt|cbt|oas|soat|ffct|agent|imt)-[A-Za-z0-9_-]{20,}`, // other GitLab tokens
	`\bxox[abposer]-[A-Za-z0-9-]{10,}`,                                 // Slack tokens
	`\bsk-(?:proj-|svcacct-|admin-|ant-api\d\d-)?[A-Za-z0-9_-]{32,}`,   // OpenAI, Anthropic keys
	`\bAIza[0-9A-Za-z_-]{35}\b`,                                        // Google API key
	`\b[rs]k_live_[0-9A-Za-z]{24,}\b`,                                  // Stripe live keys
	`\bnpm_[A-Za-z0-9]{36}\b`,                                          // npm token
	`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`,                         // PyPI token
))

func anyOf(alts ...string) string {
	s := alts[0]
	for _, a := range alts[1:] {
		s += "|" + a
	}
	return s
}

// Find returns the kind of credential data holds, or "" when it holds none.
func Find(data []byte) Kind {
	switch {
	case privateKey.Match(data):
		return PrivateKey
	case tokens.Match(data):
		return Token
	}
	return ""
}

// FindString is Find for a string.
func FindString(s string) Kind {
	switch {
	case privateKey.MatchString(s):
		return PrivateKey
	case tokens.MatchString(s):
		return Token
	}
	return ""
}
