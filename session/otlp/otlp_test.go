package otlp

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	colmetric "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// collector is an OTLP/HTTP receiver on loopback: it decodes what the
// OpenTelemetry SDK sends, as a real collector would.
type collector struct {
	*httptest.Server
	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics map[string]int // metric name → data points received
}

func newCollector(t *testing.T) *collector {
	c := &collector{metrics: map[string]int{}}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if ct := r.Header.Get("Content-Type"); ct != "application/x-protobuf" {
			t.Errorf("%s: Content-Type %q, want application/x-protobuf", r.URL.Path, ct)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		var resp proto.Message
		switch r.URL.Path {
		case "/v1/traces":
			var req coltrace.ExportTraceServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("traces: %v", err)
			}
			for _, rs := range req.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					c.spans = append(c.spans, ss.Spans...)
				}
			}
			resp = &coltrace.ExportTraceServiceResponse{}
		case "/v1/metrics":
			var req colmetric.ExportMetricsServiceRequest
			if err := proto.Unmarshal(body, &req); err != nil {
				t.Errorf("metrics: %v", err)
			}
			for _, rm := range req.ResourceMetrics {
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						n := len(m.GetSum().GetDataPoints()) + len(m.GetHistogram().GetDataPoints())
						c.metrics[m.Name] += n
					}
				}
			}
			resp = &colmetric.ExportMetricsServiceResponse{}
		default:
			http.NotFound(w, r)
			return
		}
		b, _ := proto.Marshal(resp)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	}))
	t.Cleanup(c.Close)
	return c
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		v := kv.Value
		switch {
		case v.GetStringValue() != "":
			out[kv.Key] = v.GetStringValue()
		default:
			b, _ := json.Marshal(map[string]any{"i": v.GetIntValue(), "b": v.GetBoolValue()})
			out[kv.Key] = string(b)
		}
	}
	return out
}

