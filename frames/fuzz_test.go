package frames

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzSSEParser: however a stream is cut into reads, the parser gives the
// same events, and no event keeps more than Max bytes of data.
func FuzzSSEParser(f *testing.F) {
	for _, s := range []string{
		": keep-alive\n\nid: 1\n\nevent: message\r\nid: 2\r\ndata: {\"a\":1}\r\n\r\n",
		"data: line one\ndata: line two\n\nevent: endpoint\ndata: /m?s=1\n\nretry: 100\n\ndata: tail",
		"data: " + string(bytes.Repeat([]byte("x"), 300)) + "\n\n",
		"id\nevent\ndata\n\n:\n\n\r\r\n",
	} {
		f.Add([]byte(s), uint8(7))
	}
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		parse := func(chunk int) []SSEEvent {
			p := SSEParser{Max: 64}
			var got []SSEEvent
			emit := func(e SSEEvent) {
				if len(e.Data) > 64 {
					t.Fatalf("an event kept %d bytes, over Max 64", len(e.Data))
				}
				got = append(got, e)
			}
			for i := 0; i < len(stream); i += chunk {
				p.Feed(stream[i:min(i+chunk, len(stream))], emit)
			}
			p.End(emit)
			return got
		}
		whole := parse(max(len(stream), 1))
		if d := cmp.Diff(whole, parse(int(cut%32)+1)); d != "" {
			t.Fatalf("cut into reads of %d, the events differ (-whole +cut):\n%s", cut%32+1, d)
		}
	})
}

// FuzzReadTranscript: any file, whole or cut, opens without panicking, by
// both readers (ReadTranscript and the lazy OpenIndexed jig open uses), and
// every frame's body they report can be read.
func FuzzReadTranscript(f *testing.F) {
	var good bytes.Buffer
	tw := NewTranscriptWriter(&good, nil)
	tw.WriteHeader(Header{Jig: "test"})
	l := NewLog(nil)
	l.AddSink(tw)
	l.Append(Frame{Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte("bad \xff utf8")})
	l.Append(Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte(`{"type":"frame","seq":1,"dir":"c2s","raw":"x"}` + "\n"))
	f.Add([]byte(`{"type": "header", "format": 1}` + "\n" + `{"type": "frame", "seq": 1, "raw_b64": "!!"}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, _ := ReadTranscript(bytes.NewReader(data))
		for i := 0; tr != nil && i < tr.Len(); i++ {
			tr.Body(i)
		}
		path := filepath.Join(dir, "t.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		x, err := OpenIndexed(path)
		if err != nil {
			return
		}
		defer x.Close()
		for i := 0; i < x.Len(); i++ {
			x.Frame(i)
			x.Body(i)
			x.Partner(i)
		}
	})
}
