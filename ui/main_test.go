package ui

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

// crashAfterEnv makes the re-executed test binary the demo server over
// stdio, exiting instead of answering the tools/call after the Nth: a
// server that dies mid-run, in a real process.
const crashAfterEnv = "JIG_UI_TEST_CRASH_AFTER"

func TestMain(m *testing.M) {
	oauthtest.MaybeBrowse()
	if v := os.Getenv(crashAfterEnv); v != "" {
		n, _ := strconv.Atoi(v)
		srv, _ := demo.New(1)
		calls := 0
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					if calls++; calls > n {
						fmt.Fprintf(os.Stderr, "crash-after: exiting on call %d\n", calls)
						os.Exit(3)
					}
				}
				return next(ctx, method, req)
			}
		})
		_ = srv.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashingDemo is the target of a demo server that dies after n calls.
func crashingDemo(t *testing.T, n int) session.Target {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return session.Target{Transport: session.TransportStdio, Command: []string{exe}, Env: map[string]string{crashAfterEnv: strconv.Itoa(n)}}
}
