package session

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadResource sends resources/read for uri. A JSON-RPC error (an unknown URI
// is -32602 on most servers) comes back as *RPCError.
func (s *Session) ReadResource(ctx context.Context, uri string) (*Exchange, error) {
	return s.roundTrip(ctx, "resources/read "+uri, "resources/read", func(ctx context.Context) error {
		_, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		return rpcError(err)
	})
}

// GetPrompt sends prompts/get with the arguments given.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*Exchange, error) {
	return s.roundTrip(ctx, "prompts/get "+name, "prompts/get", func(ctx context.Context) error {
		_, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		return rpcError(err)
	})
}

// ListResources lists every resource across all pages, raw as sent.
func (s *Session) ListResources(ctx context.Context) ([]json.RawMessage, error) {
	return listAll(ctx, s, "resources/list", "resources", func(ctx context.Context, cursor string) (string, error) {
		res, err := s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		return res.NextCursor, nil
	})
}

// ListResourceTemplates lists every resource template across all pages, raw
// as sent: a template's uriTemplate is a URI with {variables} to fill in.
func (s *Session) ListResourceTemplates(ctx context.Context) ([]json.RawMessage, error) {
	return listAll(ctx, s, "resources/templates/list", "resourceTemplates", func(ctx context.Context, cursor string) (string, error) {
		res, err := s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		return res.NextCursor, nil
	})
}

// ListPrompts lists every prompt across all pages, raw as sent.
func (s *Session) ListPrompts(ctx context.Context) ([]json.RawMessage, error) {
	return listAll(ctx, s, "prompts/list", "prompts", func(ctx context.Context, cursor string) (string, error) {
		res, err := s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		return res.NextCursor, nil
	})
}

// listAll pages through a list method, collecting the raw items of key from
// each response frame.
func listAll(ctx context.Context, s *Session, method, key string, page func(ctx context.Context, cursor string) (string, error)) ([]json.RawMessage, error) {
	var out []json.RawMessage
	cursor := ""
	seen := map[string]bool{}
	for n := 0; ; n++ {
		var next string
		ex, err := s.roundTrip(ctx, method, method, func(ctx context.Context) error {
			var err error
			next, err = page(ctx, cursor)
			return rpcError(err)
		})
		if err != nil {
			return out, err
		}
		if ex != nil {
			var body map[string]json.RawMessage
			var items []json.RawMessage
			if json.Unmarshal(ex.Result, &body) == nil && json.Unmarshal(body[key], &items) == nil {
				out = append(out, items...)
			}
		}
		if next == "" || s.cycled(seen, method, next, n) {
			break
		}
		cursor = next
	}
	return out, nil
}

// ListPage asks for one page of a list — tools/list, resources/list,
// resources/templates/list or prompts/list — from cursor ("" for the first)
// and returns its exchange as sent and received: a pinned page replays so.
func (s *Session) ListPage(ctx context.Context, method, cursor string) (*Exchange, error) {
	var ask func(ctx context.Context) error
	switch method {
	case "tools/list":
		ask = func(ctx context.Context) error {
			_, err := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			return err
		}
	case "resources/list":
		ask = func(ctx context.Context) error {
			_, err := s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			return err
		}
	case "resources/templates/list":
		ask = func(ctx context.Context) error {
			_, err := s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			return err
		}
	case "prompts/list":
		ask = func(ctx context.Context) error {
			_, err := s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			return err
		}
	default:
		return nil, fmt.Errorf("%s is not a list jig pages through (tools/list, resources/list, resources/templates/list, prompts/list)", method)
	}
	return s.roundTrip(ctx, method, method, func(ctx context.Context) error { return rpcError(ask(ctx)) })
}
