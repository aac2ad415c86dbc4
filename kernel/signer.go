package kernel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"sync"
)

// Signer signs and verifies messages with HMAC-SHA256 over the header,
// parent header, metadata and content frames, as the protocol prescribes.
// A Signer with an empty key signs nothing and accepts every message.
type Signer struct {
	key  []byte
	macs sync.Pool // of hash.Hash: HMACs with the key, reset and reused
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

// sum appends the HMAC of the frames to b. Every message is signed or
// verified: the HMACs are reused rather than made (and their keys
// hashed) afresh each time.
func (s *Signer) sum(b []byte, parts [][]byte) []byte {
	m, _ := s.macs.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, s.key)
	} else {
		m.Reset()
	}
	for _, p := range parts {
		m.Write(p)
	}
	b = m.Sum(b)
	s.macs.Put(m)
	return b
}

// Sign returns the hex signature of the frames, "" when signing is off.
func (s *Signer) Sign(parts ...[]byte) string {
	if !s.Enabled() {
		return ""
	}
	var b [sha256.Size]byte
	return hex.EncodeToString(s.sum(b[:0], parts))
}

// Verify reports whether sig is the signature of the frames: the lowercase
// hex digest, compared exactly (as jupyter_client does), so that one
// message has one signature and the replay check cannot be dodged by
// changing the case of its digits. With signing off every message
// verifies.
func (s *Signer) Verify(sig []byte, parts ...[]byte) bool {
	if !s.Enabled() {
		return true
	}
	var b [sha256.Size]byte
	var want [2 * sha256.Size]byte
	hex.Encode(want[:], s.sum(b[:0], parts))
	return hmac.Equal(sig, want[:])
}
