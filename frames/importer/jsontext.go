package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonProblem says where and how a JSON text breaks: "it ends after 812
// bytes, before the JSON is complete", "invalid character 'x' ... at byte 40".
func jsonProblem(b []byte) string {
	var v any
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return "valid JSON"
	case errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end"):
		return fmt.Sprintf("it ends after %d bytes, before the JSON is complete", len(b))
	case errors.As(err, &se):
		return fmt.Sprintf("%v at byte %d", se, syntaxOffset(b))
	}
	return err.Error()
}

// syntaxOffset is the offset of the byte where a JSON text stops being
// valid, or its length when it ends too soon.
func syntaxOffset(b []byte) int {
	var v any
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(b, &v), &se) {
		if strings.Contains(se.Error(), "unexpected end") {
			return len(b)
		}
		return max(int(se.Offset)-1, 0)
	}
	return len(b)
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int) (int, int) {
	off = min(max(off, 0), len(b))
	line := bytes.Count(b[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}

// salvage recovers the complete part of a JSON document that was cut off
// (a transcript saved while it was being written, a paste that lost its
// end): it keeps every value that was complete, byte for byte, and closes
// the arrays and objects still open. It returns nil when nothing complete
// came before the break, and the offset where the document breaks.
//
// Only a document that is a valid prefix is salvaged: one with a syntax
// error in the middle is not guessed at.
func salvage(b []byte) ([]byte, int) {
	broken := syntaxOffset(b)
	if broken < len(b) && len(bytes.TrimSpace(b[broken:])) > 0 {
		// A syntax error before the end: salvage only up to it.
		b = b[:broken]
	}
	// A cut point is where the elements of the innermost open array are
	// complete: just before a comma between them, or just after one that
	// closes. A cut inside an object would keep half of it (a tool_use
	// without its name), so objects are only ever kept whole, except for
	// those still open around the array. stack holds the open containers.
	var stack []byte
	cut, cutStack := -1, []byte(nil)
	inString, escaped := false, false
	for i, ch := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
			continue
		}
		switch ch {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, ch)
		case '}', ']':
			if len(stack) == 0 {
				return nil, broken
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1] == '[' {
				cut, cutStack = i+1, append(cutStack[:0], stack...)
			}
		case ',':
			if len(stack) > 0 && stack[len(stack)-1] == '[' {
				cut, cutStack = i, append(cutStack[:0], stack...)
			}
		}
	}
	if cut < 0 {
		return nil, broken
	}
	out := append([]byte(nil), bytes.TrimRight(b[:cut], " \t\r\n")...)
	for i := len(cutStack) - 1; i >= 0; i-- {
		if cutStack[i] == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	if !json.Valid(out) {
		return nil, broken
	}
	return out, broken
}
