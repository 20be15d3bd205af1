package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// proxyThrough runs jig proxy with args in front of release 3 (the test
// binary), makes three searches through it like a client, and returns
// the answers, jig's exit code and stderr.
func proxyThrough(t *testing.T, args ...string) (answers []string, code int, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(release3Env, "0")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	done := make(chan int)
	go func() {
		done <- run(context.Background(), append(append([]string{"proxy", "--no-record"}, args...), "--", exe), inR, outW, &errOut)
		outW.Close()
	}()
	c := &proxyClient{t: t, in: inW, out: bufio.NewReader(outR)}
	c.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, cust := range []string{"Acme Corp", "Globex", "Initech"} {
		answers = append(answers, c.call("tools/call", fmt.Sprintf(`{"name":"search_orders","arguments":{"customer":%q}}`, cust)))
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	return answers, <-done, errOut.String()
}

// TestProxyOTLP: jig proxy --otlp sends one span per tools/call to the
// collector, and says so at exit.
func TestProxyOTLP(t *testing.T) {
	var mu sync.Mutex
	spans, metricPosts := 0, 0
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/v1/traces":
			var req coltrace.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("traces: %v", err)
			}
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					spans += len(ss.Spans)
				}
			}
		case "/v1/metrics":
			metricPosts++
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer col.Close()
	answers, code, errOut := proxyThrough(t, "--otlp", col.URL)
	if code != 0 || len(answers) != 3 {
		t.Fatalf("jig proxy --otlp: exit %d\n%s", code, errOut)
	}
	mu.Lock()
	defer mu.Unlock()
	if spans != 3 || metricPosts == 0 {
		t.Errorf("the collector got %d spans and %d metric exports, want 3 and at least 1", spans, metricPosts)
	}
	if !strings.Contains(errOut, "jig proxy: otlp "+col.URL+": 3 calls, 3 exported as spans\n") {
		t.Errorf("stderr does not say what was exported:\n%s", errOut)
	}
}

// TestProxyOTLPUnreachable: a collector that is not there never breaks the
// proxied traffic; the calls not exported are counted at exit.
func TestProxyOTLPUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	answers, code, errOut := proxyThrough(t, "--otlp", url)
	if code != 0 || len(answers) != 3 {
		t.Fatalf("jig proxy --otlp (unreachable): exit %d\n%s", code, errOut)
	}
	for _, a := range answers {
		if !strings.Contains(a, `"structuredContent"`) {
			t.Errorf("the client did not get the server's answer: %s", a)
		}
	}
	if !strings.Contains(errOut, "3 calls, 0 exported as spans, 3 not exported") {
		t.Errorf("stderr does not count what was not exported:\n%s", errOut)
	}
}

func TestProxyOTLPBadURL(t *testing.T) {
	code, _, errOut := jig(t, "", "proxy", "--otlp", "127.0.0.1:4318", "--", "true")
	if code != exitUsage || !strings.Contains(errOut, "http://127.0.0.1:4318") {
		t.Errorf("--otlp without a scheme: exit %d\n%s", code, errOut)
	}
	code, _, errOut = jig(t, "", "proxy", "--otlp-args", "--", "true")
	if code != exitUsage || !strings.Contains(errOut, "--otlp-args needs --otlp") {
		t.Errorf("--otlp-args alone: exit %d\n%s", code, errOut)
	}
}
