package install

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLogosAreCurrent fails when the committed PNGs no longer match Logo:
// run `go generate ./install`.
func TestLogosAreCurrent(t *testing.T) {
	for _, tc := range []struct {
		size int
		file []byte
	}{{32, logo32}, {64, logo64}} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, Logo(tc.size)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), tc.file) {
			t.Errorf("logo-%dx%d.png is stale; run go generate ./install", tc.size, tc.size)
		}
		img, err := png.Decode(bytes.NewReader(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != tc.size || b.Dy() != tc.size {
			t.Errorf("logo is %v, want %dx%d", b, tc.size, tc.size)
		}
	}
}

func TestKernelspec(t *testing.T) {
	prefix := t.TempDir()
	dir, err := Kernelspec(PrefixDir(prefix), "/opt/gobayes/bin/gobayes")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(prefix, "share/jupyter/kernels/gobayes"); dir != want {
		t.Errorf("installed into %s, want %s (as jupyter kernelspec install --prefix)", dir, want)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	// The fields Jupyter's KernelSpec reads (jupyter_client/kernelspec.py).
	want := map[string]any{
		"argv":           []any{"/opt/gobayes/bin/gobayes", "kernel", "-f", "{connection_file}"},
		"display_name":   "Go (gobayes)",
		"language":       "go",
		"interrupt_mode": "message",
	}
	for k, v := range want {
		if g, _ := json.Marshal(spec[k]); string(g) != mustJSON(v) {
			t.Errorf("kernel.json %s = %s, want %s", k, g, mustJSON(v))
		}
	}
	for _, f := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestUserDir(t *testing.T) {
	t.Setenv("JUPYTER_DATA_DIR", "/data/jupyter")
	if d, _ := UserDir(); d != "/data/jupyter/kernels/gobayes" {
		t.Errorf("UserDir with JUPYTER_DATA_DIR = %s", d)
	}
	if runtime.GOOS != "linux" {
		return
	}
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/ada")
	if d, _ := UserDir(); d != "/home/ada/.local/share/jupyter/kernels/gobayes" {
		t.Errorf("UserDir = %s, want jupyter_core's default on Linux", d)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
