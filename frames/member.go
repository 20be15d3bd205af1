package frames

import (
	"bytes"
	"encoding/json"
)

// MemberSpan finds the value of the member at path (object keys, outermost
// first) in the JSON document raw and returns where its text starts and
// ends. It reads only the objects on the way, skipping every other value by
// matching brackets, so finding the id of a 4 MB response costs a scan.
// A key spelled with escapes ("m\u0065thod") is found as what it means.
func MemberSpan(raw []byte, path ...string) (start, end int, ok bool) {
	start = skipSpace(raw, 0)
	end, _, err := skipValue(raw, start)
	if err != nil {
		return 0, 0, false
	}
	for _, key := range path {
		if start, end, ok = memberOf(raw[:end], start, key); !ok {
			return 0, 0, false
		}
	}
	return start, end, true
}

// memberOf finds key in the object starting at raw[i] and returns the span
// of its value; the last member of that name wins, as encoding/json decides.
func memberOf(raw []byte, i int, key string) (start, end int, ok bool) {
	if i >= len(raw) || raw[i] != '{' {
		return 0, 0, false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return 0, 0, false
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return start, end, ok
		}
		kEnd, err := skipString(raw, i)
		if err != nil {
			return start, end, ok
		}
		k := raw[i+1 : kEnd-1]
		same := string(k) == key
		if bytes.IndexByte(k, '\\') >= 0 {
			var s string
			same = json.Unmarshal(raw[i:kEnd], &s) == nil && s == key
		}
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return start, end, ok
		}
		i = skipSpace(raw, i+1)
		vEnd, _, err := skipValue(raw, i)
		if err != nil {
			return start, end, ok
		}
		if same {
			start, end, ok = i, vEnd, true
		}
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
			continue
		}
		return start, end, ok
	}
}

// SetMember returns raw with the value of the member at path replaced by
// value (a JSON text), every other byte as it was: the key order, spacing
// and number spelling of a recorded message survive a new id or progress
// token. ok is false, and raw is returned unchanged, when there is no such
// member.
func SetMember(raw, value []byte, path ...string) (out []byte, ok bool) {
	s, e, ok := MemberSpan(raw, path...)
	if !ok {
		return raw, false
	}
	out = make([]byte, 0, len(raw)-(e-s)+len(value))
	out = append(out, raw[:s]...)
	out = append(out, value...)
	return append(out, raw[e:]...), true
}

// Valid reports whether b is exactly one JSON value, as json.Valid does,
// in the module's fast validating pass (validJSON).
func Valid(b []byte) bool { return validJSON(b) }

// Elements returns the spans of the elements of the JSON array arr, each
// its value's text, without decoding any, checking each as Valid does (in
// the one pass): the scenarios of a 14 MB report cost a scan, and can then
// be decoded one by one, on several goroutines. ok is false when arr is not
// one valid array.
func Elements(arr []byte) (spans [][]byte, ok bool) {
	spans, end, ok := elementsAt(arr, skipBlanks(arr, 0))
	if !ok || skipBlanks(arr, end) != len(arr) {
		return nil, false
	}
	return spans, true
}

