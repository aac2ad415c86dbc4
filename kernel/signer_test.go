package kernel

import (
	"strings"
	"testing"
)

func TestSignerHMACSHA256(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		parts     []string
		want      string
	}{
		// RFC 4231, test case 2.
		{"rfc4231 case 2", "Jefe", []string{"what do ya want for nothing?"},
			"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		// The same message split across frames signs the same: the MAC runs
		// over the frames in order.
		{"split frames", "Jefe", []string{"what do ya ", "want for nothing?"},
			"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		// Signing off: empty key, empty signature (jupyter_client's Session
		// with key b"" sends b"").
		{"no key", "", []string{"anything"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSigner("hmac-sha256", tc.key)
			if err != nil {
				t.Fatal(err)
			}
			var parts [][]byte
			for _, p := range tc.parts {
				parts = append(parts, []byte(p))
			}
			if got := s.Sign(parts...); got != tc.want {
				t.Errorf("Sign = %s, want %s", got, tc.want)
			}
			if !s.Verify([]byte(tc.want), parts...) {
				t.Errorf("Verify rejects its own signature")
			}
		})
	}
}

func TestSignerVerifyRejects(t *testing.T) {
	s, _ := NewSigner("hmac-sha256", "Jefe")
	good := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	msg := []byte("what do ya want for nothing?")
	for _, tc := range []struct {
		name string
		sig  string
		msg  []byte
	}{
		{"empty signature", "", msg},
		{"not hex", "zz" + good[2:], msg},
		{"truncated", good[:32], msg},
		{"one digit off", "6" + good[1:], msg},
		{"upper case of the right signature", "5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843", msg},
		{"mixed case of the right signature", strings.ToUpper(good[:9]) + good[9:], msg},
		{"right signature and a space", good + " ", msg},
		{"upper case of a wrong key", "5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3844", msg},
		{"message changed", good, []byte("what do ya want for nothing!")},
	} {
		if s.Verify([]byte(tc.sig), tc.msg) {
			t.Errorf("%s: Verify accepted a bad signature", tc.name)
		}
	}
}

func TestNewSignerSchemes(t *testing.T) {
	for _, tc := range []struct {
		scheme, key string
		ok          bool
	}{
		{"hmac-sha256", "k", true},
		{"hmac-md5", "k", false},
		{"", "k", false},
		{"hmac-md5", "", true}, // no key: nothing is signed, the scheme is moot
	} {
		_, err := NewSigner(tc.scheme, tc.key)
		if (err == nil) != tc.ok {
			t.Errorf("NewSigner(%q, %q) error %v, want ok=%v", tc.scheme, tc.key, err, tc.ok)
		}
	}
}
