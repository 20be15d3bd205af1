package frames

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// spanSeeds are frame bodies with long strings, and the escapes the span
// tracker gives up on: \u for a quote, a backslash or a control character,
// a control character inside the text, a bare quote, surrogates (paired,
// alone, reversed), invalid UTF-8, strings inside the text's strings, huge
// numbers.
var spanSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"orders\":[{\"id\":\"ord-1\",\"customer_name\":\"Acme \\\"Corp\\\"\",\"total\":1e999}],\"count\":1}"}],"structuredContent":{"orders":[{"id":"ord-1"}]}}}`,
	`{"text":"` + strings.Repeat(`a\\n\\t\\/\\u00e9\\\\`, 8) + `"}`,
	`{"text":"` + strings.Repeat(`x`, 70) + `\u0022` + strings.Repeat(`y`, 70) + `"}`,
	`{"text":"` + strings.Repeat(`x`, 70) + `\u005c` + strings.Repeat(`y`, 70) + `"}`,
	`{"text":"` + strings.Repeat(`x`, 70) + `\u0001` + strings.Repeat(`y`, 70) + `"}`,
	`{"text":"` + strings.Repeat(`x`, 70) + "\n" + strings.Repeat(`y`, 70) + `"}`,
	`{"text":"` + strings.Repeat(`x`, 70) + `"` + strings.Repeat(`y`, 70) + `"}`,
	`{"text":"` + strings.Repeat(`\ud83d\ude00`, 12) + `\ud83d alone \ude00\ud83d` + "\xff\xfe" + `"}`,
	`{"a":"` + strings.Repeat(`z`, 80) + `","b":"\\` + strings.Repeat(`q`, 80) + `"}`,
	"[\"" + strings.Repeat(`\\u12`, 30) + "\"]",
	`"` + strings.Repeat(`k`, 63) + `"`,
	`"` + strings.Repeat(`k`, 62) + `"`,
}

// quoteBody is the inside of the JSON string a recording holds raw in.
func quoteBody(raw string) []byte {
	q, _ := json.Marshal(raw)
	return q[1 : len(q)-1]
}

// FuzzUnquoteSpans holds the span-listing decoder to the plain one (the
// same bytes, the same acceptance) and every span it lists to encoding/json:
// one valid string literal, at least MinSpan long, in order. Each input is
// tried as a body and as the body a recording of it would hold.
func FuzzUnquoteSpans(f *testing.F) {
	for _, s := range spanSeeds {
		f.Add([]byte(s))
		f.Add(quoteBody(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, q := range [][]byte{in, quoteBody(string(in))} {
			checkSpans(t, q)
		}
	})
}

func checkSpans(t *testing.T, q []byte) {
	t.Helper()
	if bytes.IndexByte(q, '\\') < 0 {
		return // unescapeJSONString's own path: no spans
	}
	want, wok := unescapeJSONStringRef(q)
	got, spans, ok := unquoteSpans(q, nil)
	if ok != wok || !bytes.Equal(got, want) {
		t.Fatalf("unquoteSpans(%q) = %q, %v; the plain decoder: %q, %v", q, got, ok, want, wok)
	}
	end := 0
	for _, s := range spans {
		if s.Start < end || s.End > len(got) || s.End-s.Start < MinSpan {
			t.Fatalf("unquoteSpans(%q): span %+v after %d in %d bytes: out of order, out of range or short", q, s, end, len(got))
		}
		lit := got[s.Start:s.End]
		var str string
		if lit[0] != '"' || lit[len(lit)-1] != '"' || !json.Valid(lit) || json.Unmarshal(lit, &str) != nil {
			t.Fatalf("unquoteSpans(%q): span %+v is %q, not one JSON string", q, s, lit)
		}
		end = s.End
	}
}

// TestUnquoteSpansFindsText: a result's text, JSON quoted twice as a
// recording holds it, is listed (the span that makes jig stats skip it),
// and the tracker's refusals list nothing past them.
func TestUnquoteSpansFindsText(t *testing.T) {
	text := `{"orders":[` + strings.Repeat(`{"id":"ord-1","note":"a \"b\" \\ c\n"},`, 5) + `{}]}`
	tq, _ := json.Marshal(text)
	raw := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(tq) + `}],"structuredContent":` + text + `}}`
	got, spans, ok := unquoteSpans(quoteBody(raw), nil)
	if !ok || string(got) != raw {
		t.Fatalf("unquoteSpans = %q, %v; want the frame back", got, ok)
	}
	at := strings.Index(raw, string(tq))
	if len(spans) != 1 || spans[0] != (Span{at, at + len(tq)}) {
		t.Errorf("spans = %+v, want the text at [%d,%d)", spans, at, at+len(tq))
	}
	for _, s := range spanSeeds {
		checkSpans(t, quoteBody(s))
	}
	// After the body's \u0022 (a quote the tracker does not follow)
	// nothing is listed; a \u0022 of the text's own is followed.
	long := strings.Repeat("w", 100)
	if _, spans, _ = unquoteSpans([]byte(`[\"`+long+`\",\"\u0022\",\"`+long+`\"]`), nil); len(spans) != 1 {
		t.Errorf("spans = %+v, want only the string before the \\u0022", spans)
	}
	if _, spans, _ = unquoteSpans(quoteBody(`["`+long+`","\u0022","`+long+`"]`), nil); len(spans) != 2 {
		t.Errorf("spans = %+v, want both long strings", spans)
	}
}
