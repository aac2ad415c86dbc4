package ir

// SetMaxStepViews changes the cap on precomputed scan step views for a
// test and returns a function restoring it.
func SetMaxStepViews(n int) (restore func()) {
	old := maxStepViews
	maxStepViews = n
	return func() { maxStepViews = old }
}

// Log1pFast exposes the Goldberg log1p for an accuracy test.
var Log1pFast = log1p
