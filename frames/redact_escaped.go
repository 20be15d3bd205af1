package frames

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// A server may write a secret JSON-escaped — "\u0073ecret", "a\/b", every
// character as \u00XX — and the plain search for the value misses it. These
// functions read the escapes the way a JSON decoder would, find the values
// in that decoded view, and map each match back to the raw bytes it came
// from, so the raw text is redacted where it stands and everything else
// keeps its exact bytes.

// escapedMatches returns the raw [start, end) ranges of b in which a value
// appears once JSON escapes are decoded. Matches that need no decoding are
// the plain search's and are not reported twice.
func escapedMatches(b []byte, values []string) [][2]int {
	view, from := decodeEscapes(b, values)
	if view == nil {
		return nil
	}
	var out [][2]int
	for _, v := range values {
		for off := 0; ; {
			i := bytes.Index(view[off:], []byte(v))
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(v)
			rs, last := int(from[s]), int(from[e-1])
			re := last + escapeLen(b, last)
			if re-rs != len(v) { // not the plain bytes: an escape is inside
				out = append(out, [2]int{rs, re})
			}
			off = e
		}
	}
	return out
}

// replaceEscaped replaces every escaped occurrence of a value with the value
// placeholder.
func replaceEscaped(b []byte, values []string) []byte {
	return replaceRanges(b, escapedMatches(b, values))
}

// replaceRanges replaces each range of b with the value placeholder;
// overlapping ranges (one value inside another, or two that share bytes)
// merge into one, so no part of either is left.
func replaceRanges(b []byte, ms [][2]int) []byte {
	if len(ms) == 0 {
		return b
	}
	sortRanges(ms)
	var buf bytes.Buffer
	last := 0
	for _, m := range ms {
		if m[0] < last {
			if m[1] > last {
				last = m[1]
			}
			continue
		}
		buf.Write(b[last:m[0]])
		buf.WriteString(Placeholder("value"))
		last = m[1]
	}
	buf.Write(b[last:])
	return buf.Bytes()
}

func sortRanges(ms [][2]int) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j][0] < ms[j-1][0]; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// decodeEscapes returns b with its JSON escapes decoded, and for each byte
// of the view the raw offset of the byte or escape it came from. It returns
// nil when no value can be hidden by b's escapes: b has no \u or \/ (which
// can stand for any character, or for the '/' many tokens hold) and no value
// holds a character JSON must escape (" \ or a control character, which
// \" \\ \n… then hide). Frames full of \" (JSON inside a text block) skip
// the work unless a secret could be written that way.
func decodeEscapes(b []byte, values []string) (view []byte, from []int32) {
	if !bytes.Contains(b, []byte(`\u`)) && !bytes.Contains(b, []byte(`\/`)) && !anyNeedsEscape(values) {
		return nil, nil
	}
	view = make([]byte, 0, len(b))
	from = make([]int32, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != '\\' || i+1 >= len(b) {
			view, from = append(view, b[i]), append(from, int32(i))
			i++
			continue
		}
		n := escapeLen(b, i)
		var r rune
		switch c := b[i+1]; c {
		case 'u':
			if n != 6 {
				view, from = append(view, b[i]), append(from, int32(i))
				i++
				continue
			}
			v, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
			r = rune(v)
		case 'n':
			r = '\n'
		case 't':
			r = '\t'
		case 'r':
			r = '\r'
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		default: // \" \\ \/ and anything else: the character itself
			r = rune(c)
		}
		var enc [utf8.UTFMax]byte
		for _, c := range enc[:utf8.EncodeRune(enc[:], r)] {
			view, from = append(view, c), append(from, int32(i))
		}
		i += n
	}
	return view, from
}

// escapeLen is the length of the escape (or plain byte) at b[i].
func escapeLen(b []byte, i int) int {
	if b[i] != '\\' || i+1 >= len(b) {
		return 1
	}
	if b[i+1] == 'u' {
		if i+6 <= len(b) {
			if _, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32); err == nil {
				return 6
			}
		}
		return 1
	}
	return 2
}

// anyNeedsEscape reports whether a value holds a character a JSON string
// must escape.
func anyNeedsEscape(values []string) bool {
	for _, v := range values {
		for i := 0; i < len(v); i++ {
			if c := v[i]; c == '"' || c == '\\' || c < 0x20 {
				return true
			}
		}
	}
	return false
}
