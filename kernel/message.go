package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// ProtocolVersion is the version of the Jupyter messaging protocol spoken.
const ProtocolVersion = "5.3"

// delimiter separates the routing identities from the message proper.
const delimiter = "<IDS|MSG>"

// Header is a message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message. Parent, Metadata and Content hold JSON
// objects; a received message's header is also kept verbatim (raw) so that
// replies echo it unchanged as their parent header.
type Message struct {
	Identities [][]byte
	Header     Header
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte

	raw json.RawMessage // the header frame as received
	sig []byte          // the signature as received
}

// ErrBadSignature is returned by Decode for a message whose signature is
// missing or wrong: such a message must be dropped, never executed.
var ErrBadSignature = errors.New("kernel: message signature does not verify; message dropped")

// Decode parses the frames of a received message and verifies its
// signature.
func Decode(frames [][]byte, s *Signer) (Message, error) {
	var m Message
	d := -1
	for i, f := range frames {
		if string(f) == delimiter {
			d = i
			break
		}
	}
	if d < 0 {
		return m, fmt.Errorf("kernel: message has no %s delimiter; dropped", delimiter)
	}
	if len(frames) < d+6 {
		return m, fmt.Errorf("kernel: message has %d frames after the delimiter, want at least 5; dropped", len(frames)-d-1)
	}
	sig, parts := frames[d+1], frames[d+2:d+6]
	if !s.Verify(sig, parts...) {
		return m, ErrBadSignature
	}
	for i, p := range parts {
		// JSON is UTF-8, and the header goes back out as replies' parent:
		// bytes that are not would reach every client's decoder.
		if !utf8.Valid(p) {
			return m, fmt.Errorf("kernel: message %s is not UTF-8; dropped", [...]string{"header", "parent header", "metadata", "content"}[i])
		}
	}
	m.Identities = frames[:d]
	m.sig = sig
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return m, fmt.Errorf("kernel: message header is not valid JSON: %w", err)
	}
	m.raw = parts[0]
	m.Parent = parts[1]
	m.Metadata = parts[2]
	m.Content = parts[3]
	m.Buffers = frames[d+6:]
	return m, nil
}

// Encode returns the frames of m, signed by s.
func (m Message) Encode(s *Signer) ([][]byte, error) {
	header := m.Header.appendJSON(nil)
	parts := [][]byte{header, orEmpty(m.Parent), orEmpty(m.Metadata), orEmpty(m.Content)}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(delimiter), []byte(s.Sign(parts...)))
	frames = append(frames, parts...)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// RawHeader is the header as it was received (or, for a message made here,
// as it will be sent): what a reply carries as its parent header.
func (m Message) RawHeader() json.RawMessage {
	if m.raw != nil {
		return m.raw
	}
	return m.Header.appendJSON(nil)
}

// decodeContent unmarshals the content of a received message into v.
func (m Message) decodeContent(v any) error {
	if len(m.Content) == 0 {
		return nil
	}
	err := json.Unmarshal(m.Content, v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("kernel: %s: field %q: got %s, want %s", m.Header.MsgType, te.Field, withArticle(te.Value), jsonKind(te.Type))
	case errors.As(err, &te):
		return fmt.Errorf("kernel: %s: content is %s, want an object", m.Header.MsgType, withArticle(te.Value))
	default:
		return fmt.Errorf("kernel: %s: content is not valid JSON: %w", m.Header.MsgType, err)
	}
}

// withArticle is "a number", "an object": what encoding/json calls a value.
func withArticle(v string) string {
	if strings.HasPrefix(v, "a") || strings.HasPrefix(v, "o") {
		return "an " + v
	}
	return "a " + v
}

// jsonKind says in JSON's words what a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer of at most 63 bits"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Map:
		e := jsonKind(t.Elem())
		return "an object whose values are each " + e
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

func orEmpty(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("{}")
	}
	return b
}

// marshal is json.Marshal without HTML escaping, so that text/html bundles
// stay readable on the wire and in golden files.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("kernel: cannot encode message: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
