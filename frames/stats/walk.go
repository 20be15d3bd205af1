package stats

import (
	"bytes"
	"strconv"
	"unsafe"
)

// The walker reads a JSON document once, without building it, and hands
// each value to a visitor with its path: a JSON Pointer in which every
// array index is "*", so the 40 orders of a result are one field
// ("/orders/*/total") with 40 values. JSON carried as text in
// content[].text is walked too, under "/content/*/text#". A million
// results go through it in a few seconds.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kObject
	kArray
	kindCount
)

var kindNames = [kindCount]string{"null", "boolean", "number", "string", "object", "array"}

// A visitor receives each value the walker reaches. path is only valid
// during the call. For strings, s is the unescaped value; for numbers, x;
// for arrays, n is the number of items (reported after them).
type visitor interface {
	visit(path []byte, k kind, b bool, x float64, s []byte, n int)
}

type walker struct {
	data    []byte
	i       int
	bad     bool
	path    []byte
	v       visitor
	scratch []byte
	// skip names keys not to walk at a depth (1 for the top level):
	// "content" when the result has structuredContent (the same data
	// again), "_meta".
	skip  func(depth int, key []byte) bool
	depth int
}

const maxWalkDepth = 200

func (w *walker) ws() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) value() {
	w.ws()
	if w.i >= len(w.data) || w.bad {
		w.bad = true
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxWalkDepth {
		w.bad = true
		return
	}
	switch c := w.data[w.i]; {
	case c == '{':
		w.object()
	case c == '[':
		w.array()
	case c == '"':
		s, ok := w.str()
		if !ok {
			w.bad = true
			return
		}
		w.v.visit(w.path, kString, false, 0, s, 0)
		if bytes.HasSuffix(w.path, textPath) && len(s) > 0 && (s[0] == '{' || s[0] == '[') {
			w.embedded(s)
		}
	case c == 't' && bytes.HasPrefix(w.data[w.i:], []byte("true")):
		w.i += 4
		w.v.visit(w.path, kBool, true, 0, nil, 0)
	case c == 'f' && bytes.HasPrefix(w.data[w.i:], []byte("false")):
		w.i += 5
		w.v.visit(w.path, kBool, false, 0, nil, 0)
	case c == 'n' && bytes.HasPrefix(w.data[w.i:], []byte("null")):
		w.i += 4
		w.v.visit(w.path, kNull, false, 0, nil, 0)
	default:
		start := w.i
		for w.i < len(w.data) {
			c := w.data[w.i]
			if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				w.i++
				continue
			}
			break
		}
		lit := w.data[start:w.i]
		x, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), 64)
		if err != nil || len(lit) == 0 {
			w.bad = true
			return
		}
		w.v.visit(w.path, kNumber, false, x, nil, 0)
	}
}

// textPath is where MCP results carry text that is often JSON.
var textPath = []byte("/content/*/text")

// embedded walks JSON carried in a text block, under "…/text#".
func (w *walker) embedded(s []byte) {
	inner := &walker{data: bytes.Clone(s), path: append(w.path, '#'), v: w.v, depth: w.depth}
	inner.value()
	inner.ws()
	w.path = inner.path[:len(w.path)]
	// A text that only looks like JSON is a text: what it held so far
	// was still seen, which is what a model reading it sees too.
}

func (w *walker) object() {
	w.i++ // {
	base := len(w.path)
	first := true
	for {
		w.ws()
		if w.i >= len(w.data) {
			w.bad = true
			return
		}
		if w.data[w.i] == '}' {
			w.i++
			break
		}
		if !first {
			if w.data[w.i] != ',' {
				w.bad = true
				return
			}
			w.i++
			w.ws()
		}
		first = false
		if w.i >= len(w.data) || w.data[w.i] != '"' {
			w.bad = true
			return
		}
		key, ok := w.str()
		if !ok {
			w.bad = true
			return
		}
		w.ws()
		if w.i >= len(w.data) || w.data[w.i] != ':' {
			w.bad = true
			return
		}
		w.i++
		if w.skip != nil && w.skip(w.depth, key) {
			w.skipValue()
			continue
		}
		w.path = append(w.path[:base], '/')
		w.path = appendEscaped(w.path, key)
		w.value()
		if w.bad {
			return
		}
		w.path = w.path[:base]
	}
	w.path = w.path[:base]
	w.v.visit(w.path, kObject, false, 0, nil, 0)
}