// demoSession runs real calls against the demo server's release 1 and
// returns its Log: a tools/list, two searches (one with a secret-named
// argument), an unknown order (isError) and an unknown tool (a JSON-RPC
// error).
func demoSession(t *testing.T) *frames.Log {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: session.Target{Transport: session.TransportDemo, Release: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"customer":"Acme Corp","since":"2026-01-01"}`, `{"customer":"Globex","limit":3}`} {
		if _, err := s.CallTool(ctx, "search_orders", json.RawMessage(args)); err != nil {
			t.Fatal(err)
		}
	}
	s.CallTool(ctx, "search_order", json.RawMessage(`{"order_id":"ord-0"}`))
	s.CallTool(ctx, "no_such_tool", json.RawMessage(`{"api_key":"sk-live-0123456789abcdef"}`))
	return s.Log
}

func feed(e *Exporter, log *frames.Log) {
	sink := e.Session("")
	for i := range log.Len() {
		sink.WriteFrame(log.Frame(i))
	}
}

// TestSpansAndMetrics: each tools/call of a real session is one span with
// the tool, outcome, sizes, error code and session id, and no argument
// values; the per-tool metrics reach the collector.
func TestSpansAndMetrics(t *testing.T) {
	col := newCollector(t)
	log := demoSession(t)
	e, err := New(context.Background(), Options{Endpoint: col.URL, Interval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	feed(e, log)
	c := e.Close(time.Minute)
	if c.Calls != 4 || c.Exported != 4 || c.Dropped != 0 || c.Err != nil {
		t.Fatalf("counts %+v, want 4 calls exported", c)
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	if len(col.spans) != 4 {
		t.Fatalf("the collector got %d spans, want 4", len(col.spans))
	}
	byOutcome := map[string]map[string]string{}
	ids := map[string]bool{}
	for _, sp := range col.spans {
		a := attrs(sp.Attributes)
		byOutcome[a["jig.outcome"]] = a
		ids[a["mcp.session.id"]] = true
		if !strings.HasPrefix(sp.Name, "tools/call ") || sp.EndTimeUnixNano < sp.StartTimeUnixNano || sp.StartTimeUnixNano == 0 {
			t.Errorf("span %q from %d to %d", sp.Name, sp.StartTimeUnixNano, sp.EndTimeUnixNano)
		}
		if _, ok := a["jig.arguments"]; ok {
			t.Errorf("span %q carries the arguments without Args", sp.Name)
		}
		for _, v := range a {
			if strings.Contains(v, "Acme") || strings.Contains(v, "sk-live") {
				t.Errorf("span %q carries an argument value: %v", sp.Name, a)
			}
		}
	}
	if len(ids) != 1 || ids[""] {
		t.Errorf("session ids %v, want one", ids)
	}
	if a := byOutcome["tool_error"]; a["gen_ai.tool.name"] != "search_order" || a["error.type"] != "tool_error" {
		t.Errorf("the unknown order's span: %v", a)
	}
	if a := byOutcome["error"]; a["gen_ai.tool.name"] != "no_such_tool" || a["error.type"] != "-32602" {
		t.Errorf("the unknown tool's span: %v", a)
	}
	if a := byOutcome["ok"]; a["gen_ai.tool.name"] != "search_orders" || a["jig.result.size"] == "" {
		t.Errorf("a search's span: %v", a)
	}
	for _, m := range []string{"jig.tool.calls", "jig.tool.duration", "jig.tool.result.size", "jig.tool.result.items"} {
		if col.metrics[m] == 0 {
			t.Errorf("no data points of %s; got %v", m, col.metrics)
		}
	}
}

// TestArgsAreRedacted: with Args, a span carries the arguments, with the
// secrets redacted.
func TestArgsAreRedacted(t *testing.T) {
	col := newCollector(t)
	log := demoSession(t)
	e, err := New(context.Background(), Options{Endpoint: col.URL, Args: true, Redact: frames.NewRedactor(), Interval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	feed(e, log)
	e.Close(time.Minute)
	col.mu.Lock()
	defer col.mu.Unlock()
	seen := 0
	for _, sp := range col.spans {
		args := attrs(sp.Attributes)["jig.arguments"]
		if strings.Contains(args, "sk-live") {
			t.Errorf("span %q: a secret reached the collector: %s", sp.Name, args)
		}
		if strings.Contains(args, "Acme Corp") || strings.Contains(args, "api_key") {
			seen++
		}
	}
	if seen != 2 {
		t.Errorf("%d spans carry their arguments, want 2 (a search and the unknown tool)", seen)
	}
}

// TestUnreachableCollector: a collector that is not there is no error
// until jig exits, and then every call is counted as not exported, with
// the error.
func TestUnreachableCollector(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	log := demoSession(t)
	e, err := New(context.Background(), Options{Endpoint: "http://" + addr, Timeout: 200 * time.Millisecond, Interval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	feed(e, log)
	c := e.Close(time.Second)
	if c.Calls != 4 || c.Exported != 0 || c.Dropped != 4 || c.Err == nil || c.MetricFailures == 0 {
		t.Errorf("counts %+v: want 4 calls, none exported, the error, a failed metric export", c)
	}
}

// TestFullQueueDrops: a frame that finds the queue full is dropped and
// counted at once, never waited for (the exporter's goroutine is not
// running here, so the queue cannot drain).
func TestFullQueueDrops(t *testing.T) {
	e := &Exporter{q: make(chan item, 2), tools: map[string]bool{}}
	s := &Session{e: e, matcher: frames.NewCallMatcher()}
	for i := range 5 {
		s.WriteFrame(&frames.Frame{Kind: frames.KindRequest, Method: "tools/call", ID: strconv.Itoa(i)})
	}
	s.WriteFrame(&frames.Frame{Kind: frames.KindNotification, Method: "notifications/message"}) // never queued
	if got := e.framesDropped.Load(); got != 3 || len(e.q) != 2 {
		t.Errorf("%d frames dropped, %d queued; want 3 and 2", got, len(e.q))
	}
}

func TestParseEndpoint(t *testing.T) {
	for _, bad := range []string{"", "127.0.0.1:4318", "grpc://127.0.0.1:4317", "http://"} {
		if _, err := ParseEndpoint(bad); err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:4318") {
			t.Errorf("ParseEndpoint(%q) = %v, want an error showing a valid URL", bad, err)
		}
	}
}
