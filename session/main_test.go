package session

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

// TestMain lets the test binary act as a stdio server when re-executed with
// JIG_TEST_SERVER set (the SDK's own trick): real processes, real pipes.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("JIG_TEST_SERVER"); mode {
	case "":
		os.Exit(m.Run())
	case "demo":
		if err := demo.ServeStdio(context.Background(), 1); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "linger":
		// Like server-everything, but worse: it outlives stdin and ignores
		// SIGTERM, so only jig's SIGKILL ends it.
		signal.Ignore(syscall.SIGTERM)
		demo.ServeStdio(context.Background(), 1)
		time.Sleep(time.Minute)
		os.Exit(0)
	case "rough":
		serveRough()
	case "exit-on-probe":
		// Like rmcp-based servers: any first message but initialize is fatal.
		serveExitOnProbe()
	case "cacheable":
		if err := cacheableServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "flood":
		if err := serveFlood(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "fail-start":
		fmt.Fprintln(os.Stderr, "fatal: cannot open database orders.db")
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "unknown JIG_TEST_SERVER %q\n", mode)
		os.Exit(2)
	}
}

// serveRough is a server that misbehaves the way real ones do: it prints
// garbage to stdout before speaking the protocol, sends a 4 MB frame on
// request, and crashes mid-call.
func serveRough() {
	os.Stdout.WriteString("hello from print()\n")
	os.Stdout.WriteString(`[{"jsonrpc":"2.0","method":"notifications/message","params":{}}]` + "\n")
	os.Stdout.WriteString("bad utf8 \xff\xfe\n")
	s := mcp.NewServer(&mcp.Implementation{Name: "rough", Version: "0.0.1"}, nil)
	s.AddTool(&mcp.Tool{Name: "big", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", 4<<20)}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "crash", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "panic: boom in crash handler")
			os.Exit(7)
			return nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

func serveExitOnProbe() {
	br := bufio.NewReader(os.Stdin)
	first, _ := br.ReadBytes('\n')
	if !bytes.Contains(first, []byte(`"method":"initialize"`)) {
		fmt.Fprintf(os.Stderr, "Error: ExpectedInitializeRequest(%s)\n", bytes.TrimSpace(first))
		os.Exit(1)
	}
	srv, _ := demo.New(1)
	in := io.NopCloser(io.MultiReader(bytes.NewReader(first), br))
	if err := srv.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: os.Stdout}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// selfTarget runs this test binary as a server in the given mode.
func selfTarget(t *testing.T, mode string) Target {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Target{Transport: TransportStdio, Command: []string{exe}, Env: map[string]string{"JIG_TEST_SERVER": mode}}
}

// nodeTarget runs server-everything (PEERS.md) in a mode.
func nodeTarget(t *testing.T, mode string) Target {
	return Target{Transport: TransportStdio, Command: peers.Node(t, peers.Everything, mode)}
}
