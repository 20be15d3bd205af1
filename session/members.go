package session

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpjig/jig/frames"
)

// jig reads a few members of every response (its result or error, a list's
// array, a ttlMs) where encoding/json would decode the whole 9 KB result into
// a struct each time, four or five times per listing. These read them in one
// scan that decodes no value (frames.Fields, which checks the text as
// json.Valid does), and pick the members as json.Unmarshal into the struct
// would: a key matches a field's name exactly or, failing that, as
// encoding/json folds case; the last member that matches wins; nothing is
// read from a text that is not one valid object. TestMembersAreEncodingJSON
// holds each to encoding/json.

// jsonField reports whether the object key names the struct field called
// name (lower-case ASCII, as jig's names are) for encoding/json.
func jsonField(key, name string) bool {
	if key == name {
		return true
	}
	if len(key) < len(name) {
		return false
	}
	// encoding/json folds both sides: ASCII letters to upper case, any
	// other rune to ToUpper(ToLower(r)) (so "ſ" folds to "S").
	j := 0
	for i := 0; i < len(key); {
		var r rune
		if c := key[i]; c < utf8.RuneSelf {
			r = rune(c)
			if 'a' <= c && c <= 'z' {
				r -= 'a' - 'A'
			}
			i++
		} else {
			var n int
			r, n = utf8.DecodeRuneInString(key[i:])
			r = unicode.ToUpper(unicode.ToLower(r))
			i += n
		}
		if j >= len(name) || r >= utf8.RuneSelf || byte(r) != upperASCII(name[j]) {
			return false
		}
		j++
	}
	return j == len(name)
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// responseMembers is json.Unmarshal of a response into
// struct{ Result, Error json.RawMessage }.
func responseMembers(raw []byte) (result, errObj json.RawMessage) {
	var r, e []byte
	if !frames.Fields(raw, func(key string, val []byte) {
		switch {
		case jsonField(key, "result"):
			r = val
		case jsonField(key, "error"):
			e = val
		}
	}) {
		return nil, nil
	}
	return json.RawMessage(r), json.RawMessage(e)
}

// arrayMembers is json.Unmarshal of obj into a struct whose one field,
// called name, is a []json.RawMessage: the elements of the last member that
// matches, and false when encoding/json would fail (not one valid object or
// null, or a matching member that is neither an array nor null).
func arrayMembers(obj []byte, name string) ([]json.RawMessage, bool) {
	var elems [][]byte
	typeErr := false
	if !frames.Fields(obj, func(key string, val []byte) {
		if !jsonField(key, name) {
			return
		}
		switch val[0] {
		case '[':
			elems, _ = frames.Elements(val) // valid: Fields checked it
			if elems == nil {
				elems = [][]byte{} // [] empties the slice
			}
		case 'n':
			elems = nil
		default:
			typeErr = true
		}
	}) || typeErr {
		// A null decodes into the struct without an error, and sets nothing.
		return nil, !typeErr && strings.Trim(string(obj), " \t\r\n") == "null"
	}
	out := make([]json.RawMessage, len(elems))
	for i, e := range elems {
		out[i] = e
	}
	return out, true
}

// cacheFields are the members of a result CacheHint reads.
type cacheFields struct {
	TTLMs      *float64 `json:"ttlMs"`
	CacheScope string   `json:"cacheScope"`
}

// cacheMembers is json.Unmarshal of obj into cacheFields, and whether it
// succeeded: a ttlMs that is null sets nil, a number sets it (one out of
// float64's range fails, as json.Unmarshal's does); a cacheScope that is
// null leaves it as it was; any other type fails; the last member that
// matches wins; a top-level null sets nothing and succeeds.
func cacheMembers(obj []byte) (cacheFields, bool) {
	var c cacheFields
	bad := false
	if !frames.Fields(obj, func(key string, val []byte) {
		switch {
		case jsonField(key, "ttlMs"):
			switch val[0] {
			case 'n':
				c.TTLMs = nil
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				f, err := strconv.ParseFloat(string(val), 64)
				if err != nil {
					bad = true
					return
				}
				c.TTLMs = &f
			default:
				bad = true
			}
		case jsonField(key, "cacheScope"):
			switch val[0] {
			case 'n':
			case '"':
				var s string
				if json.Unmarshal(val, &s) != nil {
					bad = true
					return
				}
				c.CacheScope = s
			default:
				bad = true
			}
		}
	}) || bad {
		return cacheFields{}, !bad && strings.Trim(string(obj), " \t\r\n") == "null"
	}
	return c, true
}
