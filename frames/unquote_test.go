package frames

import (
	"bytes"
	"testing"
)

// FuzzAppendUnquoted holds the decoder to the one it replaced, which sought
// each escape with bytes.IndexByte: same acceptance, same bytes.
func FuzzAppendUnquoted(f *testing.F) {
	for _, s := range []string{`plain`, `a\"b`, `\\\/\b\f\n\r\t`, `\u00e9\ud83d\ude00`, `\ud83d alone`, `\ufffd`,
		`a"b`, `\x`, `\u12`, `trailing\`, `\\\\\"`, `{\"text\":\"{\\\"a\\\":1}\"}`, `\ud83d\u0041`, `\ud83d\\u0041`, `\uD83D\uDE00x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, q []byte) {
		want, wok := unescapeJSONStringRef(q)
		got, gok := unescapeJSONString(q)
		if gok != wok || !bytes.Equal(got, want) {
			t.Fatalf("unescape(%q) = %q, %v; the old decoder: %q, %v", q, got, gok, want, wok)
		}
		if bytes.IndexByte(q, '\\') < 0 {
			return // the quote check is unescapeJSONString's
		}
		app, aok := appendUnquoted([]byte("x"), q)
		if aok != wok || aok && string(app) != "x"+string(want) {
			t.Fatalf("appendUnquoted(%q) = %q, %v; want %q, %v", q, app, aok, want, wok)
		}
	})
}
