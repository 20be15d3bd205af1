package ui

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndent holds the fast indenter to json.Indent's output on every valid
// JSON text.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,{"b":"c\"}]{["}],"d":{},"e":[],"f":[ ],"g":{ }}`,
		`[{"x":1.0e3,"y":-0,"z":true,"w":null}]`,
		`{"s":"\\\\","t":"\u00e9\n"}`,
		` { "spaced" : [ 1 , 2 ] } `,
		`"just a string"`, `[]`, `{}`, `[[[]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var want bytes.Buffer
		json.Indent(&want, bytes.TrimSpace(raw), "", "  ")
		got, ok := indent(bytes.TrimSpace(raw))
		if !ok || string(got) != want.String() {
			t.Fatalf("indent(%q) = %q, %v\njson.Indent gives %q", raw, got, ok, want.String())
		}
	})
}
