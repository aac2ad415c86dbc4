package kernel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
)

// Signer signs and verifies messages with HMAC-SHA256 over the header,
// parent header, metadata and content frames, as the protocol prescribes.
// A Signer with an empty key signs nothing and accepts every message.
type Signer struct {
	key []byte
}

// NewSigner returns the signer for a connection file's signature_scheme and
// key. Only hmac-sha256 is supported; an empty key disables signing.
func NewSigner(scheme, key string) (*Signer, error) {
	if key == "" {
		return &Signer{}, nil
	}
	if scheme != "hmac-sha256" {
		return nil, fmt.Errorf("kernel: signature_scheme %q is not supported; use hmac-sha256", scheme)
	}
	return &Signer{key: []byte(key)}, nil
}

// Enabled reports whether messages are signed.
func (s *Signer) Enabled() bool { return len(s.key) > 0 }

func (s *Signer) mac(parts [][]byte) hash.Hash {
	m := hmac.New(sha256.New, s.key)
	for _, p := range parts {
		m.Write(p)
	}
	return m
}

// Sign returns the hex signature of the frames, "" when signing is off.
func (s *Signer) Sign(parts ...[]byte) string {
	if !s.Enabled() {
		return ""
	}
	return hex.EncodeToString(s.mac(parts).Sum(nil))
}

// Verify reports whether sig is the signature of the frames. With signing
// off every message verifies.
func (s *Signer) Verify(sig []byte, parts ...[]byte) bool {
	if !s.Enabled() {
		return true
	}
	got, err := hex.DecodeString(string(sig))
	if err != nil || len(got) != sha256.Size {
		return false
	}
	return hmac.Equal(got, s.mac(parts).Sum(nil))
}
