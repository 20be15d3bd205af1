package frames

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
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
// as they are. It reports false on an escape JSON does not allow.
//
// The bytes are copied eight at a time into room made for all of q (what q
// decodes to is never longer than q, so a word read from q always fits):
// each word is stored whole and the output advanced only up to its first
// backslash, so the few bytes between two escapes cost one load and one
// store, not a call to memmove.
func appendUnquoted(dst, q []byte) ([]byte, bool) {
	n := len(dst)
	dst = slices.Grow(dst, len(q))
	out := dst[:cap(dst)]
	i := 0
	for {
		for i+8 <= len(q) {
			w := binary.LittleEndian.Uint64(q[i:])
			binary.LittleEndian.PutUint64(out[n:], w)
			m := hasZero(w ^ ('\\' * ones))
			if m == 0 {
				i += 8
				n += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i += k
			n += k
			break
		}
		for i < len(q) && q[i] != '\\' {
			out[n] = q[i]
			n++
			i++
		}
		if i >= len(q) {
			return out[:n], true
		}
		if i+1 >= len(q) {
			return nil, false
		}
		switch c := q[i+1]; c {
		case '"', '\\', '/':
			out[n] = c
		case 'b':
			out[n] = '\b'
		case 'f':
			out[n] = '\f'
		case 'n':
			out[n] = '\n'
		case 'r':
			out[n] = '\r'
		case 't':
			out[n] = '\t'
		case 'u':
			r, rest, ok := unicodeEscape(q[i+2:])
			if !ok {
				return nil, false
			}
			// A \uXXXX (six bytes, twelve for a pair) is never shorter
			// than the UTF-8 of its rune.
			n += utf8.EncodeRune(out[n:], r)
			i = len(q) - len(rest)
			continue
		default:
			return nil, false
		}
		n++
		i += 2
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
