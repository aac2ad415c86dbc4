package kernel

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

// ConnectionInfo is the content of the connection file Jupyter writes before
// starting a kernel: where to bind the five sockets and how to sign messages.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"` // "hmac-sha256"
	Key             string `json:"key"`              // "" disables signing
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var info ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return info, fmt.Errorf("kernel: cannot read the connection file: %w", err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("kernel: connection file %s is not valid JSON: %w", path, err)
	}
	if err := info.check(); err != nil {
		return info, fmt.Errorf("kernel: connection file %s: %w", path, err)
	}
	return info, nil
}

func (c ConnectionInfo) check() error {
	switch c.Transport {
	case "tcp", "ipc":
	default:
		return fmt.Errorf("transport %q is not supported (use tcp or ipc)", c.Transport)
	}
	if c.IP == "" {
		return fmt.Errorf("ip is empty")
	}
	ports := []struct {
		name string
		port int
	}{
		{"shell_port", c.ShellPort}, {"control_port", c.ControlPort}, {"iopub_port", c.IOPubPort},
		{"stdin_port", c.StdinPort}, {"hb_port", c.HBPort},
	}
	for _, p := range ports {
		if p.port <= 0 || p.port > 65535 {
			return fmt.Errorf("%s is %d, want a port in 1..65535", p.name, p.port)
		}
	}
	if _, err := NewSigner(c.SignatureScheme, c.Key); err != nil {
		return err
	}
	return nil
}

// Endpoint is the ZeroMQ address of one of the ports, as Jupyter forms it:
// tcp://IP:PORT, or ipc://IP-PORT (IP is then a path prefix).
func (c ConnectionInfo) Endpoint(port int) string {
	if c.Transport == "ipc" {
		return "ipc://" + c.IP + "-" + strconv.Itoa(port)
	}
	return "tcp://" + c.IP + ":" + strconv.Itoa(port)
}
