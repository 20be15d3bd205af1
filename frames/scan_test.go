package frames

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestScannerReadsWhatReadTranscriptReads: the streaming reader gives the
// same frames, bytes and warnings as the whole-file reader, escapes, binary
// bodies and a cut-off last line included.
func TestScannerReadsWhatReadTranscriptReads(t *testing.T) {
	var buf bytes.Buffer
	tw := NewTranscriptWriter(&buf, nil)
	if err := tw.WriteHeader(Header{Jig: "test", Started: time.Unix(0, 0).UTC(), Mode: "proxy"}); err != nil {
		t.Fatal(err)
	}
	log := NewLog(func() time.Time { return time.Unix(1, 0).UTC() })
	log.AddSink(tw)
	for _, raw := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a \"quoted\" \\ tab\t é 😀 \u2028"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"<b>&amp;</b>"}]}}`,
		"not json \xff\xfe",
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
	} {
		log.Append(Frame{Dir: ClientToServer, Raw: []byte(raw)})
	}
	log.Note("protocol", map[string]string{"version": "2025-11-25"})
	whole := buf.String() + `{"type":"frame","seq":9,"dir":"c2s","raw":"{\"jsonrpc`
	want, err := ReadTranscript(strings.NewReader(whole))
	if err != nil {
		t.Fatal(err)
	}
	s := NewScanner(strings.NewReader(whole), "t.jsonl")
	var got []*Frame
	var metas []Meta
	for s.Next() {
		if f := s.Frame(); f != nil {
			got = append(got, f)
		} else {
			metas = append(metas, *s.Meta())
		}
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if diff := cmp.Diff(want.Frames, got, cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) })); diff != "" {
		t.Errorf("frames (-ReadTranscript +Scanner):\n%s", diff)
	}
	if diff := cmp.Diff(want.Metas, metas); diff != "" {
		t.Errorf("metas (-ReadTranscript +Scanner):\n%s", diff)
	}
	if diff := cmp.Diff(want.Warnings, s.Warnings); diff != "" {
		t.Errorf("warnings (-ReadTranscript +Scanner):\n%s", diff)
	}
	if s.Header.Mode != "proxy" {
		t.Errorf("header %+v, want the proxy header", s.Header)
	}
}

func TestScannerNoHeader(t *testing.T) {
	s := NewScanner(strings.NewReader(`{"a":1}`+"\n"), "x.jsonl")
	for s.Next() {
	}
	if s.Err() == nil || !strings.Contains(s.Err().Error(), "x.jsonl: not a jig transcript") {
		t.Fatalf("Err() = %v, want it to say x.jsonl is not a jig transcript", s.Err())
	}
}

func TestUnescapeJSONString(t *testing.T) {
	for _, in := range []string{`plain`, `a\"b`, `\\\/\b\f\n\r\t`, `\u00e9\ud83d\ude00`, `\ud83d alone`, `\ufffd`} {
		got, ok := unescapeJSONString([]byte(in))
		var want string
		if err := jsonUnmarshalString(`"`+in+`"`, &want); err != nil || !ok || string(got) != want {
			t.Errorf("unescape(%q) = %q, %v; want %q (%v)", in, got, ok, want, err)
		}
	}
	for _, bad := range []string{`a"b`, `\x`, `\u12`, `trailing\`} {
		if _, ok := unescapeJSONString([]byte(bad)); ok {
			t.Errorf("unescape(%q) accepted it", bad)
		}
	}
}

func TestCallMatcher(t *testing.T) {
	m := NewCallMatcher()
	req := func(dir Direction, id, method string) *Frame {
		return &Frame{Dir: dir, Kind: KindRequest, ID: id, Method: method}
	}
	a := req(ClientToServer, "0", "initialize")
	b := req(ServerToClient, "0", "roots/list") // the same id the other way
	m.Add(a)
	m.Add(b)
	if got := m.Add(&Frame{Dir: ClientToServer, Kind: KindResult, ID: "0"}); got != b {
		t.Errorf("the client's answer paired with %+v, want the server's roots/list", got)
	}
	resp := &Frame{Dir: ServerToClient, Kind: KindResult, ID: "0"}
	if got := m.Add(resp); got != a || resp.Method != "initialize" {
		t.Errorf("the server's answer paired with %+v (method %q), want initialize", got, resp.Method)
	}
	if got := m.Add(&Frame{Dir: ServerToClient, Kind: KindResult, ID: "0"}); got != nil {
		t.Errorf("a second answer paired with %+v, want none", got)
	}
	m.Add(req(ClientToServer, "7", "tools/call"))
	m.Add(&Frame{Dir: ClientToServer, Kind: KindNotification, Method: "notifications/cancelled", Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)})
	if p := m.Pending(); len(p) != 0 {
		t.Errorf("pending %+v after the cancellation, want none", p)
	}
}

func jsonUnmarshalString(s string, out *string) error { return json.Unmarshal([]byte(s), out) }

// TestFastHeadAgrees: the hand decoder of frame metadata gives what
// encoding/json gives, or declines.
func TestFastHeadAgrees(t *testing.T) {
	for _, head := range []string{
		`{"type":"frame","seq":2,"time":"2026-11-01T00:00:00.000837Z","dir":"s2c","kind":"result","method":"tools/call","id":"0"`,
		`{"type":"frame","seq":9,"time":"2026-11-01T00:00:00Z","dir":"c2s","kind":"error","id":"\"jig-1\"","code":-32602`,
		`{"type":"frame","seq":3,"time":"2026-11-01T00:00:00+02:00","dir":"s2c","kind":"invalid","err":"invalid JSON at byte 4: x","length":99999`,
		`{"type":"frame","seq":4,"time":"2026-11-01T00:00:00Z","dir":"s2c","kind":"transport","http":{"status":200},"note":"x"`,
		`{"type":"frame","seq":5,"time":"2026-11-01T00:00:00Z","dir":"s2c","kind":"stderr","note":"a, b"`,
	} {
		var want frameMeta
		if err := json.Unmarshal([]byte(head+"}"), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := fastHead([]byte(head))
		if ok && !cmp.Equal(got, want.Frame) {
			t.Errorf("fastHead(%s) = %+v, want %+v", head, got, want.Frame)
		}
	}
}
