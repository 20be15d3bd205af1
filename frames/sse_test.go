package frames

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSSEParser(t *testing.T) {
	stream := ": keep-alive\n\n" + // a comment alone is not an event
		"id: 1\n\n" + // priming: an id and no data
		"event: message\r\nid: 2\r\ndata: {\"a\":1}\r\n\r\n" +
		"data: line one\ndata: line two\n\n" + // the id persists
		"event: endpoint\ndata: /message?sessionId=x\n\n" +
		"retry: 100\n\n" + // retry alone carries no frame: it goes with the next event
		"data: {\"tail\":true}" // no blank line before EOF
	want := []SSEEvent{
		{ID: "1"},
		{ID: "2", Data: []byte(`{"a":1}`)},
		{ID: "2", Data: []byte("line one\nline two")},
		{ID: "2", Event: "endpoint", Data: []byte("/message?sessionId=x")},
		{ID: "2", Data: []byte(`{"tail":true}`), Retry: "100"},
	}
	// Feeding one byte at a time and all at once must give the same events.
	for _, chunk := range []int{1, 7, len(stream)} {
		var p SSEParser
		var got []SSEEvent
		emit := func(e SSEEvent) { got = append(got, e) }
		for i := 0; i < len(stream); i += chunk {
			p.Feed([]byte(stream[i:min(i+chunk, len(stream))]), emit)
		}
		p.End(emit)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("chunks of %d bytes: events differ (-want +got):\n%s", chunk, d)
		}
	}
}

func TestSSEEventFrame(t *testing.T) {
	info := HTTP{Method: "GET", URL: "http://x/mcp"}
	msg := SSEEvent{ID: "7", Data: []byte(`{"jsonrpc":"2.0","method":"n"}`)}.Frame(info)
	if msg.Kind != "" || string(msg.Raw) != `{"jsonrpc":"2.0","method":"n"}` || msg.HTTP.EventID != "7" || msg.Dir != ServerToClient {
		t.Errorf("message event: got %+v, want an unclassified s2c frame with the data as Raw and event id 7", msg)
	}
	prime := SSEEvent{ID: "8"}.Frame(info)
	if prime.Kind != KindTransport || !strings.Contains(prime.Note, "priming") {
		t.Errorf("priming event: got kind %s note %q, want a transport frame saying priming", prime.Kind, prime.Note)
	}
	ep := SSEEvent{Event: "endpoint", Data: []byte("/m")}.Frame(info)
	if ep.Kind != KindTransport || ep.Note != "event endpoint: /m" || ep.HTTP.Event != "endpoint" {
		t.Errorf("endpoint event: got kind %s note %q, want a transport frame", ep.Kind, ep.Note)
	}
}

// An event larger than Max keeps its first Max bytes and says how large it
// was; an endless line is counted as it arrives, never held.
func TestSSEParserMax(t *testing.T) {
	p := SSEParser{Max: 10}
	var got []SSEEvent
	emit := func(e SSEEvent) { got = append(got, e) }
	p.Feed([]byte("id: 1\ndata: 0123456789abcdef\n\ndata: ok\n\n"), emit)
	if len(got) != 2 || string(got[0].Data) != "0123456789" || got[0].Size != 16 || got[1].Size != 0 || string(got[1].Data) != "ok" {
		t.Fatalf("events = %+v", got)
	}
	got = nil
	p.Feed([]byte("data: "), emit)
	for range 1000 {
		p.Feed([]byte(strings.Repeat("x", 1000)), emit)
		if len(p.buf) > 100 {
			t.Fatalf("the parser holds %d bytes of an endless line", len(p.buf))
		}
	}
	p.Feed([]byte("\n\n"), emit)
	if len(got) != 1 || len(got[0].Data) != 10 || got[0].Size != 1_000_000 {
		t.Fatalf("endless event: %d events, data %d bytes, size %d", len(got), len(got[0].Data), got[0].Size)
	}
}
