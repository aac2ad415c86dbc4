package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConnectionFile(t *testing.T) {
	// As jupyter_client writes it (jupyter_client.connect.write_connection_file).
	const good = `{"shell_port": 53794, "iopub_port": 53795, "stdin_port": 53796, "control_port": 53797,
 "hb_port": 53798, "ip": "127.0.0.1", "key": "5d2b1f3c-0c6b4d7e", "transport": "tcp",
 "signature_scheme": "hmac-sha256", "kernel_name": "gobayes"}`
	for _, tc := range []struct {
		name, json string
		errHas     string
	}{
		{"jupyter_client file", good, ""},
		{"bad json", "{", "not valid JSON"},
		{"no port", strings.Replace(good, `"hb_port": 53798`, `"hb_port": 0`, 1), "hb_port"},
		{"udp", strings.Replace(good, `"tcp"`, `"udp"`, 1), "transport"},
		{"md5", strings.Replace(good, "hmac-sha256", "hmac-md5", 1), "signature_scheme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kernel.json")
			os.WriteFile(path, []byte(tc.json), 0o600)
			info, err := ReadConnectionFile(path)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Endpoint(info.ShellPort); got != "tcp://127.0.0.1:53794" {
				t.Errorf("shell endpoint %s", got)
			}
			if info.Key != "5d2b1f3c-0c6b4d7e" || info.HBPort != 53798 {
				t.Errorf("read %+v", info)
			}
		})
	}
	if _, err := ReadConnectionFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestEndpointIPC(t *testing.T) {
	// jupyter_client names ipc endpoints "ipc://IP-PORT", IP being a path.
	info := ConnectionInfo{Transport: "ipc", IP: "/tmp/kernel-1"}
	if got := info.Endpoint(5); got != "ipc:///tmp/kernel-1-5" {
		t.Errorf("Endpoint = %s, want ipc:///tmp/kernel-1-5", got)
	}
}
