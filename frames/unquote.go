package frames

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// A recording holds each frame's bytes as a JSON string: decoding them is
// the largest part of reading a large recording (jig stats over a million
// calls), and a result's text copy of its structuredContent, JSON quoted
// twice over, has an escape every few bytes.

// appendUnquoted appends to dst what the escapes of q, the inside of a JSON
// string without its quotes, decode to (as encoding/json decodes them,
// invalid surrogates becoming U+FFFD); bytes that are no escape are copied
// as they are, from one escape to the next. It reports false on an escape
// JSON does not allow.
func appendUnquoted(dst, q []byte) ([]byte, bool) {
	start := 0
	for i := 0; ; {
		i = nextBackslash(q, i)
		if i >= len(q) {
			return append(dst, q[start:]...), true
		}
		dst = append(dst, q[start:i]...)
		if i+1 >= len(q) {
			return nil, false
		}
		switch c := q[i+1]; c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, rest, ok := unicodeEscape(q[i+2:])
			if !ok {
				return nil, false
			}
			dst = utf8.AppendRune(dst, r)
			i = len(q) - len(rest) - 2
		default:
			return nil, false
		}
		i += 2
		start = i
	}
}

// unicodeEscape decodes the four hex digits after a \u (q starts after the
// u), with the low surrogate's \uXXXX after a high one, and returns the
// rune and the rest of q.
func unicodeEscape(q []byte) (rune, []byte, bool) {
	if len(q) < 4 {
		return 0, nil, false
	}
	r := hexRune(q[:4])
	if r == utf8.RuneError && !bytes.EqualFold(q[:4], []byte("fffd")) {
		return 0, nil, false
	}
	q = q[4:]
	if utf16.IsSurrogate(r) {
		if len(q) >= 6 && q[0] == '\\' && q[1] == 'u' {
			if pair := utf16.DecodeRune(r, hexRune(q[2:6])); pair != utf8.RuneError {
				return pair, q[6:], true
			}
		}
		r = utf8.RuneError
	}
	return r, q, true
}

// nextBackslash is the index of the first backslash of q at or after i, or
// len(q): eight bytes at a time, for in a frame's quoted bytes the next
// escape is most often a few bytes away, where IndexByte's call costs more
// than the search.
func nextBackslash(q []byte, i int) int {
	for stop := min(len(q), i+64); i+8 <= stop; i += 8 {
		if m := hasZero(binary.LittleEndian.Uint64(q[i:]) ^ ('\\' * ones)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if j := bytes.IndexByte(q[i:], '\\'); j >= 0 {
		return i + j
	}
	return len(q)
}
