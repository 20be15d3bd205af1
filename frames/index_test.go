package frames

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeTranscript writes frames through a real TranscriptWriter and returns
// the file's path.
func writeTranscript(t testing.TB, fs []Frame) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	tw, err := CreateTranscript(path, Header{Jig: "test", Started: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Mode: "proxy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := NewLog(fixedClock())
	log.AddSink(tw)
	for i, f := range fs {
		log.Append(f)
		if i == 1 {
			if err := tw.WriteMeta("protocol", map[string]string{"version": "2025-11-25"}, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

var awkwardFrames = []Frame{
	{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"q":"quote \" backslash \\ tab \t"}}`)},
	{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"roots/list"}`)},
	{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"s":"é ☃ 𝄞 \u2028 <&>"}}`)},
	{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`)},
	{Dir: ServerToClient, Raw: []byte("not json \xff\xfe")},
	{Dir: ServerToClient, Kind: KindStderr, Raw: []byte(`a "raw":"trap" on stderr` + "\x01\x1f\r")},
	{Dir: ServerToClient, Kind: KindTransport, Note: `exit "status" 1`, HTTP: &HTTP{Method: "GET", Status: 200, Headers: map[string][]string{"raw": {"x"}}}},
	{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":9,"result":{}}`)}, // answers nothing
}

func TestOpenIndexedMatchesReadTranscript(t *testing.T) {
	path := writeTranscript(t, awkwardFrames)
	// A session killed mid-write leaves a cut-off last line.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"frame","seq":99,"time":"2026-11-30T12:00:01Z","dir":"s2c","kind":"res`)
	f.Close()

	b, _ := os.ReadFile(path)
	want, err := ReadTranscript(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	x, err := OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if x.Len() != want.Len() || x.Len() != len(awkwardFrames) {
		t.Fatalf("OpenIndexed found %d frames, ReadTranscript %d; want %d", x.Len(), want.Len(), len(awkwardFrames))
	}
	if d := cmp.Diff(want.Header, x.Header); d != "" {
		t.Errorf("header differs (-ReadTranscript +OpenIndexed):\n%s", d)
	}
	if d := cmp.Diff(want.Warnings, x.Warnings); d != "" {
		t.Errorf("warnings differ (-ReadTranscript +OpenIndexed):\n%s", d)
	}
	if string(x.Meta("protocol")) != string(want.Meta("protocol")) || x.Meta("protocol") == nil {
		t.Errorf("meta protocol = %s, want %s", x.Meta("protocol"), want.Meta("protocol"))
	}
	for i := range x.Len() {
		wf := *want.Frame(i)
		wf.RawLen, wf.Raw = len(wf.Raw), nil
		if d := cmp.Diff(&wf, x.Frame(i)); d != "" {
			t.Errorf("frame %d metadata differs (-ReadTranscript +OpenIndexed):\n%s", i, d)
		}
		body, err := x.Body(i)
		if err != nil {
			t.Fatalf("Body(%d): %v", i, err)
		}
		if !bytes.Equal(body, want.Frame(i).Raw) {
			t.Errorf("Body(%d) = %q, want %q", i, body, want.Frame(i).Raw)
		}
		if !bytes.Equal(body, awkwardFrames[i].Raw) {
			t.Errorf("Body(%d) = %q, but %q crossed", i, body, awkwardFrames[i].Raw)
		}
		if got := x.Frame(i).Size(); got != len(awkwardFrames[i].Raw) {
			t.Errorf("Frame(%d).Size() = %d, want %d (the body is %q)", i, got, len(awkwardFrames[i].Raw), awkwardFrames[i].Raw)
		}
		if x.Partner(i) != want.Partner(i) {
			t.Errorf("Partner(%d) = %d, want %d", i, x.Partner(i), want.Partner(i))
		}
	}
	if x.Partner(2) != 0 || x.Frame(2).Method != "initialize" {
		t.Errorf("frame 2 should answer initialize (frame 0), not roots/list with the same id: partner %d method %q", x.Partner(2), x.Frame(2).Method)
	}
	if !strings.Contains(x.Frame(7).Err, "unknown id") {
		t.Errorf("frame 7 answers nothing; Err = %q", x.Frame(7).Err)
	}
}

func TestUnescapedLen(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\t` + "\n\x00\x1f", "é☃𝄞\u2028\u2029<>&", "\xff"} {
		var enc bytes.Buffer
		tw := NewTranscriptWriter(&enc, nil)
		tw.WriteFrame(&Frame{Raw: []byte(s)})
		rec := bytes.TrimSpace(enc.Bytes())
		_, size, err := splitFrameRecord(rec)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if size != len(s) {
			t.Errorf("size of %q from record %s = %d, want %d", s, rec, size, len(s))
		}
	}
}

func TestOpenIndexedRejectsOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), 0o600)
	if _, err := OpenIndexed(path); err == nil || !strings.Contains(err.Error(), "not a jig transcript") {
		t.Errorf("OpenIndexed on a JSON-RPC capture: err = %v, want 'not a jig transcript'", err)
	}
}

// bigTranscript writes n request/response frames with ~size-byte bodies.
func bigTranscript(b testing.TB, n, size int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big.jsonl")
	tw, err := CreateTranscript(path, Header{Jig: "bench", Mode: "proxy"}, NewRedactor())
	if err != nil {
		b.Fatal(err)
	}
	log := NewLog(fixedClock())
	log.AddSink(tw)
	pad := strings.Repeat("x", size-120)
	for i := range n {
		if i%2 == 0 {
			log.Append(Frame{Dir: ClientToServer, Raw: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"%s"}}}`, i, pad)})
		} else {
			log.Append(Frame{Dir: ServerToClient, Raw: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"%s"}]}}`, i-1, pad)})
		}
	}
	tw.Close()
	return path
}

// BenchmarkOpenIndexed opens a 100,000-frame, ~100 MB transcript and reads
// what a first screen needs: 50 summaries and one body. It reports the file
// size and the heap the open index holds, which must stay under 2× the file.
func BenchmarkOpenIndexed(b *testing.B) {
	path := bigTranscript(b, 100_000, 1000)
	st, _ := os.Stat(path)
	var heap uint64
	b.ResetTimer()
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		x, err := OpenIndexed(path)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 50 {
			_ = x.Frame(i).Method
			_ = x.Frame(i).Size()
		}
		if _, err := x.Body(0); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(x)
		x.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(st.Size())/1e6, "file-MB")
	b.ReportMetric(float64(heap)/1e6, "heap-MB")
	b.ReportMetric(float64(heap)/float64(st.Size()), "heap/file")
}

// BenchmarkReadTranscript is the eager reader on the same file, for comparison.
func BenchmarkReadTranscript(b *testing.B) {
	path := bigTranscript(b, 100_000, 1000)
	b.ResetTimer()
	for b.Loop() {
		f, _ := os.Open(path)
		if _, err := ReadTranscript(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
