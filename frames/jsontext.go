package frames

// The one JSON indenter and the one compactor of the module. Both accept
// exactly what json.Valid accepts and reshape nothing else: a text block
// reading "[INFO] server started on port 8080" looks like JSON to a glance
// at its brackets, and must come back untouched.
//
// They are one validating pass written for speed (a 10 MB frame is opened
// on a keypress): strings are skipped with a table lookup per byte rather
// than a state-machine call, and nothing is decoded. Fuzz tests hold them to
// json.Valid, json.Indent and json.Compact.

// Indent returns raw indented with two spaces per level, as
// json.Indent(dst, raw, "", "  ") writes it without the leading and trailing
// whitespace, and true. When json.Valid(raw) is false it returns raw
// unchanged and false.
func Indent(raw []byte) ([]byte, bool) {
	out, ok := reshape(raw, true)
	if !ok {
		return raw, false
	}
	return out, true
}

// Compact returns raw with the insignificant whitespace elided, as
// json.Compact writes it, and true; raw unchanged and false when
// json.Valid(raw) is false.
func Compact(raw []byte) ([]byte, bool) {
	out, ok := reshape(raw, false)
	if !ok {
		return raw, false
	}
	return out, true
}

// CompactString is Compact for a one-line display: the compact text, or the
// input as it is when it is not JSON.
func CompactString(raw []byte) string {
	out, _ := Compact(raw)
	return string(out)
}

// maxDepth is encoding/json's nesting limit: deeper texts are not valid to
// json.Valid, so they are not valid here either.
const maxDepth = 10000

// stringStop marks the bytes that end a run of plain string content: the
// closing quote, an escape, and the control characters JSON forbids.
var stringStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// A reshaper validates a JSON text and writes it again, indented or compact.
type reshaper struct {
	in     []byte
	out    []byte
	i      int
	stack  []byte // the open containers, '{' or '['
	indent bool
}

func reshape(raw []byte, indent bool) ([]byte, bool) {
	size := len(raw)
	if indent {
		size += len(raw) / 2
	}
	r := &reshaper{in: raw, out: make([]byte, 0, size), indent: indent}
	if !r.document() {
		return nil, false
	}
	return r.out, true
}

// document is one value with only whitespace around it.
func (r *reshaper) document() bool {
	for {
		if !r.value() {
			return false
		}
		done, ok := r.afterValue()
		if !ok {
			return false
		}
		if done {
			r.space()
			return r.i == len(r.in)
		}
	}
}

// value reads one value, or the opening of a container and, for an object,
// its first key: what follows is then a value again.
func (r *reshaper) value() bool {
	r.space()
	if r.i >= len(r.in) {
		return false
	}
	switch c := r.in[r.i]; c {
	case '{', '[':
		return r.open(c)
	case '"':
		return r.str()
	case 't':
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case 'n':
		return r.literal("null")
	default:
		return r.number()
	}
}

// open reads '{' or '[': an empty container is written on one line, as
// json.Indent does; otherwise the container stays open and, for an object,
// its first key is read.
func (r *reshaper) open(c byte) bool {
	closer := byte('}')
	if c == '[' {
		closer = ']'
	}
	if len(r.stack) >= maxDepth {
		return false // an empty container counts too, as in encoding/json
	}
	r.i++
	r.space()
	if r.i < len(r.in) && r.in[r.i] == closer {
		r.i++
		r.out = append(r.out, c, closer)
		return true
	}
	r.stack = append(r.stack, c)
	r.out = append(r.out, c)
	r.newline()
	if c == '{' {
		return r.key() && r.value()
	}
	return r.value()
}

// afterValue reads what may follow a value: the end of the document (done),
// a comma and the next member, or closing brackets.
func (r *reshaper) afterValue() (done, ok bool) {
	for {
		r.space()
		n := len(r.stack)
		if n == 0 {
			return true, true
		}
		if r.i >= len(r.in) {
			return false, false
		}
		top, c := r.stack[n-1], r.in[r.i]
		switch {
		case c == ',':
			r.i++
			r.out = append(r.out, ',')
			r.newline()
			if top == '{' && !r.key() {
				return false, false
			}
			return false, true
		case top == '{' && c == '}', top == '[' && c == ']':
			r.i++
			r.stack = r.stack[:n-1]
			r.newline()
			r.out = append(r.out, c)
		default:
			return false, false
		}
	}
}

// key reads an object key and its colon.
func (r *reshaper) key() bool {
	r.space()
	if r.i >= len(r.in) || r.in[r.i] != '"' || !r.str() {
		return false
	}
	r.space()
	if r.i >= len(r.in) || r.in[r.i] != ':' {
		return false
	}
	r.i++
	r.out = append(r.out, ':')
	if r.indent {
		r.out = append(r.out, ' ')
	}
	return true
}

// str reads a string, copying its bytes as they are.
func (r *reshaper) str() bool {
	in, j := r.in, r.i+1
	for {
		for j < len(in) && !stringStop[in[j]] {
			j++
		}
		if j >= len(in) || in[j] < 0x20 {
			return false
		}
		if in[j] == '"' {
			break
		}
		// An escape: \" \\ \/ \b \f \n \r \t, or \u and four hex digits.
		if j+1 >= len(in) {
			return false
		}
		switch in[j+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j += 2
		case 'u':
			if j+6 > len(in) || !isHex(in[j+2]) || !isHex(in[j+3]) || !isHex(in[j+4]) || !isHex(in[j+5]) {
				return false
			}
			j += 6
		default:
			return false
		}
	}
	r.out = append(r.out, in[r.i:j+1]...)
	r.i = j + 1
	return true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func (r *reshaper) literal(word string) bool {
	end := r.i + len(word)
	if end > len(r.in) || string(r.in[r.i:end]) != word {
		return false
	}
	r.out = append(r.out, word...)
	r.i = end
	return true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, copied as
// written (1.0 stays 1.0).
func (r *reshaper) number() bool {
	in, j := r.in, r.i
	if j < len(in) && in[j] == '-' {
		j++
	}
	switch {
	case j < len(in) && in[j] == '0':
		j++
	case j < len(in) && '1' <= in[j] && in[j] <= '9':
		j = digits(in, j)
	default:
		return false
	}
	if j < len(in) && in[j] == '.' {
		if k := digits(in, j+1); k > j+1 {
			j = k
		} else {
			return false
		}
	}
	if j < len(in) && (in[j] == 'e' || in[j] == 'E') {
		j++
		if j < len(in) && (in[j] == '+' || in[j] == '-') {
			j++
		}
		k := digits(in, j)
		if k == j {
			return false
		}
		j = k
	}
	r.out = append(r.out, in[r.i:j]...)
	r.i = j
	return true
}

func digits(in []byte, j int) int {
	for j < len(in) && '0' <= in[j] && in[j] <= '9' {
		j++
	}
	return j
}

// space skips JSON's whitespace (and only JSON's: not \v, \f or U+00A0).
func (r *reshaper) space() {
	for r.i < len(r.in) {
		switch r.in[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reshaper) newline() {
	if !r.indent {
		return
	}
	r.out = append(r.out, '\n')
	for range len(r.stack) {
		r.out = append(r.out, ' ', ' ')
	}
}
