package frames

import (
	"encoding/json"
	"slices"
	"strings"
)

// Handshake is who spoke in a session, as its frames say: the server's and
// the client's names and versions and the protocol they settled on. A
// recording made by jig's proxy has no meta record of its own: its frames
// are the only place to learn that the client was, say, Claude Desktop.
type Handshake struct {
	Server, ServerVersion string
	Client, ClientVersion string
	Protocol              string
	asked                 string // the version a server/discover asked for
}

// ServerLabel is how a peer named itself in the handshake: "name version",
// with "(no name)" or "(no version)" for a field it sent empty (both are
// required, and some servers send ""), so the TUI and the CLI say the same.
func ServerLabel(name, version string) string {
	if name == "" {
		name = "(no name)"
	}
	if version == "" {
		version = "(no version)"
	}
	return name + " " + version
}

// ServerText is "name version", or "".
func (h Handshake) ServerText() string { return strings.TrimSpace(h.Server + " " + h.ServerVersion) }

// ClientText is "name version", or "".
func (h Handshake) ClientText() string { return strings.TrimSpace(h.Client + " " + h.ClientVersion) }

// handshakeMethods are the requests that open a session: initialize in the
// legacy era, server/discover in 2026-07-28.
func handshakeMethod(m string) bool { return m == "initialize" || m == "server/discover" }

// HandshakeOf reads the handshake from the first frames of r (at most the
// first 64: a session opens with it). A later initialize (the fallback
// after a refused probe) wins over an earlier one.
func HandshakeOf(r Reader) Handshake {
	var h Handshake
	for i := 0; i < r.Len() && i < 64; i++ {
		f := r.Frame(i)
		if !handshakeMethod(f.Method) {
			continue
		}
		body, err := r.Body(i)
		if err != nil {
			continue
		}
		h.Add(f.Dir, f.Kind, body)
	}
	return h
}

// Add takes what one handshake frame says: a request names the client
// (params.clientInfo, or the 2026-07-28 era's _meta), a result the server
// and the protocol.
func (h *Handshake) Add(dir Direction, kind Kind, raw []byte) {
	type info struct{ Name, Version string }
	var msg struct {
		Params struct {
			ClientInfo      *info `json:"clientInfo"`
			ProtocolVersion string
			Meta            struct {
				ClientInfo *info  `json:"io.modelcontextprotocol/clientInfo"`
				Protocol   string `json:"io.modelcontextprotocol/protocolVersion"`
			} `json:"_meta"`
		}
		Result struct {
			ServerInfo      *info `json:"serverInfo"`
			ProtocolVersion string
			Supported       []string `json:"supportedVersions"`
			Meta            struct {
				ServerInfo *info `json:"io.modelcontextprotocol/serverInfo"`
			} `json:"_meta"`
		}
	}
	if json.Unmarshal(raw, &msg) != nil {
		return
	}
	switch {
	case dir == ClientToServer && kind == KindRequest:
		ci := msg.Params.ClientInfo
		if ci == nil {
			ci = msg.Params.Meta.ClientInfo
		}
		if ci != nil {
			h.Client, h.ClientVersion = ci.Name, ci.Version
		}
		h.asked = msg.Params.Meta.Protocol
	case dir == ServerToClient && kind == KindResult:
		si := msg.Result.ServerInfo
		if si == nil {
			si = msg.Result.Meta.ServerInfo
		}
		if si != nil {
			h.Server, h.ServerVersion = si.Name, si.Version
		}
		switch {
		case msg.Result.ProtocolVersion != "":
			h.Protocol = msg.Result.ProtocolVersion
		case slices.Contains(msg.Result.Supported, h.asked):
			h.Protocol = h.asked
		case len(msg.Result.Supported) > 0:
			h.Protocol = msg.Result.Supported[0]
		}
	}
}
