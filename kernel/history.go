package kernel

import (
	"encoding/binary"
	"unicode/utf8"
)

// History keeps the cells of this kernel's session, as IPython's history
// manager does for its current session, to answer history_request. It
// keeps the latest cells whose source and output fit in Limit bytes (the
// latest cell always, whatever its size), so that neither the kernel nor
// a history_reply grows with the session; an output is kept up to
// historyOutputMax bytes.
//
// The cells are records in one byte arena (line, source, output, each
// length-prefixed), not a struct and two strings each: a small cell costs
// its bytes and an offset, where separate values cost about a hundred
// bytes of heap, which a long session saw as the kernel's memory growing
// cell after cell. Entries are decoded when a request asks for them.
type History struct {
	Limit int    // bytes of source and output kept; 0 means no limit
	buf   []byte // the records, the oldest kept one at offs[0]
	offs  []int  // where each kept record begins in buf
	size  int    // bytes of source and output kept
}

// DefaultHistoryLimit is Config.HistoryLimit's default: thousands of cells
// of ordinary size.
const DefaultHistoryLimit = 16 << 20

// historyOutputMax bounds the text of a stored result; a longer one is
// kept cut, ending with "…".
const historyOutputMax = 64 << 10

// HistoryEntry is one stored cell: its execution count (Line), its source
// and the text/plain of its result (nil when it had none).
type HistoryEntry struct {
	Line   int
	Input  string
	Output *string
}

// historySession is the session number this kernel reports: there is only
// the current session (IPython numbers sessions from 1; 0 means current).
const historySession = 1

// Add stores a cell and forgets the oldest ones past Limit.
func (h *History) Add(line int, input string, output *string) {
	if output != nil && len(*output) > historyOutputMax {
		i := historyOutputMax
		for i > 0 && !utf8.RuneStart((*output)[i]) {
			i--
		}
		cut := (*output)[:i] + "…"
		output = &cut
	}
	h.offs = append(h.offs, len(h.buf))
	h.buf = binary.AppendUvarint(h.buf, uint64(line))
	h.buf = binary.AppendUvarint(h.buf, uint64(len(input)))
	h.buf = append(h.buf, input...)
	n := len(input)
	if output == nil {
		h.buf = append(h.buf, 0)
	} else {
		h.buf = append(h.buf, 1)
		h.buf = binary.AppendUvarint(h.buf, uint64(len(*output)))
		h.buf = append(h.buf, *output...)
		n += len(*output)
	}
	h.size += n
	for h.Limit > 0 && h.size > h.Limit && len(h.offs) > 1 {
		h.size -= h.entry(0).size()
		h.offs = h.offs[1:]
	}
	// The arena drops its forgotten front once that is most of it.
	if front := h.offs[0]; front > 4096 && front > len(h.buf)/2 {
		h.buf = append([]byte(nil), h.buf[front:]...)
		offs := make([]int, len(h.offs))
		for i, o := range h.offs {
			offs[i] = o - front
		}
		h.offs = offs
	}
}

// entry decodes the i-th kept cell.
func (h *History) entry(i int) HistoryEntry {
	b := h.buf[h.offs[i]:]
	line, k := binary.Uvarint(b)
	b = b[k:]
	n, k := binary.Uvarint(b)
	b = b[k:]
	e := HistoryEntry{Line: int(line), Input: string(b[:n])}
	b = b[n:]
	if b[0] == 1 {
		b = b[1:]
		n, k = binary.Uvarint(b)
		out := string(b[k : k+int(n)])
		e.Output = &out
	}
	return e
}

// len is the number of cells kept.
func (h *History) len() int { return len(h.offs) }

func (e HistoryEntry) size() int {
	n := len(e.Input)
	if e.Output != nil {
		n += len(*e.Output)
	}
	return n
}

