package frames

import "strings"

// An OwnAccount tells, over a session's frames taken in the order they
// crossed, which of the server's messages it sent on its own account rather
// than in the course of a request the client had open — so that what a call
// is kept with (a fixture's flow, a mock's answer) holds only what the server
// did for the call, even when its own business landed in the call's window.
//
// A server's message is its own when
//   - it came on Streamable HTTP's standalone GET stream, which the spec
//     keeps for messages unrelated to any request (a request's own come on
//     its POST's stream; so does the handshake's answer, which is how the
//     transport is told from HTTP+SSE, where everything comes on the GET);
//   - it is a ping;
//   - it is a roots/list the client's notifications/initialized or
//     notifications/roots/list_changed called for: the first one after each
//     (servers ask it after the handshake and on list_changed, on their own
//     schedule — server-everything 350 ms after initialized — so it races
//     with the first call);
//   - it is a list_changed sent after the client's notifications/initialized
//     and before the server's next answer: the handshake's consequence
//     (server-everything registers the tools the client's capabilities allow
//     and says so four times, inside whatever request came first);
//   - it is the first notification (not progress) right after the client
//     answered one of the server's own requests, with nothing else in
//     between: its consequence (server-everything logs "Roots updated").
//
// Everything else — elicitation and sampling, a roots/list nothing called
// for, progress, logging — is taken to be the open request's. Over stdio and
// HTTP+SSE nothing on the wire says more; a server asking roots/list inside
// a call right after the handshake, before its own scheduled one, has the
// call's taken for its own.
type OwnAccount struct {
	streamable bool            // a server message came on a POST: Streamable HTTP
	rootsDue   int             // roots/list the client's notifications call for
	asked      map[string]bool // the server's own requests not yet answered, by id
	after      bool            // the client just answered one of them
	handshake  bool            // initialized was sent; the server has answered nothing since
}

// See takes the next frame of the session and reports whether it is a
// message the server sent on its own account. Every frame must be seen, the
// client's too (they are the causes), in order.
func (o *OwnAccount) See(f *Frame) bool {
	if !f.Kind.IsMessage() {
		return false
	}
	if f.Dir == ClientToServer {
		o.after = false
		switch {
		case f.Kind == KindNotification && (f.Method == "notifications/initialized" || f.Method == "notifications/roots/list_changed"):
			o.rootsDue++
			o.handshake = o.handshake || f.Method == "notifications/initialized"
		case f.IsResponse() && o.asked[f.ID]:
			delete(o.asked, f.ID)
			o.after = true
		}
		return false
	}
	after := o.after
	o.after = false
	if f.HTTP != nil && f.HTTP.Method == "POST" {
		o.streamable = true
	}
	own := o.streamable && f.HTTP != nil && f.HTTP.Method == "GET"
	handshake := o.handshake
	if f.IsResponse() {
		o.handshake = false
	}
	switch {
	case f.Kind == KindNotification && handshake && strings.HasSuffix(f.Method, "/list_changed"):
		own = true
	case f.Kind == KindRequest && f.Method == "ping":
		own = true
	case f.Kind == KindRequest && f.Method == "roots/list" && o.rootsDue > 0:
		o.rootsDue--
		own = true
	case f.Kind == KindNotification && f.Method != "notifications/progress" && after:
		own = true
	}
	if own && f.Kind == KindRequest && f.ID != "" {
		if o.asked == nil || len(o.asked) >= 4096 {
			o.asked = map[string]bool{} // bounded: a hostile server may never be answered
		}
		o.asked[f.ID] = true
	}
	return own
}
