package selection

// IsSecretPath reports whether p names a credentials file (.env, keys,
// keystores): selection never reviews one, and a scan never reads it.
func IsSecretPath(p string) bool { return isSecretPath(p) }
