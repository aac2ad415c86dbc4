package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gobayes/gobayes"

// A rule forbids the packages under from, and their tests, to import a
// package under any of forbid, directly or through other packages of the
// module. Paths are relative to the module.
type rule struct {
	from   string
	forbid []string
	why    string
	// nonTest checks the packages only, not their tests (which may link
	// what the package reaches by name, to register it).
	nonTest bool
}

var rules = []rule{
	{
		from:   "accel",
		forbid: []string{"ppl", "internal/posteriordb", "display", "kernel", "interp", "plotting"},
		why:    "accel is below ppl; its tests read programs from accel/ir/irtest's fixtures (internal/posteriordb's TestFixtures writes them from the ppl models)",
	},
	{
		from:   "ppl",
		forbid: []string{"display", "kernel", "interp", "plotting"},
		why:    "ppl is a library; the notebook layers sit above it",
	},
	{
		from:   "display",
		forbid: []string{"ppl", "accel", "kernel", "interp", "plotting", "widgets", "comm"},
		why:    "display is a leaf: values render themselves through its interfaces, and its progress table takes plain rows",
	},
	{
		from:    "ppl",
		forbid:  []string{"accel/mpi"},
		why:     "ppl reaches MPI by name (accel.StartJob(\"mpi\")), as it reaches CUDA (accel.ByName(\"cuda\")); the program that runs it links accel/mpi (interp does)",
		nonTest: true,
	},
	{
		from:   "table",
		forbid: []string{"ppl", "accel", "display", "kernel", "interp", "plotting", "widgets", "comm"},
		why:    "table is a leaf: ppl and accel/mpi (the ranks) both read files through it",
	},
}

// mainDirs are the folders whose packages may be programs.
var mainDirs = []string{"cmd", "bench"}

// pkg is what go list says of one package (or test variant).
type pkg struct {
	ImportPath string
	Name       string
	ForTest    string
	Imports    []string
	Error      *struct{ Err string }
}

// list runs go list -deps -test over the module with the given build tags.
func list(t *testing.T, tags string) map[string]*pkg {
	t.Helper()
	args := []string{"list", "-e", "-deps", "-test", "-json=ImportPath,Name,ForTest,Imports,Error"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, module+"/...")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list's output: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

// rel is the module-relative path of a package, its test variants
// ("p [p.test]", "p_test [p.test]", "p.test") folded into p; ok is false
// outside the module.
func rel(importPath string) (path string, ok bool) {
	path, _, _ = strings.Cut(importPath, " ")
	path = strings.TrimSuffix(path, ".test")
	path = strings.TrimSuffix(path, "_test")
	if path == module {
		return "", true
	}
	path, ok = strings.CutPrefix(path, module+"/")
	return path, ok
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// chain is the shortest import chain, inside the module, from root to a
// package under one of forbid, or nil.
func chain(pkgs map[string]*pkg, root string, forbid []string) []string {
	parent := map[string]string{root: ""}
	queue := []string{root}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if path, _ := rel(id); id != root && slices.ContainsFunc(forbid, func(f string) bool { return under(path, f) }) {
			var c []string
			for ; id != ""; id = parent[id] {
				c = append(c, id)
			}
			slices.Reverse(c)
			return c
		}
		p := pkgs[id]
		if p == nil {
			continue
		}
		for _, imp := range p.Imports {
			if _, seen := parent[imp]; seen {
				continue
			}
			if _, ok := rel(imp); !ok {
				continue // outside the module: it cannot import ours
			}
			parent[imp] = id
			queue = append(queue, imp)
		}
	}
	return nil
}

// show writes a chain with module-relative paths, a package compiled with
// its own tests marked.
func show(c []string) string {
	out := make([]string, len(c))
	for i, id := range c {
		path, _ := rel(id)
		name, variant, _ := strings.Cut(id, " ")
		switch {
		case strings.HasSuffix(name, "_test"):
			path += " (external test)"
		case variant == "["+name+".test]":
			path += " (with its tests)"
		}
		out[i] = path
	}
	return strings.Join(out, " → ")
}

func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot list the module's imports")
	}
	for _, tags := range []string{"", "cuda"} {
		t.Run("tags="+tags, func(t *testing.T) {
			pkgs := list(t, tags)
			roots := make([]string, 0, len(pkgs))
			for id, p := range pkgs {
				if _, ok := rel(id); ok {
					roots = append(roots, id)
					if p.Error != nil {
						t.Errorf("go list cannot read the imports of %s: %s", id, p.Error.Err)
					}
				}
			}
			slices.Sort(roots)
			checked := 0
			for _, r := range rules {
				var bad []string
				for _, root := range roots {
					if path, _ := rel(root); !under(path, r.from) || strings.HasSuffix(root, ".test") {
						continue // a test main imports nothing its test packages do not
					}
					if r.nonTest && (strings.Contains(root, " [") || strings.HasSuffix(root, "_test")) {
						continue
					}
					checked++
					if c := chain(pkgs, root, r.forbid); c != nil {
						bad = append(bad, show(c))
					}
				}
				// A package compiled for another's tests (p [q.test])
				// shows as p: the same chain once.
				slices.Sort(bad)
				bad = slices.Compact(bad)
				if len(bad) > 0 {
					t.Errorf("%s must not import %s (%s); these do:\n\t%s",
						r.from, strings.Join(r.forbid, ", "), r.why, strings.Join(bad, "\n\t"))
				}
			}
			if checked == 0 {
				t.Error("no package matched a rule: the check checked nothing")
			}
			for _, id := range roots {
				p := pkgs[id]
				path, _ := rel(id)
				if p.Name != "main" || p.ForTest != "" || strings.HasSuffix(id, ".test") {
					continue
				}
				if !slices.ContainsFunc(mainDirs, func(d string) bool { return under(path, d) }) {
					t.Errorf("%s is a main package: programs live in %s", path, strings.Join(mainDirs, "/ and ")+"/")
				}
			}
		})
	}
}
