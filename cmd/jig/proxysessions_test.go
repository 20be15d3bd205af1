package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/record"
)

// The first client session takes --record FILE, the next ones FILE-2, FILE-3.
func TestProxySessionFiles(t *testing.T) {
	dir := t.TempDir()
	first := frames.NewLog(nil)
	opts := record.Options{Path: filepath.Join(dir, "run.jsonl"), Target: []byte(`{"transport":"http"}`), Mode: "proxy"}
	path, closer, err := record.ForLog(first, opts)
	if err != nil {
		t.Fatal(err)
	}
	files := &sessionFiles{first: recorded{log: first, path: path, closer: closer}, opts: opts}
	a, b, c := files.logFor("sess-a"), files.logFor("sess-b"), files.logFor("")
	if a != first || files.logFor("sess-a") != a || b == a || c == a || c == b {
		t.Fatalf("logFor gave the same Log to different sessions, or a new one to the same")
	}
	for i, l := range []*frames.Log{a, b, c} {
		l.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
		_ = i
	}
	var errb bytes.Buffer
	files.close(&streams{err: &errb})
	for _, name := range []string{"run.jsonl", "run-2.jsonl", "run-3.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, want := range []string{"run.jsonl (client session sess-a)", "run-2.jsonl (client session sess-b)", "run-3.jsonl (traffic of no client session"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}

// One jig call through the HTTP proxy to a real server: the file --record
// names holds the call's client session, and the failed server/discover
// probe sent before initialize (traffic of no session) is beside it in
// FILE-no-session.jsonl; the exit message says which file holds what.
func TestProxyRecordFileHoldsTheClientSession(t *testing.T) {
	proxyOneCall(t, nil)
}

// proxyOneCall runs jig proxy --record before the demo server over
// Streamable HTTP (its handler wrapped by wrap, if given), makes one jig
// call through it, checks the files, and returns the named file's path.
func proxyOneCall(t *testing.T, wrap func(http.Handler) http.Handler) string {
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	dir := t.TempDir()
	named := filepath.Join(dir, "httpproxy.jsonl")
	addr := "127.0.0.1:" + freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"proxy", "--listen", addr, "--target", ts.URL, "--record", named}, strings.NewReader(""), io.Discard, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("the proxy did not listen on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, _, callErr := jig(t, "", "call", "search_orders", "--args", `{"customer":"Acme Corp","since":"2026-01-01"}`, "--url", "http://"+addr+"/", "--no-record")
	cancel()
	<-done
	if code != exitOK {
		t.Fatalf("jig call through the proxy: exit %d\n%s", code, callErr)
	}
	methods := requestsIn(t, named)
	if !slices.Contains(methods, "initialize") || !slices.Contains(methods, "tools/call") {
		t.Errorf("%s holds requests %v, not the client session\n%s", named, methods, errb.String())
	}
	if !strings.Contains(errb.String(), named+" (client session ") {
		t.Errorf("the exit message does not name %s as the client session's:\n%s", named, errb.String())
	}
	side := filepath.Join(dir, "httpproxy-no-session.jsonl")
	if _, err := os.Stat(side); err != nil || !strings.Contains(errb.String(), side+" (traffic of no client session") {
		t.Errorf("the probe's traffic is not in %s, named for what it holds (%v):\n%s", side, err, errb.String())
	}
	return named
}

// A stdio proxy whose command cannot run says why and writes no recording.
func TestProxyCommandThatCannotRunRecordsNothing(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jsonl")
	code, _, errOut := jig(t, "", "proxy", "--record", rec, "--", dir)
	if code != exitUnreachable || !strings.Contains(errOut, "is a directory, not a program") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(rec); err == nil {
		t.Errorf("%s was written for a server that never started", rec)
	}
}
