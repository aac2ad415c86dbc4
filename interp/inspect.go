package interp

import "github.com/gobayes/gobayes/display"

// inspectName returns documentation for a (possibly qualified) name.
func (s *Session) inspectName(name string, detail int) (display.Bundle, bool) {
	return display.Bundle{}, false
}

// Inspect returns documentation for the name at cursor. See Engine.
func (s *Session) Inspect(code string, cursor int, detail int) (display.Bundle, bool) {
	return display.Bundle{}, false
}

// IsComplete says whether code is ready to run. See Engine.
func (s *Session) IsComplete(code string) (status, indent string) {
	return isComplete(code)
}
