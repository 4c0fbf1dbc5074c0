package calc

// Version is the release.
const Version = "1.1"

func helper() string {
	return Version
}
