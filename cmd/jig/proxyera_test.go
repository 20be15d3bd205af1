package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// startProxy runs jig proxy --record named before target and returns the
// proxy's URL and a function that stops it and returns its stderr.
func startProxy(t *testing.T, target, named string) (string, func() string) {
	t.Helper()
	addr := "127.0.0.1:" + freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"proxy", "--listen", addr, "--target", target, "--record", named}, strings.NewReader(""), io.Discard, &errb)
	}()
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatalf("the proxy did not listen on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopped := false
	stop := func() string {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
		return errb.String()
	}
	t.Cleanup(func() { stop() })
	return "http://" + addr + "/mcp", stop
}

// requestsIn lists the methods of the requests a recording holds.
func requestsIn(t *testing.T, path string) []string {
	t.Helper()
	x, err := frames.OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var methods []string
	for i := range x.Len() {
		if f := x.Frame(i); f.Kind == frames.KindRequest {
			methods = append(methods, f.Method)
		}
	}
	return methods
}

// Two jig clients through jig proxy before a 2026-07-28 server (mcp-go
// v1.2.1, stateless): the era has no sessions, so the traffic — each
// client's server/discover (its handshake) and its calls — stays in the one
// file --record names, and jig mock of that file answers as that server in
// that era. The era probe's Mcp-Session-Id, which the server never issued,
// named a "client session" of its own and took the file, and the calls went
// to FILE-2 without any handshake.
func TestProxyRecordsA2026SessionWithItsHandshake(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, []string{peers.Path(t, peers.MCPGo), "serve", "http", fmt.Sprintf("127.0.0.1:%d", port)}, port)
	dir := t.TempDir()
	named := filepath.Join(dir, "http2.jsonl")
	front, stop := startProxy(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), named)
	for range 2 {
		if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"message":"hi"}`, "--url", front, "--no-record"); code != exitOK {
			t.Fatalf("jig call through the proxy: exit %d\n%s", code, errOut)
		}
	}
	stderr := stop()
	methods := requestsIn(t, named)
	discover, calls := 0, 0
	for _, m := range methods {
		switch m {
		case "server/discover":
			discover++
		case "tools/call":
			calls++
		}
	}
	if len(methods) == 0 || methods[0] != "server/discover" || discover != 2 || calls != 2 {
		t.Errorf("%s holds requests %v, not both clients' discover and calls\n%s", named, methods, stderr)
	}
	if strings.Contains(stderr, "jig-era-probe") || strings.Contains(stderr, "no client session") {
		t.Errorf("the probe is taken as a client session, or the traffic as none:\n%s", stderr)
	}
	others, _ := filepath.Glob(filepath.Join(dir, "http2-*"))
	if len(others) > 0 {
		t.Errorf("2026-07-28 traffic split into %v:\n%s", others, stderr)
	}
	code, out, errOut := jig(t, "", append([]string{"tools", "--"}, jigCommand("mock", "--no-record", named)...)...)
	if code != exitOK || !strings.Contains(out+errOut, "2026-07-28") || strings.Contains(out+errOut, "jig-mock") {
		t.Errorf("jig mock of %s does not answer as the server it recorded: exit %d\n%s%s", named, code, out, errOut)
	}
}

// Three legacy clients through the HTTP proxy: run.jsonl, run-2.jsonl,
// run-3.jsonl hold them, the probes sit in run-no-session.jsonl; run-2 was
// skipped (the probes' traffic took a number).
func TestProxySessionFilesAreNumberedWithoutAGap(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	dir := t.TempDir()
	named := filepath.Join(dir, "run.jsonl")
	front, stop := startProxy(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), named)
	for range 3 {
		if code, _, errOut := jig(t, "", "tools", "--url", front, "--no-record"); code != exitOK {
			t.Fatalf("jig tools through the proxy: exit %d\n%s", code, errOut)
		}
	}
	stderr := stop()
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"run-2.jsonl", "run-3.jsonl", "run-no-session.jsonl", "run.jsonl"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v\n%s", names, want, stderr)
	}
	for _, n := range []string{"run.jsonl", "run-2.jsonl", "run-3.jsonl"} {
		if m := requestsIn(t, filepath.Join(dir, n)); !slices.Contains(m, "initialize") || !slices.Contains(m, "tools/list") {
			t.Errorf("%s holds %v, not a client session", n, m)
		}
		if !strings.Contains(stderr, n+" (client session ") {
			t.Errorf("stderr does not name %s as a client session's:\n%s", n, stderr)
		}
	}
}
