package mock

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/importer"
)

// addRecording reads a transcript in any format jig open reads (jig's own
// sessions, jig proxy's captures of a real client, JSON-RPC lines, the MCP
// Inspector's history, client logs) and adds each request the client sent that
// the server answered, with what the server sent while it was open.
func (b *Book) addRecording(path string) error {
	t, format, err := importer.Read(path)
	if err != nil {
		return fmt.Errorf("%s: %v (jig mock serves fixtures and recordings in the formats jig open reads: jig sessions lists jig's own)", path, pathErr(err))
	}
	if format != importer.FormatJig {
		b.warn("%s: a %s transcript, not a jig recording: served as far as it kept the server's messages (ids, envelopes or exact bytes it did not keep are reconstructed)", path, format)
	}
	for _, w := range t.Warnings {
		b.warn("%s: %s", path, w)
	}
	b.Recordings++
	b.Sources = append(b.Sources, path)
	before := len(b.all)
	rr := &recordingReader{b: b, path: path, t: t, byFrame: map[int]*Exchange{}}
	var own frames.OwnAccount
	for i, f := range t.Frames {
		mine := own.See(f)
		switch {
		case f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest:
			rr.request(i, f)
		case f.Dir == frames.ClientToServer && f.Kind == frames.KindNotification && f.Method == "notifications/cancelled":
			rr.cancelled(f)
		case f.Dir == frames.ServerToClient && f.IsResponse():
			rr.response(i, f)
		case f.Dir == frames.ServerToClient && (f.Kind == frames.KindNotification || f.Kind == frames.KindRequest || f.Kind == frames.KindInvalid):
			rr.message(f, mine)
		}
	}
	for _, ex := range b.all[before:] {
		if ex.Reply != nil {
			return nil
		}
	}
	b.warn("%s: no request in it has a recorded answer", path)
	return nil
}

// A recordingReader pairs a recording's frames into exchanges. open are
// the client's requests still waiting for an answer, in the order sent, so
// a server message in between joins the newest one's flow (or the one its
// progress token names).
type recordingReader struct {
	b         *Book
	path      string
	t         *frames.Transcript
	open      []*Exchange
	started   []time.Time
	handshake time.Time
	byFrame   map[int]*Exchange
	// states are the requestStates the recorded server handed out in
	// input_required results: a request that carries one is a retry.
	states map[string]bool
	// ids are the client's requests still open, by their id's JSON text.
	ids map[string]*Exchange
}

// cancelled marks the open request a client's notifications/cancelled
// names.
func (rr *recordingReader) cancelled(f *frames.Frame) {
	if s, e, ok := frames.MemberSpan(f.Raw, "params", "requestId"); ok {
		if ex := rr.ids[string(f.Raw[s:e])]; ex != nil && ex.Reply == nil {
			ex.Cancelled = true
		}
	}
}

func (rr *recordingReader) request(i int, f *frames.Frame) {
	ex, err := rr.b.recordedRequest(rr.path, i, f, rr.t, rr.states)
	if err != nil {
		rr.b.warn("%v", err)
		return
	}
	if ex != nil {
		if s, e, ok := frames.MemberSpan(f.Raw, "id"); ok {
			if rr.ids == nil {
				rr.ids = map[string]*Exchange{}
			}
			rr.ids[string(f.Raw[s:e])] = ex
		}
		rr.open = append(rr.open, ex)
		rr.started = append(rr.started, f.Time)
		rr.byFrame[i] = ex
	}
}

func (rr *recordingReader) response(i int, f *frames.Frame) {
	req := rr.t.Partner(i)
	ex, ok := rr.byFrame[req]
	if !ok {
		return
	}
	k := indexOf(rr.open, ex)
	r, err := newReply(append([]byte(nil), f.Raw...), f.Time.Sub(rr.started[k]))
	if err != nil {
		rr.b.warn("%s#%d: %v; not served", rr.path, i+1, err)
	} else {
		ex.Reply = r
		if st := requestState(resultOf(f.Raw)); r.inputRequest && st != "" {
			if rr.states == nil {
				rr.states = map[string]bool{}
			}
			rr.states[st] = true
		}
		rr.b.recordedFace(ex, f)
		if ex.Method == "initialize" || ex.Method == "server/discover" {
			rr.handshake = f.Time
		}
	}
	rr.open = append(rr.open[:k], rr.open[k+1:]...)
	rr.started = append(rr.started[:k], rr.started[k+1:]...)
	delete(rr.byFrame, req)
	if s, e, ok := frames.MemberSpan(f.Raw, "id"); ok && rr.ids[string(f.Raw[s:e])] == ex {
		delete(rr.ids, string(f.Raw[s:e]))
	}
}

