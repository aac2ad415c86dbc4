package interp

import (
	"strings"
	"testing"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestYaegiWordingPinned compiles, with a bare yaegi interpreter, each
// statement whose error message Session.Evaluate reads to choose a
// fallback (typedDefine on "definition loop", WrapInFunc on "nil type" or
// "undefined: ", the undefined-name error on "constant definition loop"),
// and checks that yaegi still words it so. These fallbacks key on yaegi's
// text because yaegi reports them as plain errors with no type to test;
// when an upgrade rewords one, this test names the wording that changed
// instead of a notebook cell silently losing its fallback.
func TestYaegiWordingPinned(t *testing.T) {
	cases := []struct {
		why  string
		src  string
		want []string // one of these must appear
	}{
		{"typedDefine: an index of a compiled package's result at the top level",
			`import "strings"` + "\n" + `first := strings.Fields("a b")[0]`, []string{"definition loop"}},
		{"undefinedError: an undefined name in a statement",
			`x := nosuchname + 1`, []string{"constant definition loop", "undefined: nosuchname"}},
		{"WrapInFunc: a multi-value define inside a compound statement at the top level",
			`import "strconv"` + "\n" + `if true { n, err := strconv.Atoi("1"); _, _ = n, err }`, []string{"nil type", "undefined: "}},
	}
	for _, c := range cases {
		it := yaegi.New(yaegi.Options{})
		if err := it.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := compileSplit(it, c.src)
		if err == nil {
			t.Errorf("%s: yaegi compiled %q; the fallback may no longer be needed (or the case no longer reproduces): check it and update interp/session.go", c.why, c.src)
			continue
		}
		found := false
		for _, w := range c.want {
			found = found || strings.Contains(err.Error(), w)
		}
		if !found {
			t.Errorf("%s: yaegi's error for %q is now %q, none of %q: update the matches in interp/session.go", c.why, c.src, err, c.want)
		}
	}
}

// compileSplit compiles each line of src in turn, as the session compiles a
// cell's imports and statements one by one, and returns the first error.
func compileSplit(it *yaegi.Interpreter, src string) (*yaegi.Program, error) {
	var prog *yaegi.Program
	for _, line := range strings.Split(src, "\n") {
		p, err := compile(it, line)
		if err != nil {
			return nil, err
		}
		if _, err := it.Execute(p); err != nil {
			return nil, err
		}
		prog = p
	}
	return prog, nil
}
