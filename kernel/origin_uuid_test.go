package kernel

import (
	"regexp"
	"testing"
)

func TestNewUUIDIsVersion4(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		u := NewUUID()
		if !re.MatchString(u) {
			t.Fatalf("NewUUID() = %q, not a version 4 UUID", u)
		}
		if seen[u] {
			t.Fatalf("NewUUID() repeated %q", u)
		}
		seen[u] = true
	}
}
