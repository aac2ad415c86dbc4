package cgen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestConformanceGCC runs the accel conformance suite on the generated
// CUDA C compiled as plain C by gcc: every posteriordb model, values and
// gradients against the ir reference to 1e-12 relative.
func TestConformanceGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH: the generated CUDA C cannot be checked on the CPU (install gcc)")
	}
	conformance.Run(t, cgen.NewGCC(), conformance.Options{
		// gp_pois_regr factors a GP covariance whose condition number at
		// uniform(-2, 2) points is large: moving the position by one ulp
		// in every other coordinate moves the reference gradient by
		// 8.5e-12 relative (measured with ir.Frame at the suite's points),
		// and glibc's exp differs from Go's by an ulp. 1e-12 cannot hold;
		// the generated code agrees to 1e-9.
		CaseTol: map[string]float64{"gp_pois_regr-gp_pois_regr": 1e-9},
		Skip: func(name string, p *ir.Program) string {
			if u := cgen.Unsupported(p); len(u) > 0 {
				return "the CUDA generator does not cover " + u[0] + " yet"
			}
			return ""
		},
	})
}

// TestConformanceGCCDataParallel runs the suite on the data-parallel
// kernel: one block of 5 lanes per chain, the lanes as POSIX threads
// meeting at barriers (5 does not divide the data lengths, so every loop
// has a ragged end).
func TestConformanceGCCDataParallel(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH: the generated CUDA C cannot be checked on the CPU (install gcc)")
	}
	conformance.Run(t, &cgen.GCC{Lanes: 5}, conformance.Options{
		CaseTol: map[string]float64{"gp_pois_regr-gp_pois_regr": 1e-9}, // see TestConformanceGCC
		Batches: []int{1, 7},
	})
}

// TestCompilesAsCXX: NVRTC compiles C++, so the generated source of every
// posteriordb model must also be valid C++ (checked with g++, under the
// same shim).
func TestCompilesAsCXX(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not on PATH: cannot check that the generated source is valid C++ as NVRTC needs")
	}
	dir := t.TempDir()
	for _, m := range irtest.Fixtures(t, irtest.Posteriordb) {
		name, p := m.Name, m.Program
		t.Run(name, func(t *testing.T) {
			code, _, err := cgen.HostSource(p)
			if err != nil {
				t.Skip(err)
			}
			file := filepath.Join(dir, name+".cpp")
			if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("g++", "-x", "c++", "-fsyntax-only", file).CombinedOutput(); err != nil {
				t.Errorf("g++ rejects the generated source: %v\n%s", err, out)
			}
		})
	}
}

// clang is the clang that TestCompilesAsCUDA uses: clang-14 (Debian's,
// which make deps installs) or a clang on PATH.
func clang() string {
	for _, c := range []string{"clang-14", "clang"} {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// TestCompilesAsCUDA compiles the generated source of every posteriordb
// model and of every op case to PTX with clang's CUDA front end (device
// code only, no CUDA SDK: testdata/clang_cuda.h declares what NVRTC has
// built in). It checks what gcc and g++ cannot: the device-code rules of
// CUDA (a __device__ function calls only device functions, the builtin
// variables, the kernels' signatures). No GPU runs here; NVRTC itself only
// runs on one (accel/cuda/device-run.sh). make test sets
// GOBAYES_REQUIRE_CLANG, which fails the test where clang is missing.
func TestCompilesAsCUDA(t *testing.T) {
	cc := clang()
	if cc == "" {
		if os.Getenv("GOBAYES_REQUIRE_CLANG") != "" {
			t.Fatal("GOBAYES_REQUIRE_CLANG is set but neither clang-14 nor clang is on PATH (make deps installs clang-14)")
		}
		t.Skip("clang is not on PATH: the generated CUDA cannot be compiled to PTX here (install clang-14)")
	}
	head, err := os.ReadFile("testdata/clang_cuda.h")
	if err != nil {
		t.Fatal(err)
	}
	progs := map[string]*ir.Program{}
	for _, m := range irtest.Fixtures(t, irtest.Posteriordb) {
		progs[m.Name] = m.Program
	}
	for _, tc := range opCases {
		p, err := tc.program()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		progs["op "+tc.name] = p
	}
	dir := t.TempDir()
	for name, p := range progs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := cgen.Generate(p)
			if err != nil {
				t.Skip(err)
			}
			base := filepath.Join(dir, strings.NewReplacer(" ", "_", ",", "", "/", "_").Replace(name))
			if err := os.WriteFile(base+".cu", []byte(string(head)+cgen.CUDAPrelude+src.Code), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(cc, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-nocudainc", "-nocudalib",
				"-S", "-o", base+".ptx", base+".cu").CombinedOutput()
			if err != nil {
				t.Fatalf("clang rejects the generated CUDA: %v\n%s", err, out)
			}
			ptx, err := os.ReadFile(base + ".ptx")
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"gb_logdensity", "gb_leapfrog", "gb_logdensity_block", "gb_rwmh"} {
				if !strings.Contains(string(ptx), ".entry "+k+"(") {
					t.Errorf("the PTX has no kernel %s", k)
				}
			}
		})
	}
}
