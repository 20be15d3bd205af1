package frames

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// A Span is where one JSON string literal lies in a frame's bytes, quotes
// included: Raw[Start:End]. A Scanner asked for them (Scanner.Spans) lists
// the long ones it met while decoding the frame, so that a reader passing
// over a result's text — a tool's JSON answer carried again as a string,
// quoted twice in the recording — can jump to its end instead of reading
// it a second time (fixture.Walker.MembersAtSpans).
type Span struct{ Start, End int }

// MinSpan is the shortest string literal a Scanner lists: shorter ones
// cost less to read than to look up.
const MinSpan = 64

// unquoteSpans is unescapeJSONString for a body with an escape: the same
// bytes and the same acceptance as appendUnquoted, and besides, appended to
// spans, every string literal of at least MinSpan bytes of the JSON the
// bytes decode to that a JSON reader would accept as a string (no control
// character, every escape one JSON allows, \u with four hex digits).
//
// It follows the decoded text's strings as it decodes: the quotes and
// backslashes of the text inside come from the body's own escapes (\" and
// \\), so only the escape branch tracks them. Anything it does not follow
// — a bare quote or control character in the body, an escape inside the
// text it cannot vouch for, a \u that decodes to a quote, a backslash or a
// control character — ends the listing: the rest is decoded by
// appendUnquoted and the spans found before it stand (each is a fact about
// its own bytes).
func unquoteSpans(q []byte, spans []Span) ([]byte, []Span, bool) {
	out := make([]byte, len(q)) // what q decodes to is never longer
	n, i := 0, 0
	inStr, start := false, 0
	for {
		for i+8 <= len(q) {
			w := binary.LittleEndian.Uint64(q[i:])
			binary.LittleEndian.PutUint64(out[n:], w)
			m := hasZero(w^('\\'*ones)) | hasZero(w^('"'*ones)) | (w-0x20*ones)&^w&highs
			if m != 0 {
				k := bits.TrailingZeros64(m) >> 3 // the lowest bit is exact
				i += k
				n += k
				goto special
			}
			i += 8
			n += 8
		}
		for i < len(q) && !spanSpecial[q[i]] {
			out[n] = q[i]
			n++
			i++
		}
		if i >= len(q) {
			return out[:n], spans, true
		}
	special:
		if q[i] != '\\' || i+1 >= len(q) {
			return rest(out, n, q[i:], spans)
		}
		switch c := q[i+1]; c {
		case '"':
			out[n] = '"'
			n++
			i += 2
			if !inStr {
				inStr, start = true, n-1
			} else {
				inStr = false
				if n-start >= MinSpan {
					spans = append(spans, Span{start, n})
				}
			}
		case '/':
			out[n] = '/'
			n++
			i += 2
		case '\\':
			// A backslash of the text: an escape of its own, whose
			// letter is the next byte (n, t, u…) or the next escape (\"
			// \\ \/), taken here with it.
			if !inStr {
				return rest(out, n, q[i:], spans)
			}
			j := i + 2
			switch {
			case j < len(q) && textLetter[q[j]]:
				out[n], out[n+1] = '\\', q[j]
				n += 2
				i = j + 1
			case j+1 < len(q) && q[j] == '\\' && (q[j+1] == '"' || q[j+1] == '\\' || q[j+1] == '/'):
				out[n], out[n+1] = '\\', q[j+1]
				n += 2
				i = j + 2
			case j+4 < len(q) && q[j] == 'u' && isHex(q[j+1]) && isHex(q[j+2]) && isHex(q[j+3]) && isHex(q[j+4]):
				out[n], out[n+1] = '\\', 'u'
				copy(out[n+2:n+6], q[j+1:j+5])
				n += 6
				i = j + 5
			default:
				return rest(out, n, q[i:], spans)
			}
		case 'b', 'f', 'n', 'r', 't':
			if inStr {
				return rest(out, n, q[i:], spans) // a control character in the text's string
			}
			out[n] = unescapedLetter[c]
			n++
			i += 2
		case 'u':
			r, after, ok := unicodeEscape(q[i+2:])
			if !ok {
				return nil, nil, false
			}
			if r < 0x20 || r == '"' || r == '\\' {
				return rest(out, n, q[i:], spans)
			}
			n += utf8.EncodeRune(out[n:], r)
			i = len(q) - len(after)
		default:
			return nil, nil, false
		}
	}
}

// rest decodes the rest of the body plainly after out[:n], which has room
// for it.
func rest(out []byte, n int, q []byte, spans []Span) ([]byte, []Span, bool) {
	raw, ok := appendUnquoted(out[:n], q)
	if !ok {
		return nil, nil, false
	}
	return raw, spans, true
}

// spanSpecial marks the bytes unquoteSpans stops at: a backslash, and the
// bare quotes and control characters it does not follow.
var spanSpecial = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// textLetter marks the letters of one-letter escapes that are plain bytes
// in the body (a quote and a backslash are escapes there themselves).
var textLetter = [256]bool{'/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

var unescapedLetter = [256]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
