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

// Complete returns completions for the text before cursor. See Engine.
func (s *Session) Complete(code string, cursor int) Completion {
	return Completion{Start: cursor, End: cursor}
}

// IsComplete says whether code is ready to run. See Engine.
func (s *Session) IsComplete(code string) (status, indent string) {
	return "complete", ""
}

func isComplete(code string) (status, indent string) { return "complete", "" }
