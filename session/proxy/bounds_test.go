package proxy

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// Bodies and events over the frame limit go through the HTTP proxy intact,
// streamed rather than held, and are recorded truncated with their true
// size: a client's traffic is never cut, and an endless body costs the
// proxy no more than the limit.
func TestHTTPProxyBoundsBodiesByTheFrameLimit(t *testing.T) {
	const limit = 64 << 10
	big := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 1<<20) + `"}]}}`
	var gotRequest [32]byte
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotRequest = sha256.Sum256(b)
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big)
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", big)
			fmt.Fprintf(w, "data: %s\n\n", `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)
		}
	}))
	t.Cleanup(upstream.Close)
	u, _ := url.Parse(upstream.URL)
	log := frames.NewLog(nil)
	p := &HTTP{Target: u, Log: log, MaxFrame: limit}
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)

	request := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"blob":"` + strings.Repeat("y", 1<<20) + `"}}}`
	for _, path := range []string{"/json", "/sse"} {
		resp, err := http.Post(front.URL+path, "application/json", strings.NewReader(request))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if gotRequest != sha256.Sum256([]byte(request)) {
			t.Errorf("%s: the server did not receive the client's request intact", path)
		}
		if !bytes.Contains(body, []byte(big)) {
			t.Errorf("%s: the client did not receive the server's answer intact (%d bytes)", path, len(body))
		}
	}
	front.Close()
	p.Close()

	var cut []*frames.Frame
	for i := 0; i < log.Len(); i++ {
		if f := log.Frame(i); f.Length > 0 {
			cut = append(cut, f)
		}
	}
	want := []struct {
		dir  frames.Direction
		size int
	}{{frames.ClientToServer, len(request)}, {frames.ServerToClient, len(big)}, {frames.ClientToServer, len(request)}, {frames.ServerToClient, len(big)}}
	if len(cut) != len(want) {
		t.Fatalf("%d truncated frames recorded, want %d (two requests, a body and an event)", len(cut), len(want))
	}
	for i, f := range cut {
		if f.Dir != want[i].dir || f.Length != int64(want[i].size) || len(f.Raw) > frames.TruncatedKeep || f.Kind != frames.KindInvalid ||
			!strings.Contains(f.Err, "frame limit (64.0 KB") || !strings.Contains(f.Err, "passed on whole") {
			t.Errorf("truncated frame %d: %s, %d of %d bytes kept, %s %q; want %s, its true size %d, at most %d kept, naming the limit",
				i, f.Dir, len(f.Raw), f.Length, f.Kind, f.Err, want[i].dir, want[i].size, frames.TruncatedKeep)
		}
	}
	// The event after the big one is recorded whole.
	last := log.Frame(log.Len() - 2)
	if last.Method != "notifications/progress" {
		t.Errorf("the event after the truncated one: %s %q", last.Kind, last.Raw)
	}
}
