package mock

import (
	"encoding/json"
)

// legacyVersions are the protocol versions of the initialize era, newest
// first: a client may ask for any of them.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// initializeResult answers initialize as the recorded server did: its
// recorded answer when a recording held one, else its self-description
// from the fixtures, in the version the client asked for when it was
// recorded (else the newest recorded legacy one, else the client's).
func (b *Book) initializeResult(params json.RawMessage) []byte {
	if b.face.initialize != nil {
		return b.face.initialize
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	version := ""
	for _, v := range b.face.versions {
		if v == p.ProtocolVersion && v < statelessVersion {
			version = v
		}
	}
	for _, v := range b.face.versions {
		if version == "" && v < statelessVersion {
			version = v
		}
	}
	if version == "" {
		version = legacyVersions[0]
		for _, v := range legacyVersions {
			if v == p.ProtocolVersion {
				version = v
			}
		}
	}
	res := struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      serverInfo      `json:"serverInfo"`
		Instructions    string          `json:"instructions,omitempty"`
	}{version, b.capabilities(), serverInfo{b.face.name, b.face.version}, b.face.instructions}
	out, _ := json.Marshal(res)
	return out
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// discoverResult answers a 2026-07-28 server/discover: as recorded, or
// from the fixtures' self-description when they were pinned in that era.
// ok is false when the recorded server never spoke it, so the client falls
// back to initialize.
func (b *Book) discoverResult(params json.RawMessage) (res []byte, ok bool) {
	if b.face.discover != nil {
		return b.face.discover, true
	}
	if !b.stateless() {
		return nil, false
	}
	var versions []string
	for _, v := range b.face.versions {
		if v >= statelessVersion {
			versions = append(versions, v)
		}
	}
	r := struct {
		Meta              map[string]serverInfo `json:"_meta"`
		Capabilities      json.RawMessage       `json:"capabilities"`
		Instructions      string                `json:"instructions,omitempty"`
		ResultType        string                `json:"resultType"`
		SupportedVersions []string              `json:"supportedVersions"`
	}{b.serverMeta(), b.capabilities(), b.face.instructions, "complete", versions}
	out, _ := json.Marshal(r)
	return out, true
}

func (b *Book) serverMeta() map[string]serverInfo {
	return map[string]serverInfo{"io.modelcontextprotocol/serverInfo": {b.face.name, b.face.version}}
}

// capabilities are the recorded server's, or what the fixtures show it
// had: tools, and resources and prompts when some were read.
func (b *Book) capabilities() json.RawMessage {
	if len(b.face.capabilities) > 0 {
		return b.face.capabilities
	}
	caps := map[string]struct{}{}
	if len(b.tools) > 0 || len(b.byMethod["tools/call"]) > 0 {
		caps["tools"] = struct{}{}
	}
	if len(b.resources) > 0 || len(b.byMethod["resources/read"]) > 0 {
		caps["resources"] = struct{}{}
	}
	if len(b.prompts) > 0 || len(b.byMethod["prompts/get"]) > 0 {
		caps["prompts"] = struct{}{}
	}
	out, _ := json.Marshal(caps)
	return out
}

// plainResult is a result the mock makes itself, with body's members (a
// JSON object, nil for none), marked as a complete 2026-07-28 result with
// the server's info when the request was of that era.
func (b *Book) plainResult(params json.RawMessage, body map[string]any) []byte {
	if body == nil {
		body = map[string]any{}
	}
	if metaVersion(params) >= statelessVersion {
		body["resultType"] = "complete"
		body["_meta"] = b.serverMeta()
	}
	out, _ := json.Marshal(body)
	return out
}

// synthesized answers the lists no recording holds from what the fixtures
// pinned: tools/list with the pinned tool definitions, resources/list and
// prompts/list with what was read or got, empty templates and
// completions, and logging/setLevel.
func (b *Book) synthesized(method string, params json.RawMessage) ([]byte, bool) {
	if len(b.byMethod[method]) > 0 {
		return nil, false
	}
	switch method {
	case "tools/list":
		tools := make([]json.RawMessage, len(b.tools))
		copy(tools, b.tools)
		return b.plainResult(params, map[string]any{"tools": tools}), true
	case "resources/list":
		list := []map[string]string{}
		for _, uri := range b.resources {
			list = append(list, map[string]string{"uri": uri, "name": uri})
		}
		return b.plainResult(params, map[string]any{"resources": list}), true
	case "resources/templates/list":
		return b.plainResult(params, map[string]any{"resourceTemplates": []any{}}), true
	case "prompts/list":
		list := []map[string]string{}
		for _, name := range b.prompts {
			list = append(list, map[string]string{"name": name})
		}
		return b.plainResult(params, map[string]any{"prompts": list}), true
	case "completion/complete":
		return b.plainResult(params, map[string]any{"completion": map[string]any{"values": []string{}}}), true
	case "logging/setLevel":
		return b.plainResult(params, nil), true
	}
	return nil, false
}
