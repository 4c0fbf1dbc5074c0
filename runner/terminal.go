package runner

import "os"

// IsTerminal reports whether f is a character device (a terminal), for
// colour in text output. NO_COLOR is honoured by the text reporter.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
