package frames

import (
	"encoding/json"
	"strings"
	"testing"
)

var validJSONCases = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, true, false, null, "x\u00e9\n"]} `, `{"a":1,}`, `[1,]`, `[,1]`,
	`{"a"}`, `{"a":}`, `{a:1}`, `01`, `-`, `1.`, `.1`, `1e`, `1e+`, `1E-7`, `-01`, `tru`, `truex`, `nul`, `"abc`, `"a\x"`, `"\u12G4"`,
	"\"tab\there\"", "\"\xff\xfe\"", `"\/"`, `[[[[]]]]`, `[[[[]]]`, `{"a":{"b":{"c":[{}]}}}`, `{"a":1}{"b":2}`, `1 2`, `"a" `, "\x00",
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat(`x\"y`, 50) + `"}]}}`,
	strings.Repeat("[", 5000) + strings.Repeat("]", 5000), `[1}`, `{"a":1]`, "[\r\n\t1 ]",
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	for _, c := range validJSONCases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%.80q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validJSONCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

func BenchmarkValidJSON1KB(b *testing.B) {
	raw := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 36) + `"}],"isError":false}}`)
	b.Run("jig", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			validJSON(raw)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			json.Valid(raw)
		}
	})
}