// message is what the server sent unasked: part of an open request's flow,
// or, when no request is open or it was the server's own business (mine: a
// roots/list the handshake called for, a ping, the GET stream's), of the
// session's, sent after the handshake with its recorded spacing.
func (rr *recordingReader) message(f *frames.Frame, mine bool) {
	ev := Event{Raw: append([]byte(nil), f.Raw...), Method: f.Method, Kind: f.Kind}
	if k := flowOwner(rr.open, f.Raw); k >= 0 && !mine {
		ev.At = f.Time.Sub(rr.started[k])
		rr.open[k].Flow = append(rr.open[k].Flow, ev)
		return
	}
	if !rr.handshake.IsZero() {
		ev.At = f.Time.Sub(rr.handshake)
	}
	rr.b.session = append(rr.b.session, ev)
}

// recordedRequest turns the client's request at frame i into an exchange,
// or nil for the requests the mock answers itself.
func (b *Book) recordedRequest(path string, i int, f *frames.Frame, t *frames.Transcript, states map[string]bool) (*Exchange, error) {
	var msg struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(f.Raw, &msg); err != nil {
		return nil, fmt.Errorf("%s#%d: not JSON: %v; not served", path, i+1, err)
	}
	if msg.Method == "ping" {
		return nil, nil
	}
	ex := &Exchange{Source: fmt.Sprintf("%s#%d", path, i+1), Method: msg.Method, Params: msg.Params}
	ex.Name, ex.Arguments = nameOf(ex.Method, ex.Params)
	var st struct {
		RequestState string `json:"requestState"`
	}
	_ = json.Unmarshal(msg.Params, &st)
	ex.state = st.RequestState
	ex.retry = states[ex.state]
	if err := b.add(ex); err != nil {
		return nil, err
	}
	return ex, nil
}

// resultOf is a response's result member, nil when it has none.
func resultOf(raw []byte) json.RawMessage {
	if s, e, ok := frames.MemberSpan(raw, "result"); ok {
		return raw[s:e]
	}
	return nil
}

// recordedFace takes the server's self-description from a recorded
// handshake answer.
func (b *Book) recordedFace(ex *Exchange, f *frames.Frame) {
	if f.Kind != frames.KindResult || (ex.Method != "initialize" && ex.Method != "server/discover") {
		return
	}
	s, e, ok := frames.MemberSpan(f.Raw, "result")
	if !ok {
		return
	}
	res := json.RawMessage(f.Raw[s:e])
	var r struct {
		ProtocolVersion   string          `json:"protocolVersion"`
		SupportedVersions []string        `json:"supportedVersions"`
		Capabilities      json.RawMessage `json:"capabilities"`
		Instructions      string          `json:"instructions"`
		ServerInfo        struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
		Meta struct {
			ServerInfo struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(res, &r)
	{
		name, version := r.ServerInfo.Name, r.ServerInfo.Version
		if name == "" {
			name, version = r.Meta.ServerInfo.Name, r.Meta.ServerInfo.Version
		}
		src := ex.Source
		if k := strings.LastIndexByte(src, '#'); k > 0 {
			src = src[:k]
		}
		b.origin(name, version, src)
	}
	if b.face.name != "" {
		// The first source's server is the mock's: a fixture's, or the
		// first recorded handshake's.
		for _, v := range append(r.SupportedVersions, r.ProtocolVersion) {
			b.addVersion(v)
		}
		return
	}
	name, version := r.ServerInfo.Name, r.ServerInfo.Version
	if name == "" {
		name, version = r.Meta.ServerInfo.Name, r.Meta.ServerInfo.Version
	}
	b.face.name, b.face.version = name, version
	if len(r.Capabilities) > 0 {
		b.face.capabilities, _ = frames.Compact(r.Capabilities)
	}
	b.face.instructions = r.Instructions
	if ex.Method == "initialize" {
		b.face.initialize = res
		b.face.initVersion = r.ProtocolVersion
		b.addVersion(r.ProtocolVersion)
	} else {
		b.face.discover = res
		for _, v := range r.SupportedVersions {
			b.addVersion(v)
		}
	}
}

// flowOwner is the open request a server message belongs to: the one its
// progress token or related request names, else the newest; -1 when none is
// open.
func flowOwner(open []*Exchange, raw []byte) int {
	if len(open) == 0 {
		return -1
	}
	if s, e, ok := frames.MemberSpan(raw, "params", "progressToken"); ok {
		tok := string(raw[s:e])
		for k, ex := range open {
			if progressToken(ex.Params) == tok {
				return k
			}
		}
	}
	return len(open) - 1
}

// progressToken is the JSON text of a request's progress token, "" if none.
func progressToken(params json.RawMessage) string {
	if s, e, ok := frames.MemberSpan(params, "_meta", "progressToken"); ok {
		return string(params[s:e])
	}
	return ""
}

// metaVersion is the protocol version a 2026-07-28 request carries in its
// _meta, "" for a legacy request.
func metaVersion(params json.RawMessage) string {
	s, e, ok := frames.MemberSpan(params, "_meta", "io.modelcontextprotocol/protocolVersion")
	if !ok {
		return ""
	}
	var v string
	_ = json.Unmarshal(params[s:e], &v)
	return v
}

func indexOf(list []*Exchange, ex *Exchange) int {
	for k, have := range list {
		if have == ex {
			return k
		}
	}
	return -1
}
