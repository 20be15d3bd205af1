package frames

import "encoding/binary"

// validJSON reports whether b is exactly one JSON value, with blanks around
// it allowed: the same answer as encoding/json.Valid, which a fuzz test
// holds it to. Classify asks this of every frame; encoding/json's scanner
// steps through a state function per byte (~300 MB/s), while this copies
// over the plain runs inside strings eight bytes at a time. Nesting is kept
// on an explicit stack, so a hostile frame nested a million deep costs a
// million bytes, not a million stack frames.
func validJSON(b []byte) bool {
	end, ok := validValue(b, skipBlanks(b, 0))
	return ok && skipBlanks(b, end) == len(b)
}

// validValue returns the index just past the JSON value that starts at
// b[i], checked as validJSON checks it.
func validValue(b []byte, i int) (int, bool) {
	var stack []byte // the open containers, '{' or '['
	for {
		// A value starts at i.
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			i = skipBlanks(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				var ok bool
				if i, ok = objectKey(b, i); !ok {
					return 0, false
				}
			}
			continue
		case c == '"':
			var ok bool
			if i, ok = validString(b, i); !ok {
				return 0, false
			}
		case c == '-' || '0' <= c && c <= '9':
			var ok bool
			if i, ok = validNumber(b, i); !ok {
				return 0, false
			}
		case c == 't':
			if !hasAt(b, i, "true") {
				return 0, false
			}
			i += 4
		case c == 'f':
			if !hasAt(b, i, "false") {
				return 0, false
			}
			i += 5
		case c == 'n':
			if !hasAt(b, i, "null") {
				return 0, false
			}
			i += 4
		default:
			return 0, false
		}
		// A value ended at i: close containers, or find the next value.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipBlanks(b, i)
			if i >= len(b) {
				return 0, false
			}
			top := stack[len(stack)-1]
			if b[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return 0, false
			}
			i = skipBlanks(b, i+1)
			if top == '{' {
				var ok bool
				if i, ok = objectKey(b, i); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// objectKey reads `"key" :` at i and returns where its value starts.
func objectKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	i, ok := validString(b, i)
	if !ok {
		return 0, false
	}
	i = skipBlanks(b, i)
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	return skipBlanks(b, i+1), true
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

func hasAt(b []byte, i int, lit string) bool {
	return len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit
}

// validString returns the index just past the JSON string at b[i] == '"'.
// Like encoding/json, it refuses control characters and bad escapes and
// lets any other byte through (UTF-8 is checked elsewhere).
func validString(b []byte, i int) (int, bool) {
	i++
	for i < len(b) {
		if i+8 <= len(b) && !stringStop8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
			continue
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return 0, false
				}
				i += 6
			default:
				return 0, false
			}
		default:
			i++
		}
	}
	return 0, false
}

// stringStop8 reports whether any of the eight bytes in x ends a plain run
// inside a string: a quote, a backslash or a control character.
func stringStop8(x uint64) bool {
	below := (x - 0x20*ones) & ^x & highs
	return below|hasZero(x^('"'*ones))|hasZero(x^('\\'*ones)) != 0
}

// validNumber returns the index just past the JSON number at b[i].
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}
