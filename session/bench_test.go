package session

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// benchPair connects an SDK client to an echo server over pipes, with or
// without jig's line tap in between, so the two can be compared in one run.
func benchPair(b *testing.B, tapped bool) *mcp.ClientSession {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &a)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil
		})
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go srv.Run(ctx, &mcp.IOTransport{Reader: c2sR, Writer: s2cW, MaxLineLength: -1})
	var t mcp.Transport = &mcp.IOTransport{Reader: s2cR, Writer: c2sW, MaxLineLength: -1}
	if tapped {
		tap := newLineTap(frames.NewLog(nil), c2sW, s2cR)
		t = &mcp.IOTransport{Reader: tap, Writer: tap, MaxLineLength: -1}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "0"}, nil).Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); cancel() })
	return cs
}

func benchCall(b *testing.B, tapped bool, size int) {
	cs := benchPair(b, tapped)
	args, _ := json.Marshal(map[string]string{"text": strings.Repeat("x", size)})
	b.SetBytes(int64(2 * size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(args)}); err != nil {
			b.Fatal(err)
		}
	}
}

// The tap's cost on a round trip: compare Direct and Tapped at each size.
func BenchmarkCallDirect1KB(b *testing.B) { benchCall(b, false, 1<<10) }
func BenchmarkCallTapped1KB(b *testing.B) { benchCall(b, true, 1<<10) }
func BenchmarkCallDirect4MB(b *testing.B) { benchCall(b, false, 4<<20) }
func BenchmarkCallTapped4MB(b *testing.B) { benchCall(b, true, 4<<20) }
