package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallFlags(t *testing.T) {
	exe, err := executable()
	if err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	dataDir := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", dataDir)
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		specDir string // where kernel.json must appear; "" for none
		limit   string // the kernelspec's env GOBAYES_MEMORY_LIMIT
		output  string // and GOBAYES_OUTPUT_LIMIT
	}{
		{"prefix", []string{"--prefix", prefix}, 0, filepath.Join(prefix, "share/jupyter/kernels/gobayes"), "", ""},
		{"user", []string{"--user"}, 0, filepath.Join(dataDir, "kernels/gobayes"), "", ""},
		{"default is user", nil, 0, filepath.Join(dataDir, "kernels/gobayes"), "", ""},
		{"both", []string{"--user", "--prefix", prefix}, 2, "", "", ""},
		{"unknown flag", []string{"--system"}, 2, "", "", ""},
		{"memory limit", []string{"--memory-limit", "4GiB"}, 0, filepath.Join(dataDir, "kernels/gobayes"), "4GiB", ""},
		{"bad memory limit", []string{"--memory-limit", "lots"}, 2, "", "", ""},
		{"output limit", []string{"--output-limit", "64MiB"}, 0, filepath.Join(dataDir, "kernels/gobayes"), "", "64MiB"},
		{"bad output limit", []string{"--output-limit", "-3"}, 2, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(dataDir, "kernels"))
			var stdout, stderr bytes.Buffer
			if code := runInstall(tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr %s", code, tc.code, stderr.String())
			}
			if tc.specDir == "" {
				if stderr.Len() == 0 {
					t.Error("a usage error says nothing on stderr")
				}
				return
			}
			raw, err := os.ReadFile(filepath.Join(tc.specDir, "kernel.json"))
			if err != nil {
				t.Fatal(err)
			}
			var spec struct {
				Argv []string          `json:"argv"`
				Env  map[string]string `json:"env"`
			}
			json.Unmarshal(raw, &spec)
			if got := spec.Env["GOBAYES_OUTPUT_LIMIT"]; got != tc.output {
				t.Errorf("env GOBAYES_OUTPUT_LIMIT %q, want %q", got, tc.output)
			}
			if got := spec.Env["GOBAYES_MEMORY_LIMIT"]; got != tc.limit {
				t.Errorf("env GOBAYES_MEMORY_LIMIT %q, want %q", got, tc.limit)
			}
			want := []string{exe, "kernel", "-f", "{connection_file}"}
			if strings.Join(spec.Argv, " ") != strings.Join(want, " ") {
				t.Errorf("argv %q, want %q (this binary's absolute path)", spec.Argv, want)
			}
			if !strings.Contains(stdout.String(), tc.specDir) {
				t.Errorf("stdout %q does not say where the kernelspec went", stdout.String())
			}
		})
	}
}

func TestVersionLine(t *testing.T) {
	v := versionLine()
	if !strings.HasPrefix(v, "gobayes "+version+" (go") {
		t.Errorf("version line %q, want it to start with gobayes %s and the Go version", v, version)
	}
}
