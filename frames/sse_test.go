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
		"retry: 100\n\n" + // retry alone carries no frame
		"data: {\"tail\":true}" // no blank line before EOF
	want := []SSEEvent{
		{ID: "1"},
		{ID: "2", Data: []byte(`{"a":1}`)},
		{ID: "2", Data: []byte("line one\nline two")},
		{ID: "2", Event: "endpoint", Data: []byte("/message?sessionId=x")},
		{ID: "2", Data: []byte(`{"tail":true}`)},
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
