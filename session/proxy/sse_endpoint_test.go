package proxy

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// startMCPGoSSE runs mcp-go's SSE server, whose endpoint event is an
// absolute URL on its own origin.
func startMCPGoSSE(t *testing.T) string {
	bin := peers.Path(t, peers.MCPGo)
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cmd := exec.Command(bin, "serve", "sse", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "mcp-go's SSE server to listen", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return "http://" + addr + "/sse"
}

// mcpgoClient runs mcp-go's own SSE client against url and returns what it
// printed: the tools it listed and the echo it got.
func mcpgoClient(t *testing.T, url string) string {
	out, err := exec.Command(peers.Path(t, peers.MCPGo), "client", "sse", url).CombinedOutput()
	if err != nil {
		t.Fatalf("mcp-go's SSE client against %s: %v\n%s", url, err, out)
	}
	return string(out)
}

// gosdkClient runs the go-sdk's SSE client against url.
func gosdkClient(t *testing.T, url string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "gosdk-client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.SSEClientTransport{Endpoint: url, HTTPClient: &http.Client{}}, nil)
	if err != nil {
		t.Fatalf("go-sdk's SSE client against %s: %v", url, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "through jig"}})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	return fmt.Sprintf("%d tools; echo: %s", len(tools.Tools), res.Content[0].(*mcp.TextContent).Text)
}

// mcp-go's SSE server sends an absolute endpoint URL. Passed on unchanged,
// the mcp-go client behind the proxy refuses the other origin, and the
// go-sdk client posts straight to the server, so the recording has no
// client→server frames. The proxy rewrites it to its own address.
func TestHTTPProxyRewritesAbsoluteSSEEndpoint(t *testing.T) {
	target := startMCPGoSSE(t)
	clients := map[string]func(*testing.T, string) string{"mcp-go": mcpgoClient, "go-sdk": gosdkClient}
	for name, client := range clients {
		t.Run(name, func(t *testing.T) {
			direct := client(t, target)
			proxyURL, log, stop := startHTTPProxy(t, target)
			proxied := client(t, proxyURL+"/sse")
			stop()
			if proxied != direct {
				t.Errorf("through the proxy the client saw %q, directly %q", proxied, direct)
			}
			var sent []string
			var original, rewritten string
			for _, f := range log.Frames() {
				if f.Dir == frames.ClientToServer && f.Kind.IsMessage() {
					sent = append(sent, f.Method)
				}
				if f.HTTP != nil && f.HTTP.Event == "endpoint" {
					if strings.HasPrefix(f.Note, "proxy: endpoint") {
						rewritten = f.Note
					} else {
						original = f.Note
					}
				}
			}
			// Both clients speak 2026-07-28 to mcp-go 1.2.1: no initialize.
			want := []string{"server/discover", "tools/list", "tools/call"}
			if strings.Join(sent, " ") != strings.Join(want, " ") {
				t.Errorf("client→server frames recorded: %q, want %q", sent, want)
			}
			if !strings.Contains(original, strings.TrimSuffix(target, "/sse")+"/message") {
				t.Errorf("the endpoint event as the server sent it is not recorded (got %q)", original)
			}
			if !strings.Contains(rewritten, "rewritten to "+proxyURL+"/message") {
				t.Errorf("the rewrite is not recorded (got %q)", rewritten)
			}
		})
	}
}
