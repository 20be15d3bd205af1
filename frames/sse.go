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
	// Retry is the event's retry: field (the reconnection delay, in ms).
	Retry string
	// Size is the event's data size when it exceeded the parser's Max:
	// Data then holds only the first Max bytes (the rest was discarded as
	// it arrived). 0 for a complete event.
	Size int64
}

// An SSEParser splits a text/event-stream into events as its bytes arrive,
// so a capture can record each event the moment its blank line crosses rather
// than when the stream ends. Both jig's client tap and the HTTP proxy use it,
// so a stream is cut into frames the same way whoever captured it.
type SSEParser struct {
	// Max bounds the data bytes kept per event (0: no bound), so an endless
	// event cannot exhaust memory; the bytes past it are counted, not kept.
	Max int

	buf []byte // bytes of an incomplete line
	// cont says what the rest of a line that outgrew Max is: more data
	// (counted, not kept) or a field to ignore.
	cont  int
	data  [][]byte
	kept  int   // data bytes kept for the event so far
	size  int64 // data bytes seen for the event so far, joining newlines included
	lines int   // data lines seen for the event so far
	id    string
	event string
	retry string
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
		if p.cont != contNone {
			p.more(line)
			p.cont = contNone
			continue
		}
		p.line(line, emit)
	}
	// Keep only the incomplete tail, reusing the buffer.
	n := copy(p.buf, p.buf[start:])
	p.buf = p.buf[:n]
	if n := len(bytes.TrimSuffix(p.buf, []byte("\r"))); p.Max > 0 && n > p.Max+len("data: ") {
		// The line's own length, as line measures it: a CR the buffer
		// ends with may begin its CRLF.
		p.overflow()
	}
}

const (
	contNone = iota
	contData
	contIgnore
)

// overflow handles an incomplete line that outgrew Max without holding it:
// a data line keeps what Max allows and counts the rest as it arrives; any
// other field is ignored to its end.
//
// A CR the buffer ends with waits: it may begin the CRLF that ends the line,
// or end the stream's last line, and then it is no data (counted or not, the
// event's size depended on where the reads were cut).
func (p *SSEParser) overflow() {
	body := p.buf
	cr := len(body) > 0 && body[len(body)-1] == '\r'
	if cr {
		body = body[:len(body)-1]
	}
	if p.cont != contNone {
		p.more(body)
	} else if field, value, _ := bytes.Cut(body, []byte(":")); string(field) == "data" {
		p.keep(bytes.TrimPrefix(value, []byte(" ")))
		p.fields = true
		p.cont = contData
	} else {
		p.cont = contIgnore
	}
	p.buf = p.buf[:0]
	if cr {
		p.buf = append(p.buf, '\r')
	}
}

// more is the continuation of a line that outgrew Max.
func (p *SSEParser) more(b []byte) {
	if p.cont == contData {
		p.size += int64(len(b))
	}
}

// keep adds a data line's value to the event, within Max.
// The "\n" that joins a line to the one before it counts: Data never holds
// more than Max bytes.
func (p *SSEParser) keep(value []byte) {
	sep := 0
	if p.lines > 0 {
		sep = 1
	}
	p.lines++
	p.size += int64(sep + len(value))
	if p.Max > 0 {
		room := p.Max - p.kept - sep
		if room < 0 {
			return // not even the joining newline fits
		}
		value = value[:min(len(value), room)]
	}
	p.data = append(p.data, bytes.Clone(value))
	p.kept += sep + len(value)
}

// End dispatches a final event the stream ended without its blank line.
func (p *SSEParser) End(emit func(SSEEvent)) {
	if len(p.buf) > 0 || p.cont != contNone {
		line := bytes.TrimSuffix(p.buf, []byte("\r"))
		p.buf = p.buf[:0]
		if p.cont != contNone {
			p.more(line)
			p.cont = contNone
		} else {
			p.line(line, emit)
		}
	}
	p.line(nil, emit)
}

func (p *SSEParser) line(line []byte, emit func(SSEEvent)) {
	if len(line) == 0 {
		if p.fields {
			ev := SSEEvent{ID: p.id, Event: p.event, Retry: p.retry}
			if p.data != nil {
				ev.Data = bytes.Join(p.data, []byte("\n"))
			}
			if p.Max > 0 && p.size > int64(p.Max) {
				ev.Size = p.size
			}
			if ev.Event == "message" {
				ev.Event = ""
			}
			p.data, p.event, p.retry, p.fields, p.kept, p.size, p.lines = nil, "", "", false, 0, 0, 0
			emit(ev)
		}
		return
	}
	if line[0] == ':' {
		return // a comment: keep-alives
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	if p.Max > 0 && len(line) > p.Max+len("data: ") && string(field) != "data" {
		// A field line that outgrew Max is ignored, as overflow ignores it
		// when it arrives in pieces: where the reads were cut must not
		// decide whether an event is named.
		return
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "data":
		p.keep(value)
	case "id":
		p.id = string(value)
	case "event":
		p.event = string(value)
	case "retry":
		// Not an event by itself (the test corpus's retry-only block is
		// none); it travels with the next event dispatched.
		p.retry = string(value)
		return
	default:
		return // unknown fields carry no frame
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

// ResponseNote is StatusNote for the transport frame of the response to
// req: the answer to a request that carried no JSON-RPC message (a GET, a
// DELETE) says which request it answers, and what it says (a 400's JSON
// error with id null) is that request's answer, never read as an answer to
// a call. The session's tap and the proxy both use it.
func ResponseNote(req *http.Request, resp *http.Response, what string) string {
	note := StatusNote(resp, what)
	if req == nil || req.Method == http.MethodPost {
		return note
	}
	return "answers " + RequestNote(req) + " — " + note
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
	case what == "", strings.EqualFold(what, reason):
		return reason
	case reason == "":
		return what
	}
	return reason + ": " + what
}
