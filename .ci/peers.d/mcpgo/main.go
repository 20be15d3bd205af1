// Command mcpgo-peer puts mark3labs/mcp-go's own servers and clients on the
// wire for jig's tests: its stdio, Streamable HTTP and legacy SSE servers
// (the SSE one sends an absolute endpoint URL, as mcp-go does by default)
// and its SSE and Streamable HTTP clients. It is built by .ci/peers.d/40-mcpgo.sh
// at two mcp-go releases; it is never part of jig.
//
//	mcpgo-peer serve stdio|http ADDR|sse ADDR
//	mcpgo-peer client http|sse URL
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: mcpgo-peer serve stdio|http ADDR|sse ADDR, or mcpgo-peer client http|sse URL")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2], os.Args[3:])
	case "client":
		if len(os.Args) < 4 {
			err = fmt.Errorf("client needs a URL")
		} else {
			err = runClient(os.Args[2], os.Args[3])
		}
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo-peer:", err)
		os.Exit(1)
	}
}

func newServer() *server.MCPServer {
	s := server.NewMCPServer("mcpgo-peer", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echoes the message"), mcp.WithString("message", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("echo: " + req.GetString("message", "")), nil
		})
	s.AddTool(mcp.NewTool("slow", mcp.WithDescription("Answers after 20 seconds, or says it was cancelled")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(20 * time.Second):
				return mcp.NewToolResultText("slow: done"), nil
			case <-ctx.Done():
				fmt.Fprintln(os.Stderr, "mcpgo-peer: slow: cancelled:", ctx.Err())
				return nil, ctx.Err()
			}
		})
	return s
}

func serve(mode string, args []string) error {
	s := newServer()
	switch mode {
	case "stdio":
		return server.ServeStdio(s)
	case "http":
		if len(args) < 1 {
			return fmt.Errorf("serve http needs ADDR")
		}
		return server.NewStreamableHTTPServer(s).Start(args[0])
	case "sse":
		if len(args) < 1 {
			return fmt.Errorf("serve sse needs ADDR")
		}
		return server.NewSSEServer(s, server.WithBaseURL("http://"+args[0])).Start(args[0])
	}
	return fmt.Errorf("unknown transport %q", mode)
}

func runClient(mode, url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var c *client.Client
	var err error
	switch mode {
	case "sse":
		c, err = client.NewSSEMCPClient(url)
	case "http":
		c, err = client.NewStreamableHttpClient(url)
	default:
		return fmt.Errorf("unknown transport %q", mode)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpgo-peer-client", Version: "1.0.0"}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "echo"
	call.Params.Arguments = map[string]any{"message": "through jig"}
	res, err := c.CallTool(ctx, call)
	if err != nil {
		return fmt.Errorf("tools/call: %w", err)
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(mcp.TextContent); ok {
			text = tc.Text
		}
	}
	fmt.Printf("%d tools; echo: %q\n", len(tools.Tools), text)
	return nil
}
