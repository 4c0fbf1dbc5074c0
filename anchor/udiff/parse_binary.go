package udiff

import "strings"

// binaryPatch skips the body of a "GIT binary patch" (git diff --binary):
// a forward and an optional reverse block, each "literal N" or "delta N"
// followed by base85 lines and an empty line. The lines are checked for
// shape so that a truncated patch is an error, not a silently lost file.
func (p *parser) binaryPatch() error {
	for block := 0; block < 2; block++ {
		line, ok := p.next()
		if !ok && block == 1 {
			return nil
		}
		if !strings.HasPrefix(line, "literal ") && !strings.HasPrefix(line, "delta ") {
			if block == 1 && ok {
				p.back()
				return nil
			}
			return p.errorf(`expected "literal <size>" or "delta <size>" in a GIT binary patch, got %s`, quoteLine(line))
		}
		if err := p.base85Lines(); err != nil {
			return err
		}
	}
	return nil
}

// base85Lines skips the data lines of one binary block and its closing
// empty line. Each line is a length byte (A-Z for 1-26, a-z for 27-52)
// followed by groups of five base85 characters.
func (p *parser) base85Lines() error {
	for {
		line, ok := p.next()
		switch {
		case !ok:
			p.line++
			return p.errorf("unexpected end of the diff inside a GIT binary patch: expected an empty line")
		case line == "":
			return nil
		case !isBase85Line(line):
			return p.errorf("expected a base85 line of a GIT binary patch, got %s", quoteLine(line))
		}
	}
}

// isBase85Line checks a data line's length byte and shape.
func isBase85Line(line string) bool {
	c := line[0]
	return (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') && (len(line)-1)%5 == 0 && len(line) > 1
}
