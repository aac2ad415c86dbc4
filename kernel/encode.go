package kernel

import (
	"strconv"
)

// Encoders written by hand for what every request sends: the header of
// each message, the status messages, execute_input and a plain
// execute_reply. Their bytes are those marshal gives the same values
// (TestHandEncodersMatchJSON): fields in the struct's order, map keys
// sorted, no HTML escaping; only the reflection is saved.

// rawContent is content the kernel has already encoded as JSON.
type rawContent []byte

// statusContent is the content of each status message.
var statusContent = map[string]rawContent{}

func init() {
	for _, s := range []string{"starting", "busy", "idle"} {
		statusContent[s] = rawContent(`{"execution_state":"` + s + `"}`)
	}
}

// appendJSONString appends s as a JSON string, as marshal writes it.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			q, err := marshal(s) // escapes, and what encoding/json does to UTF-8
			if err != nil {
				return append(b, `""`...)
			}
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSON appends h as marshal encodes a Header.
func (h *Header) appendJSON(b []byte) []byte {
	b = append(b, `{"msg_id":`...)
	b = appendJSONString(b, h.MsgID)
	b = append(b, `,"session":`...)
	b = appendJSONString(b, h.Session)
	b = append(b, `,"username":`...)
	b = appendJSONString(b, h.Username)
	b = append(b, `,"date":`...)
	b = appendJSONString(b, h.Date)
	b = append(b, `,"msg_type":`...)
	b = appendJSONString(b, h.MsgType)
	b = append(b, `,"version":`...)
	b = appendJSONString(b, h.Version)
	return append(b, '}')
}

// executeInputContent is execute_input's content.
func executeInputContent(code string, count int) rawContent {
	b := make([]byte, 0, len(code)+40)
	b = append(b, `{"code":`...)
	b = appendJSONString(b, code)
	b = append(b, `,"execution_count":`...)
	b = strconv.AppendInt(b, int64(count), 10)
	return append(b, '}')
}

// executeReplyOK is the content of an execute_reply of status ok with no
// payload and no user expressions.
func executeReplyOK(count int) rawContent {
	b := make([]byte, 0, 96)
	b = append(b, `{"execution_count":`...)
	b = strconv.AppendInt(b, int64(count), 10)
	return append(b, `,"payload":[],"status":"ok","user_expressions":{}}`...)
}