// elementsAt splits the array that starts at b[i], checking it, and
// returns where it ends.
func elementsAt(b []byte, i int) (spans [][]byte, end int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return nil, 0, false
	}
	i = skipBlanks(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil, i + 1, true
	}
	for {
		end, ok := validValue(b, i)
		if !ok {
			return nil, 0, false
		}
		spans = append(spans, b[i:end])
		i = skipBlanks(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipBlanks(b, i+1)
		case i < len(b) && b[i] == ']':
			return spans, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// ArrayMember finds the member key of the JSON object obj, an array, and
// returns where its value starts and ends and its elements' spans, checking
// all of obj as Valid does in the same one pass (Elements and Fields
// together, without reading the array twice). ok is false when obj is not
// one valid object, or key is not in it as an array.
func ArrayMember(obj []byte, key string) (start, end int, elems [][]byte, ok bool) {
	start, end, elems, found, valid := arrayMember(obj, key, nil)
	if !valid || !found {
		return 0, 0, nil, false
	}
	return start, end, elems, true
}

// ArrayMemberFields is ArrayMember and Fields in the same one pass: every
// member of obj, key's too, is handed to fn, and key's value, which must be
// an array when it is there, is split into its elements. found says whether
// key was there; valid whether obj is one valid object (fn may have been
// called for the members before a fault).
func ArrayMemberFields(obj []byte, key string, fn func(key string, val []byte)) (elems [][]byte, found, valid bool) {
	_, _, elems, found, valid = arrayMember(obj, key, fn)
	return elems, found, valid
}

func arrayMember(obj []byte, key string, fn func(key string, val []byte)) (start, end int, elems [][]byte, found, valid bool) {
	valid = fields(obj, func(k string, i int) (int, bool) {
		if k != key {
			return validValue(obj, i)
		}
		spans, e, ok := elementsAt(obj, i)
		if ok {
			start, end, elems, found = i, e, spans, true
		}
		return e, ok
	}, fn)
	return start, end, elems, found, valid
}

// Fields hands each member of the JSON object obj to fn — its key decoded,
// its value as a subslice of obj — checking obj as Valid does in the one
// pass. It reports whether obj was one valid object; fn may have been
// called for the members before the fault.
func Fields(obj []byte, fn func(key string, val []byte)) bool {
	return fields(obj, func(_ string, i int) (int, bool) { return validValue(obj, i) }, fn)
}

// FieldsUntil is Fields that stops where fn returns false: the members
// after it are neither read nor checked (the first members of a large
// object, at the cost of those). It reports whether obj was well formed as
// far as it was read.
func FieldsUntil(obj []byte, fn func(key string, val []byte) (more bool)) bool {
	stopped := false
	ok := fields(obj, func(k string, i int) (int, bool) {
		if stopped {
			return 0, false
		}
		end, ok := validValue(obj, i)
		if ok && !fn(k, obj[i:end]) {
			stopped = true
		}
		return end, ok
	}, nil)
	return ok || stopped
}

// fields walks the members of obj: value reads the value of member key that
// starts at obj[i] and returns where it ends; then fn, when not nil, is
// handed the member.
func fields(obj []byte, value func(key string, i int) (int, bool), fn func(key string, val []byte)) bool {
	end, ok := fieldsAt(obj, skipBlanks(obj, 0), value, fn)
	return ok && skipBlanks(obj, end) == len(obj)
}

// fieldsAt is fields on the object that starts at b[i]; it returns where
// the object ends.
func fieldsAt(b []byte, i int, value func(key string, i int) (int, bool), fn func(key string, val []byte)) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = skipBlanks(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		kEnd, ok := validString(b, i)
		if !ok {
			return 0, false
		}
		key := string(b[i+1 : kEnd-1])
		if bytes.IndexByte(b[i:kEnd], '\\') >= 0 && json.Unmarshal(b[i:kEnd], &key) != nil {
			return 0, false
		}
		i = skipBlanks(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		i = skipBlanks(b, i+1)
		end, ok := value(key, i)
		if !ok {
			return 0, false
		}
		if fn != nil {
			fn(key, b[i:end])
		}
		i = skipBlanks(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipBlanks(b, i+1)
		case i < len(b) && b[i] == '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// ObjectsOf walks the member key of the JSON object obj, an array of
// objects (a report's scenarios), in the one checking pass Valid makes of
// all of obj: fn is handed each element's index and members, and the member
// inner of an element, an array when it is there (a scenario's steps), is
// split into its elements too (the others' elems are nil). It returns where
// key's value starts and ends and how many elements it has, and ok false
// when obj is not one valid object, key is not in it as an array of
// objects, or an element's inner is not an array.
func ObjectsOf(obj []byte, key, inner string, fn func(elem int, key string, val []byte, elems [][]byte)) (start, end, n int, ok bool) {
	found := false
	valid := fields(obj, func(k string, i int) (int, bool) {
		if k != key {
			return validValue(obj, i)
		}
		e, count, ok := objectsAt(obj, i, inner, fn)
		if ok {
			start, end, n, found = i, e, count, true
		}
		return e, ok
	}, nil)
	return start, end, n, valid && found
}

// objectsAt walks the array of objects that starts at b[i] (see ObjectsOf)
// and returns where it ends and how many elements it has.
func objectsAt(b []byte, i int, inner string, fn func(elem int, key string, val []byte, elems [][]byte)) (int, int, bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, 0, false
	}
	i = skipBlanks(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, 0, true
	}
	for n := 0; ; n++ {
		var spans [][]byte
		end, ok := fieldsAt(b, i, func(k string, j int) (int, bool) {
			if k != inner {
				return validValue(b, j)
			}
			var e int
			var ok bool
			spans, e, ok = elementsAt(b, j)
			return e, ok
		}, func(k string, val []byte) {
			if k == inner {
				fn(n, k, val, spans)
				return
			}
			fn(n, k, val, nil)
		})
		if !ok {
			return 0, 0, false
		}
		i = skipBlanks(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipBlanks(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1, n + 1, true
		default:
			return 0, 0, false
		}
	}
}
