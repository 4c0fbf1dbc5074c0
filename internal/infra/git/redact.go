package git

import "regexp"

// urlCredentials matches the user-information part of a URL in free text:
// "scheme://user:password@" or "scheme://token@", and the bare
// "user:password@host" some transports print without the scheme (git://
// "unable to look up u:TOKEN@host"). Git and its remote helpers can echo a
// remote URL in an error, and CI clones carry the job's token in it
// (GitLab: https://gitlab-ci-token:TOKEN@host/...).
// https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.1
var urlCredentials = regexp.MustCompile(
	`([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#\s'"]*@` + // scheme://userinfo@
		`|(^|[\s'"(=])[^\s'"(=@/:]+:[^\s'"@/]+@`) // user:password@ without a scheme

// Redact replaces the credentials of every URL in s with "***", so that
// messages quoting a remote never show a password or token.
func Redact(s string) string {
	return urlCredentials.ReplaceAllString(s, "${1}${2}***@")
}