func (w *walker) array() {
	w.i++ // [
	base := len(w.path)
	w.path = append(w.path, "/*"...)
	n := 0
	for {
		w.ws()
		if w.i >= len(w.data) {
			w.bad = true
			return
		}
		if w.data[w.i] == ']' {
			w.i++
			break
		}
		if n > 0 {
			if w.data[w.i] != ',' {
				w.bad = true
				return
			}
			w.i++
		}
		w.path = w.path[:base+2]
		w.value()
		if w.bad {
			return
		}
		n++
	}
	w.path = w.path[:base]
	w.v.visit(w.path, kArray, false, 0, nil, n)
}

// str reads a string at w.i and returns its unescaped bytes (valid until
// the next call).
func (w *walker) str() ([]byte, bool) {
	w.i++ // opening quote
	start := w.i
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case '"':
			s := w.data[start:w.i]
			w.i++
			return s, true
		case '\\':
			return w.escapedStr(start)
		}
		w.i++
	}
	return nil, false
}

func (w *walker) escapedStr(start int) ([]byte, bool) {
	w.i = start - 1
	if !w.skipString() {
		return nil, false
	}
	out, ok := unescape(w.scratch[:0], w.data[start:w.i-1])
	w.scratch = out
	return out, ok
}

// skipValue passes over one value without visiting it or decoding its
// strings.
func (w *walker) skipValue() {
	w.ws()
	depth := 0
	for w.i < len(w.data) {
		switch c := w.data[w.i]; c {
		case '"':
			if !w.skipString() {
				w.bad = true
				return
			}
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				w.i++
				return
			}
			if depth < 0 {
				return
			}
		case ',':
			if depth == 0 {
				return
			}
		}
		w.i++
	}
}

// skipString passes over the string at w.i.
func (w *walker) skipString() bool {
	i := w.i + 1
	for {
		j := bytes.IndexByte(w.data[i:], '"')
		if j < 0 {
			return false
		}
		i += j
		// The quote ends the string unless an odd number of backslashes
		// precedes it.
		n := 0
		for k := i - 1; k > w.i && w.data[k] == '\\'; k-- {
			n++
		}
		i++
		if n%2 == 0 {
			w.i = i
			return true
		}
	}
}

func appendEscaped(dst, key []byte) []byte {
	if bytes.IndexByte(key, '~') < 0 && bytes.IndexByte(key, '/') < 0 {
		return append(dst, key...)
	}
	for _, c := range key {
		switch c {
		case '~':
			dst = append(dst, "~0"...)
		case '/':
			dst = append(dst, "~1"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// unescape decodes a JSON string's inside into dst.
func unescape(dst, s []byte) ([]byte, bool) {
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...), true
		}
		dst = append(dst, s[:i]...)
		if i+1 >= len(s) {
			return dst, false
		}
		c := s[i+1]
		s = s[i+2:]
		switch c {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'u':
			if len(s) < 4 {
				return dst, false
			}
			r, err := strconv.ParseUint(string(s[:4]), 16, 32)
			if err != nil {
				return dst, false
			}
			s = s[4:]
			if r >= 0xd800 && r < 0xdc00 && len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
				if lo, err := strconv.ParseUint(string(s[2:6]), 16, 32); err == nil && lo >= 0xdc00 && lo < 0xe000 {
					r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
					s = s[6:]
				}
			}
			dst = append(dst, string(rune(r))...)
		default:
			dst = append(dst, c)
		}
	}
	return dst, true
}
