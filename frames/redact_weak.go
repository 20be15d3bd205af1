package frames

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// A secret's value decides how it can be redacted without destroying the
// evidence it sits in. A long value that mixes kinds of characters
// (Zq9plainNOTshaped7731) appears nowhere by chance and is replaced wherever
// it stands. A short one or a plain word (test, changeme, humidity) is also
// a word of the servers' own text — a key, a schema's property, a part of
// "testing" — and is replaced only where it stands as a word within longer
// text, never as a whole JSON string (a key, an enum member, a name) nor
// inside another word. A JSON literal or a number (REQUIRE_PASSWORD=false,
// PIN=1234) or a value under 4 bytes is never replaced: every boolean of
// every frame would go, and the JSON with it.

// Strength says how a secret value is redacted.
type Strength int

const (
	// Unredactable values are never replaced: under 4 bytes, a JSON
	// literal, a number, a boolean word.
	Unredactable Strength = iota
	// Weak values are replaced only where they stand as a word within
	// longer text.
	Weak
	// Strong values are replaced wherever they appear.
	Strong
)

// strongMin is the shortest value replaced wherever it appears.
const strongMin = 8

// wordMax is the length under which a value of letters alone is a word
// (changeme, humidity), not a token.
const wordMax = 16

// ValueStrength says how v is redacted (see Strength).
func ValueStrength(v string) Strength {
	if len(v) < 4 {
		return Unredactable
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "yes", "no", "on", "off", "enabled", "disabled", "none", "undefined", "nil":
		return Unredactable
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return Unredactable
	}
	if len(v) < strongMin {
		return Weak
	}
	letters := true
	for i := 0; i < len(v); i++ {
		if c := v[i] | 0x20; c < 'a' || c > 'z' {
			letters = false
			break
		}
	}
	if letters && len(v) < wordMax {
		return Weak
	}
	return Strong
}

// WeakMatches returns the [start, end) ranges where the weak value v stands
// as a word within longer text in b: not touching a letter, digit or _ on
// either side (a JSON escape such as \n counts as a separator), and not
// the whole of a JSON string ("test", \"test\").
func WeakMatches(b []byte, v string) [][2]int {
	var out [][2]int
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte(v))
		if i < 0 {
			return out
		}
		s, e := off+i, off+i+len(v)
		off = s + 1
		if !weakBoundaryBefore(b, s) || !weakBoundaryAfter(b, e) || wholeString(b, s, e) {
			continue
		}
		out = append(out, [2]int{s, e})
		off = e
	}
}

func weakBoundaryBefore(b []byte, s int) bool {
	if s == 0 || !isWordByte(b[s-1]) {
		return true
	}
	// \n, \t, \r: an escape's letter, not a word's
	return s >= 2 && b[s-2] == '\\' && (s < 3 || b[s-3] != '\\') && strings.IndexByte("ntrbf", b[s-1]) >= 0
}

func weakBoundaryAfter(b []byte, e int) bool {
	return e >= len(b) || !isWordByte(b[e])
}

// wholeString reports whether b[s:e] is all of a JSON string, escaped
// quotes (JSON in a text block) included.
func wholeString(b []byte, s, e int) bool {
	if s == 0 || e >= len(b) {
		return false
	}
	if b[s-1] == '"' && b[e] == '"' {
		return true
	}
	return s >= 2 && b[s-2] == '\\' && b[s-1] == '"' && e+1 < len(b) && b[e] == '\\' && b[e+1] == '"'
}

// replaceWeak replaces every weak match of the values in b.
func replaceWeak(b []byte, values []string) []byte {
	var ms [][2]int
	for _, v := range values {
		ms = append(ms, WeakMatches(b, v)...)
	}
	return replaceRanges(b, ms)
}

// ReplaceWeak is replaceWeak for one parsed string value (a fixture's),
// with the placeholder given: the fixture redactor's reversible
// "[REDACTED:$NAME]". A string that is all of the value is a whole value,
// kept.
func ReplaceWeak(s, v, placeholder string) (string, bool) {
	if s == v {
		return s, false
	}
	ms := WeakMatches([]byte(s), v)
	if len(ms) == 0 {
		return s, false
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m[0]])
		b.WriteString(placeholder)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// WeakIn reports whether ReplaceWeak would replace v in the string s.
func WeakIn(s, v string) bool {
	return s != v && len(WeakMatches([]byte(s), v)) > 0
}

// JSON is Bytes for a JSON document that must stay one (a recording's
// header and meta records): when replacing bytes would break it (a value
// holding a quote, a brace), each of its strings is redacted instead, keys
// too, so what is written is the document with its secrets gone.
func (r *Redactor) JSON(doc []byte) []byte {
	out := r.Bytes(doc)
	if json.Valid(out) || !json.Valid(doc) {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return out
	}
	b, err := json.Marshal(r.strings(v))
	if err != nil {
		return out
	}
	return b
}

func (r *Redactor) strings(v any) any {
	switch x := v.(type) {
	case string:
		return r.String(x)
	case []any:
		for i := range x {
			x[i] = r.strings(x[i])
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[r.String(k)] = r.strings(e)
		}
		return m
	}
	return v
}
