package dist

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestReadmeFamilyCount: the README's count of distribution families is
// len(Families()), so that adding a family (to accel/opdef, or here) and
// not the README fails.
func TestReadmeFamilyCount(t *testing.T) {
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+)\s+distribution\s+families`).FindSubmatch(text)
	if m == nil {
		t.Fatal(`README.md says no "N distribution families": say how many there are (len(dist.Families()))`)
	}
	n, _ := strconv.Atoi(string(m[1]))
	if want := len(Families()); n != want {
		t.Errorf("README.md counts %d distribution families; dist.Families() has %d: write %d there", n, want, want)
	}
}
