package frames

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// unescapeJSONStringRef is the decoder before appendUnquoted: it decodes the inside of a JSON string (without its
// quotes) as encoding/json does, invalid surrogates becoming U+FFFD. It
// reports false on an escape JSON does not allow or an unescaped quote.
func unescapeJSONStringRef(s []byte) ([]byte, bool) {
	first := bytes.IndexByte(s, '\\')
	if first < 0 {
		if bytes.IndexByte(s, '"') >= 0 {
			return nil, false
		}
		return bytes.Clone(s), true
	}
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			out = append(out, s...)
			break
		}
		out = append(out, s[:i]...)
		if i+1 >= len(s) {
			return nil, false
		}
		c := s[i+1]
		s = s[i+2:]
		switch c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if len(s) < 4 {
				return nil, false
			}
			r := hexRune(s[:4])
			if r == utf8.RuneError && !bytes.EqualFold(s[:4], []byte("fffd")) {
				return nil, false
			}
			s = s[4:]
			if utf16.IsSurrogate(r) {
				if len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
					if pair := utf16.DecodeRune(r, hexRune(s[2:6])); pair != utf8.RuneError {
						out = utf8.AppendRune(out, pair)
						s = s[6:]
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
	}
	return out, true
}
