package frames

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// reflectRecord is how records were written before appendRecord: the
// reference appendRecord must match byte for byte, so files written by
// either read the same everywhere (OpenIndexed finds bodies by position).
func reflectRecord(t testing.TB, f *Frame, raw []byte) []byte {
	rec := record{Type: "frame", Frame: *f}
	if utf8.Valid(raw) {
		s := string(raw)
		rec.Raw = &s
	} else {
		rec.RawB64 = base64.StdEncoding.EncodeToString(raw)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var encodeCases = []Frame{
	{Seq: 1, Time: time.Date(2026, 12, 1, 9, 0, 0, 123456789, time.UTC), Dir: ClientToServer, Kind: KindRequest, Method: "tools/call", ID: "1",
		Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)},
	{Seq: 2, Time: time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("x", 3600)), Dir: ServerToClient, Kind: KindError, ID: `"jig-1"`, Code: -32602, Method: "tools/call",
		Raw: []byte(`{"jsonrpc":"2.0","id":"jig-1","error":{"code":-32602,"message":"<bad> & \"quoted\"\\ \u2028\u2029 é 日本"}}`)},
	{Seq: 3, Dir: ServerToClient, Kind: KindInvalid, Err: "invalid UTF-8", Raw: []byte("bad \xff\xfe bytes")},
	{Seq: 4, Dir: ServerToClient, Kind: KindStderr, Raw: []byte("tab\there\r\nnul\x00 bell\x07 esc\x1b[31m \b\f \x7f")},
	{Seq: 5, Dir: ServerToClient, Kind: KindTransport, Note: "server exited: exit status 1"},
	{Seq: 6, Dir: ClientToServer, Kind: KindTransport, Note: "GET <stream>", HTTP: &HTTP{Method: "GET", URL: "http://127.0.0.1:1/mcp?a=1&b=<2>", Status: 200,
		Headers: map[string][]string{"Content-Type": {"text/event-stream"}, "Z": {"1", "2"}}, EventID: "e1"}},
	{Seq: 7, Dir: ServerToClient, Kind: KindResult, Raw: []byte{}},
	{Seq: 8, Dir: ServerToClient, Kind: KindResult, Raw: []byte("\xe2\x80 cut U+2028 \xe2\x80\xa8 and lone \xe2")},
}

func TestAppendRecordMatchesEncodingJSON(t *testing.T) {
	for _, f := range encodeCases {
		want := reflectRecord(t, &f, f.Raw)
		if got := appendRecord(nil, &f, f.Raw); !bytes.Equal(got, want) {
			t.Errorf("frame %d:\n got %s\nwant %s", f.Seq, got, want)
		}
	}
}

// Every field of Frame that reaches JSON reaches a record: a frame with all
// of them set encodes as encoding/json encodes it, so a field added to Frame
// and not to appendRecord fails here (the truncated frame's length once did).
func TestAppendRecordCoversEveryField(t *testing.T) {
	var f Frame
	v := reflect.ValueOf(&f).Elem()
	for i := 0; i < v.NumField(); i++ {
		field, sf := v.Field(i), v.Type().Field(i)
		if sf.Tag.Get("json") == "-" {
			continue
		}
		switch field.Kind() {
		case reflect.String:
			field.SetString("a " + sf.Name)
		case reflect.Int, reflect.Int64:
			field.SetInt(int64(i + 1))
		case reflect.Struct:
			field.Set(reflect.ValueOf(time.Date(2026, 12, 1, 9, 0, 0, 1, time.UTC)))
		case reflect.Pointer:
			field.Set(reflect.ValueOf(&HTTP{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 202}))
		default:
			t.Fatalf("Frame.%s is a %s: teach this test (and appendRecord) to set it", sf.Name, field.Kind())
		}
	}
	f.Raw = []byte(`{"jsonrpc":"2.0"}`)
	want := reflectRecord(t, &f, f.Raw)
	if got := appendRecord(nil, &f, f.Raw); !bytes.Equal(got, want) {
		t.Errorf("a frame with every field set:\n got %s\nwant %s", got, want)
	}
}

func FuzzAppendRecord(f *testing.F) {
	for _, c := range encodeCases {
		f.Add(c.Raw, c.Method, c.Err, int64(c.Time.UnixNano()))
	}
	f.Add([]byte(strings.Repeat("\\\"", 100)), "", "", int64(0))
	f.Fuzz(func(t *testing.T, raw []byte, method, errText string, ns int64) {
		fr := Frame{Seq: 9, Time: time.Unix(0, ns).UTC(), Dir: ServerToClient, Kind: KindResult, Method: method, Err: errText, Raw: raw}
		if !utf8.ValidString(method) || !utf8.ValidString(errText) {
			return // the fields come from decoded JSON: always valid
		}
		want := reflectRecord(t, &fr, raw)
		got := appendRecord(nil, &fr, raw)
		if !bytes.Equal(got, want) {
			t.Fatalf("\n got %q\nwant %q", got, want)
		}
		back, err := DecodeRecordFrame(got)
		if err != nil || !bytes.Equal(back.Raw, raw) {
			t.Fatalf("decoded raw %q (%v), want %q", back.Raw, err, raw)
		}
	})
}

// BenchmarkAppendRecord is the cost of encoding one record: 1 KB of JSON
// text, and a frame dense with characters that must be escaped.
func BenchmarkAppendRecord(b *testing.B) {
	plain := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 950) + `"}]}}`)
	dense := []byte(strings.Repeat(`{\"a\":\"b\"}`+"\n", 100))
	note := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"event 12345"}}`)
	for _, c := range []struct {
		name string
		raw  []byte
	}{{"1KB", plain}, {"escaped", dense}, {"notification", note}} {
		b.Run(c.name, func(b *testing.B) {
			f := Frame{Seq: 1, Time: time.Now(), Dir: ServerToClient, Kind: KindResult, Method: "tools/call", ID: "1", Raw: c.raw}
			buf := make([]byte, 0, 4096)
			b.SetBytes(int64(len(c.raw)))
			for b.Loop() {
				buf = appendRecord(buf[:0], &f, f.Raw)
			}
		})
	}
}

// BenchmarkRedact1KB is the redaction every recorded frame goes through,
// on a frame with no secret (the common case) and on one with a token.
func BenchmarkRedact1KB(b *testing.B) {
	clean := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 36) + `"}]}}`)
	secret := []byte(`{"jsonrpc":"2.0","id":1,"result":{"env":{"GITHUB_TOKEN":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"},"pad":"` + strings.Repeat("x", 900) + `"}}`)
	r := NewRedactor("hunter2-secret")
	for _, c := range []struct {
		name string
		raw  []byte
	}{{"clean", clean}, {"secret", secret}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.raw)))
			b.ReportAllocs()
			for b.Loop() {
				r.Bytes(c.raw)
			}
		})
	}
}
