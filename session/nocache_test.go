package session

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// cacheableServer is a go-sdk server whose list results say they stay fresh
// for a minute (ttlMs 60000), as a 2026-07-28 server may.
func cacheableServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "cacheable", Version: "1"}, &mcp.ServerOptions{
		SetCacheable: func(ctx context.Context, req mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = 60000, "private"
		},
	})
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil
		})
	return srv
}

// An inspector's refresh must reach the server: the go-sdk would answer a
// second tools/list from its TTL cache, showing the old list without asking.
func TestListingGoesToTheWireDespiteTTL(t *testing.T) {
	targets := map[string]Target{"stdio": selfTarget(t, "cacheable")}
	for name, jsonResponse := range map[string]bool{"http-sse": false, "http-json": true} {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return cacheableServer() },
			&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: jsonResponse})
		targets[name] = Target{Transport: TransportStreamable, URL: serveLoopback(t, h)}
	}
	for name, tgt := range targets {
		t.Run(name, func(t *testing.T) {
			s := open(t, Options{Target: tgt, ProtocolVersion: "2026-07-28"})
			for range 2 {
				if _, _, err := s.ListTools(ctx(t)); err != nil {
					t.Fatal(err)
				}
			}
			var lists int
			for _, f := range s.Log.Frames() {
				if f.Dir == frames.ClientToServer && f.Method == "tools/list" {
					lists++
				}
			}
			if lists != 2 {
				t.Errorf("%d tools/list on the wire for two listings, want 2 (one answered from the SDK's cache)", lists)
			}
			if h := s.ListCacheHint("tools/list"); !strings.Contains(h, "ttlMs 60000") || !strings.Contains(h, "cacheScope private") {
				t.Errorf("ListCacheHint = %q, want the server's ttlMs 60000 and cacheScope private (the frames keep them)", h)
			}
		})
	}
}