// Tail returns the last n cells.
func (h *History) Tail(n int) []HistoryEntry {
	if n < 0 {
		n = 0
	}
	if n > h.len() {
		n = h.len()
	}
	out := make([]HistoryEntry, 0, n)
	for i := h.len() - n; i < h.len(); i++ {
		out = append(out, h.entry(i))
	}
	return out
}

// Range returns the cells with start <= Line < stop; stop <= 0 means to
// the end. session 0 and historySession are this session; any other
// session has no stored cells.
func (h *History) Range(session, start, stop int) []HistoryEntry {
	if session != 0 && session != historySession {
		return nil
	}
	var out []HistoryEntry
	for i := range h.len() {
		e := h.entry(i)
		if e.Line >= start && (stop <= 0 || e.Line < stop) {
			out = append(out, e)
		}
	}
	return out
}

// Search returns the cells whose whole source matches the glob pattern
// (SQLite GLOB, as IPython uses: * ? [set] [^set], case-sensitive), oldest
// first. With unique only the latest of equal sources is kept; n > 0 keeps
// the last n.
func (h *History) Search(pattern string, n int, unique bool) []HistoryEntry {
	var out []HistoryEntry
	seen := map[string]bool{}
	for i := h.len() - 1; i >= 0; i-- {
		e := h.entry(i)
		if !globMatch([]rune(pattern), []rune(e.Input)) {
			continue
		}
		if unique {
			if seen[e.Input] {
				continue
			}
			seen[e.Input] = true
		}
		out = append(out, e)
		if n > 0 && len(out) == n {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// globMatch reports whether s matches pattern entirely.
func globMatch(p, s []rune) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			if len(p) == 0 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if globMatch(p, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if len(s) == 0 {
				return false
			}
			p, s = p[1:], s[1:]
		case '[':
			if len(s) == 0 {
				return false
			}
			ok, rest, valid := matchSet(p, s[0])
			if !valid { // an unclosed [ is a literal, as in SQLite
				if s[0] != '[' {
					return false
				}
				p, s = p[1:], s[1:]
				continue
			}
			if !ok {
				return false
			}
			p, s = rest, s[1:]
		default:
			if len(s) == 0 || p[0] != s[0] {
				return false
			}
			p, s = p[1:], s[1:]
		}
	}
	return len(s) == 0
}

// matchSet matches c against the set at the start of p ("[...]"), returning
// the pattern after the set; valid is false when the set is not closed.
func matchSet(p []rune, c rune) (ok bool, rest []rune, valid bool) {
	i := 1
	negate := false
	if i < len(p) && p[i] == '^' {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return ok != negate, p[i+1:], true
		}
		first = false
		lo := p[i]
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			if lo <= c && c <= p[i+2] {
				ok = true
			}
			i += 3
			continue
		}
		if c == lo {
			ok = true
		}
		i++
	}
	return false, nil, false
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func (k *Kernel) historyRequest(ch Channel, req *Message) {
	var r historyRequest
	if !k.decode(ch, req, &r) {
		return
	}
	n := 0
	if r.N != nil {
		n = *r.N
	}
	var entries []HistoryEntry
	switch r.HistAccessType {
	case "tail":
		if r.N == nil {
			n = 10 // IPython's default
		}
		entries = k.history.Tail(n)
	case "range":
		entries = k.history.Range(r.Session, r.Start, r.Stop)
	case "search":
		pattern := r.Pattern
		if pattern == "" {
			pattern = "*"
		}
		entries = k.history.Search(pattern, n, r.Unique)
	default:
		k.log.Printf("kernel: history_request: hist_access_type %q is not one of tail, range, search", r.HistAccessType)
	}
	rows := make([]any, 0, len(entries))
	for _, e := range entries {
		if r.Output {
			var out any
			if e.Output != nil {
				out = *e.Output
			}
			rows = append(rows, []any{historySession, e.Line, []any{e.Input, out}})
		} else {
			rows = append(rows, []any{historySession, e.Line, e.Input})
		}
	}
	k.reply(ch, req, "history_reply", map[string]any{"status": "ok", "history": rows})
}
