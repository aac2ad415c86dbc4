package install

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

//go:generate go run gen_logos.go

// Name is the kernelspec's name: `jupyter console --kernel gobayes`.
const Name = "gobayes"

var (
	//go:embed logo-32x32.png
	logo32 []byte
	//go:embed logo-64x64.png
	logo64 []byte
)

// Spec is the content of kernel.json.
type Spec struct {
	Argv          []string `json:"argv"`
	DisplayName   string   `json:"display_name"`
	Language      string   `json:"language"`
	InterruptMode string   `json:"interrupt_mode"`
	// Env is added to the kernel's environment by Jupyter (for example
	// GOBAYES_MEMORY_LIMIT, the interpreter's memory limit).
	Env      map[string]string `json:"env,omitempty"`
	Metadata map[string]any    `json:"metadata"`
}

// NewSpec returns the kernelspec that starts exe (an absolute path).
func NewSpec(exe string) Spec {
	return Spec{
		Argv:          []string{exe, "kernel", "-f", "{connection_file}"},
		DisplayName:   "Go (gobayes)",
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{},
	}
}

// UserDir is the kernelspec directory in the user's Jupyter data
// directory: $JUPYTER_DATA_DIR/kernels/gobayes when that is set, else the
// platform's default (as jupyter_core.paths.jupyter_data_dir).
func UserDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels", Name), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("install: no home directory to install into (%v); use --prefix DIR", err)
	}
	var data string
	switch runtime.GOOS {
	case "darwin":
		data = filepath.Join(home, "Library", "Jupyter")
	case "windows":
		data = filepath.Join(os.Getenv("APPDATA"), "jupyter")
	default:
		data = filepath.Join(home, ".local", "share", "jupyter")
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			data = filepath.Join(x, "jupyter")
		}
	}
	return filepath.Join(data, "kernels", Name), nil
}

// PrefixDir is the kernelspec directory under an installation prefix, as
// `jupyter kernelspec install --prefix DIR` uses: DIR/share/jupyter/kernels/gobayes.
func PrefixDir(prefix string) string {
	return filepath.Join(prefix, "share", "jupyter", "kernels", Name)
}

// Kernelspec writes kernel.json and the logos into dir (created if
// needed) for the binary exe, which is made absolute. It returns dir.
func Kernelspec(dir, exe string) (string, error) { return KernelspecEnv(dir, exe, nil) }

// KernelspecEnv is Kernelspec with env in kernel.json's "env", which
// Jupyter adds to the kernel's environment:
//
//	install.KernelspecEnv(dir, exe, map[string]string{"GOBAYES_MEMORY_LIMIT": "4GiB"})
func KernelspecEnv(dir, exe string, env map[string]string) (string, error) {
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("install: cannot make %s absolute: %w", exe, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("install: cannot create the kernelspec directory: %w", err)
	}
	sp := NewSpec(abs)
	if len(env) > 0 {
		sp.Env = env
	}
	spec, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		return "", err
	}
	files := []struct {
		name string
		data []byte
	}{
		{"kernel.json", append(spec, '\n')},
		{"logo-32x32.png", logo32},
		{"logo-64x64.png", logo64},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return "", fmt.Errorf("install: cannot write the kernelspec: %w", err)
		}
	}
	return dir, nil
}
