package frames

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
)

// SSEEvent is one server-sent event as an SSEParser dispatched it.
type SSEEvent struct {
	// ID is the stream's last event id when the event was dispatched: ids
	// persist across events, which is what Last-Event-ID reconnection uses.
	ID string
	// Event is the event: field; "" for the default "message".
	Event string
	// Data is the event's data: lines joined by "\n"; nil when it had none.
	Data []byte
}

// An SSEParser splits a text/event-stream into events as its bytes arrive,
// so a capture can record each event the moment its blank line crosses rather
// than when the stream ends. Both jig's client tap and the HTTP proxy use it,
// so a stream is cut into frames the same way whoever captured it.
type SSEParser struct {
	buf   []byte // bytes of an incomplete line
	data  [][]byte
	id    string
	event string
	// fields reports whether any field arrived since the last dispatch, so
	// that a keep-alive comment followed by a blank line is not an event.
	fields bool
}

// Feed parses b and calls emit for every event it completes.
func (p *SSEParser) Feed(b []byte, emit func(SSEEvent)) {
	p.buf = append(p.buf, b...)
	start := 0
	for {
		i := bytes.IndexByte(p.buf[start:], '\n')
		if i < 0 {
			break
		}
		line := bytes.TrimSuffix(p.buf[start:start+i], []byte("\r"))
		start += i + 1
		p.line(line, emit)
	}
	// Keep only the incomplete tail, reusing the buffer.
	n := copy(p.buf, p.buf[start:])
	p.buf = p.buf[:n]
}

// End dispatches a final event the stream ended without its blank line.
func (p *SSEParser) End(emit func(SSEEvent)) {
	if len(p.buf) > 0 {
		line := bytes.TrimSuffix(p.buf, []byte("\r"))
		p.buf = p.buf[:0]
		p.line(line, emit)
	}
	p.line(nil, emit)
}

func (p *SSEParser) line(line []byte, emit func(SSEEvent)) {
	if len(line) == 0 {
		if p.fields {
			ev := SSEEvent{ID: p.id, Event: p.event}
			if p.data != nil {
				ev.Data = bytes.Join(p.data, []byte("\n"))
			}
			if ev.Event == "message" {
				ev.Event = ""
			}
			p.data, p.event, p.fields = nil, "", false
			emit(ev)
		}
		return
	}
	if line[0] == ':' {
		return // a comment: keep-alives
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "data":
		p.data = append(p.data, bytes.Clone(value))
	case "id":
		p.id = string(value)
	case "event":
		p.event = string(value)
	default:
		return // retry: and unknown fields carry no frame
	}
	p.fields = true
}

// Frame is the frame a capture records for the event, travelling server to
// client, with info (method and URL of the request that opened the stream)
// completed by the event's id and name. An event with no data is a priming
// event (the server gives the client a point to resume from); a named event
// such as the legacy SSE transport's "endpoint" carries a URL, not JSON-RPC.
// Both become transport frames; anything else is a message.
func (e SSEEvent) Frame(info HTTP) Frame {
	info.EventID, info.Event = e.ID, e.Event
	switch {
	case len(bytes.TrimSpace(e.Data)) == 0:
		return Frame{Dir: ServerToClient, Kind: KindTransport, HTTP: &info,
			Note: "priming event (id " + e.ID + ", no data): the client may resume from here"}
	case e.Event != "":
		return Frame{Dir: ServerToClient, Kind: KindTransport, HTTP: &info,
			Note: "event " + e.Event + ": " + string(e.Data)}
	}
	return Frame{Dir: ServerToClient, Raw: e.Data, HTTP: &info}
}

// RequestNote describes an HTTP request that carries no JSON-RPC message —
// a GET that opens (or resumes) the event stream, a DELETE that ends the
// session — for the transport frame that records it. The session's tap and
// the proxy both use it, so recordings read the same either way.
func RequestNote(r *http.Request) string {
	switch r.Method {
	case http.MethodGet:
		if id := r.Header.Get("Last-Event-ID"); id != "" {
			return "GET: reopening the event stream after event " + id
		}
		return "GET: opening the event stream"
	case http.MethodDelete:
		return "DELETE: ending the session"
	}
	return r.Method
}

// StatusNote is the note of the transport frame that records an HTTP
// response: its reason phrase (the frame already shows the status code),
// the standard one when the server sent none, then what, if any.
func StatusNote(resp *http.Response, what string) string {
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
	if reason == "" {
		reason = http.StatusText(resp.StatusCode)
	}
	switch {
	case what == "":
		return reason
	case reason == "":
		return what
	}
	return reason + ": " + what
}
