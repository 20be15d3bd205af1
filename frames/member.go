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
// its value's text, without decoding any: the scenarios of a 14 MB report
// cost a scan, and can then be decoded one by one, on several goroutines.
// ok is false when arr is not an array as far as it was read; the spans
// are only bracket-matched, so check the whole text with Valid first.
func Elements(arr []byte) (spans [][]byte, ok bool) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	i = skipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return nil, true
	}
	for {
		end, _, err := skipValue(arr, i)
		if err != nil {
			return nil, false
		}
		spans = append(spans, arr[i:end])
		i = skipSpace(arr, end)
		switch {
		case i < len(arr) && arr[i] == ',':
			i = skipSpace(arr, i+1)
		case i < len(arr) && arr[i] == ']':
			return spans, true
		default:
			return nil, false
		}
	}
}
