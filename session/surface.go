package session

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpjig/jig/frames/surface"
)

// Surface lists everything the server offers — every page of its tools,
// resources, resource templates and prompts, those its capabilities
// declare — with its capabilities, instructions and the client
// capabilities jig declared (servers list tools by them). A declared list
// the server refuses with a JSON-RPC error is named in Unlisted with the
// error; any other failure ends the listing.
func (s *Session) Surface(ctx context.Context) (*surface.Surface, error) {
	info := s.Info()
	out := &surface.Surface{
		Format:             surface.Format,
		Server:             surface.Server{Name: info.ServerName, Version: info.ServerVersion},
		ProtocolVersion:    info.ProtocolVersion,
		ClientCapabilities: append([]string(nil), info.ClientCapabilities...),
		Capabilities:       info.ServerCapabilities,
		Instructions:       info.Instructions,
		Tools:              []json.RawMessage{},
	}
	var caps map[string]json.RawMessage
	json.Unmarshal(info.ServerCapabilities, &caps)
	lists := []struct {
		capability, method string
		into               *[]json.RawMessage
		list               func(context.Context) ([]json.RawMessage, error)
	}{
		{"tools", "tools/list", &out.Tools, func(ctx context.Context) ([]json.RawMessage, error) {
			raw, _, err := s.ListTools(ctx)
			return raw, err
		}},
		{"resources", "resources/list", &out.Resources, s.ListResources},
		{"resources", "resources/templates/list", &out.ResourceTemplates, s.ListResourceTemplates},
		{"prompts", "prompts/list", &out.Prompts, s.ListPrompts},
	}
	for _, l := range lists {
		if _, ok := caps[l.capability]; !ok {
			continue
		}
		items, err := l.list(ctx)
		var rpc *RPCError
		switch {
		case errors.As(err, &rpc):
			if out.Unlisted == nil {
				out.Unlisted = map[string]string{}
			}
			out.Unlisted[l.method] = rpc.Error()
		case err != nil:
			return nil, err
		}
		if items != nil {
			*l.into = items
		}
	}
	out.Sort()
	return out, nil
}
