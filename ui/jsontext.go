package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

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

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
