package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// pretty indents a JSON text for reading; anything else comes back as is.
func pretty(raw []byte) ([]byte, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return raw, false
	}
	if out, ok := indent(t); ok {
		return out, true
	}
	var buf bytes.Buffer
	buf.Grow(len(t) + len(t)/2)
	if err := json.Indent(&buf, t, "", "  "); err != nil {
		return raw, false
	}
	return buf.Bytes(), true
}

// indent is json.Indent(dst, t, "", "  ") for valid JSON, several times
// faster: strings are skipped with IndexAny rather than walked byte by byte
// through a validating state machine, which matters when a 10 MB frame is
// opened. It checks only that brackets balance and strings close; on
// anything it does not expect it gives up, and pretty falls back to
// json.Indent, which validates and says no.
func indent(t []byte) ([]byte, bool) {
	out := make([]byte, 0, len(t)+len(t)/2)
	depth := 0
	newline := func() {
		out = append(out, '\n')
		for range depth {
			out = append(out, ' ', ' ')
		}
	}
	nextSignificant := func(i int) byte {
		for ; i < len(t); i++ {
			if c := t[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c
			}
		}
		return 0
	}
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := i + 1
			for {
				k := bytes.IndexAny(t[j:], "\"\\")
				if k < 0 {
					return nil, false
				}
				j += k
				if t[j] == '"' {
					break
				}
				j += 2
				if j > len(t) {
					return nil, false
				}
			}
			out = append(out, t[i:j+1]...)
			i = j
		case '{', '[':
			out = append(out, c)
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			if nextSignificant(i+1) == closer {
				// json.Indent keeps empty objects and arrays on one line.
				for i++; t[i] != closer; i++ {
				}
				out = append(out, closer)
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			if depth < 0 {
				return nil, false
			}
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, ':', ' ')
		default:
			out = append(out, c)
		}
	}
	return out, depth == 0
}

// A jsonProblem says where a JSON text breaks, for people: line and column
// (1-based, columns in characters) and what went wrong.
type jsonProblem struct {
	line, col int
	msg       string
	text      string // the offending line
}

func (p *jsonProblem) String() string {
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", p.line, p.col, p.msg)
}

// checkJSON returns nil for a single complete JSON value, or where it breaks.
func checkJSON(text string) *jsonProblem {
	data := []byte(text)
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	err := dec.Decode(&v)
	off := len(data)
	var msg string
	switch se := (*json.SyntaxError)(nil); {
	case err == nil:
		// Anything after the value is an error too.
		off = int(dec.InputOffset())
		for off < len(data) && (data[off] == ' ' || data[off] == '\n' || data[off] == '\t' || data[off] == '\r') {
			off++
		}
		if off == len(data) {
			return nil
		}
		msg = "unexpected text after the JSON value"
	case errors.As(err, &se):
		off = int(se.Offset) - 1
		msg = strings.TrimPrefix(se.Error(), "invalid character ")
		msg = "unexpected " + msg
		if strings.HasPrefix(se.Error(), "unexpected end") {
			msg = "unexpected end of input"
		}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		msg = "unexpected end of input"
		if strings.TrimSpace(text) == "" {
			msg = "empty: arguments must be a JSON object, e.g. {}"
		}
	default:
		msg = err.Error()
	}
	off = max(min(off, len(data)), 0)
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line, lineStart = line+1, i+1
		}
	}
	col := len([]rune(string(data[lineStart:off]))) + 1
	end := bytes.IndexByte(data[lineStart:], '\n')
	lt := data[lineStart:]
	if end >= 0 {
		lt = data[lineStart : lineStart+end]
	}
	return &jsonProblem{line: line, col: col, msg: msg, text: string(lt)}
}

// A member is one key of a JSON object, in the order it was written.
type member struct {
	key   string
	value json.RawMessage
}

// members returns an object's keys in document order (Go maps lose it, and a
// schema's property order is how its author meant it to be read).
func members(raw json.RawMessage) []member {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, member{k, v})
	}
	return out
}

// compact renders a small JSON value on one line.
func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
