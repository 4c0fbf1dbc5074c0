package selection

// DecidedByPath reports whether p is left out whatever its content, by a
// reason checked before any content-based one except binary: secret,
// user_exclude, and (unless --include matches) vendored, lockfile or a
// generated file name. A scan then reads such a file only to tell a binary
// apart, and keeps none of its content.
func (s Options) DecidedByPath(p string) bool {
	switch {
	case isSecretPath(p), matchAny(s.Exclude, p):
		return true
	case matchAny(s.Include, p):
		return false
	}
	return isVendored(p) || isLockfile(p) || isGeneratedName(p)
}

// IsSecretPath reports whether p names a credentials file (.env, keys,
// keystores): selection never reviews one, and a scan never reads it.
func IsSecretPath(p string) bool { return isSecretPath(p) }
