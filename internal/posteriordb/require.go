package posteriordb

import (
	"errors"
	"testing"
)

// Require loads case name for a test. When the folder of reference
// posteriors is missing it skips the test under -short (saying why) and
// fails it otherwise; any other load error fails the test.
func Require(t testing.TB, name string) *Case {
	t.Helper()
	c, err := Load(name)
	if err != nil {
		if errors.Is(err, ErrNotFound) && testing.Short() {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	return c
}
