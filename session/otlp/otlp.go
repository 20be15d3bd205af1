// Package otlp exports the tool calls of recorded sessions to an
// OpenTelemetry collector over OTLP/HTTP (protobuf): one span per
// tools/call, and the per-tool statistics as metrics, so drift watching at
// production scale runs in the collector, Prometheus and Grafana stack a
// team already has. The OpenTelemetry SDK makes the spans and aggregates
// the metrics; jig encodes and posts them itself (wire.go, post.go), so
// that no gRPC or protobuf runtime is linked into every command.
//
// An Exporter is fed by frames.Logs as a frames.Sink. It never blocks the
// Log: frames wait in a bounded queue for a goroutine of its own, and the
// SDK's batch processor exports on another. An unreachable collector costs
// the traffic nothing; what could not be exported is counted (Close).
package otlp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpjig/jig/frames"
)

// Options configure an Exporter.
type Options struct {
	// Endpoint is the collector's OTLP/HTTP base URL
	// (http://127.0.0.1:4318); spans go to /v1/traces under it, metrics
	// to /v1/metrics.
	Endpoint string
	// Service is the resource's service.name ("jig proxy" when empty);
	// Server names the proxied server (its command or URL, redacted).
	Service, Server string
	// Args adds each call's arguments, redacted, to its span. Off by
	// default: argument values are the user's data.
	Args   bool
	Redact *frames.Redactor
	// Queue bounds the frames waiting to be turned into spans (DefaultQueue
	// when 0); past it frames are dropped and counted.
	Queue int
	// Interval is how often metrics are exported (10 s when 0).
	Interval time.Duration
	// Timeout bounds one export attempt (5 s when 0); retries stop after
	// 4 × Timeout.
	Timeout time.Duration
}

// DefaultQueue is how many frames wait for the exporter's goroutine.
const DefaultQueue = 8192

// maxTools bounds the distinct tool names exported as metric attributes: a
// client can send any name, a metrics backend should not pay for each.
const maxTools = 256

// Counts are what an Exporter did, reported when it closes.
type Counts struct {
	Calls    int64 // tools/call exchanges seen (each a span)
	Exported int64 // spans the collector accepted
	// Dropped spans were never accepted: the queue was full, an export
	// failed, or jig exited before they went out.
	Dropped int64
	// Frames that did not fit the queue (their calls have no span).
	FramesDropped int64
	// MetricExports and MetricFailures count the metric export attempts.
	MetricExports, MetricFailures int64
	// Err is the last export error, if any.
	Err error
}

// An Exporter turns sessions' tools/call exchanges into spans and metrics.
type Exporter struct {
	opts   Options
	q      chan item
	done   chan struct{}
	mu     sync.Mutex
	closed bool

	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
	tracer trace.Tracer

	calls    metric.Int64Counter
	duration metric.Float64Histogram
	size     metric.Int64Histogram
	items    metric.Int64Histogram
	flags    metric.Int64Counter

	tools map[string]bool // tool names exported as attributes so far

	ended, framesDropped atomic.Int64
	spans                countingSpans
	metricsOut           countingMetrics
	lastErr              atomic.Pointer[error]
}

type item struct {
	s *Session
	f frames.Frame
}

// Session is one recorded session's feed into the Exporter: a frames.Sink.
type Session struct {
	e       *Exporter
	id      string
	matcher *frames.CallMatcher // used on the Exporter's goroutine only
}

// ParseEndpoint checks a collector URL as a user gives it.
func ParseEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--otlp %q: expected the collector's OTLP/HTTP URL, such as http://127.0.0.1:4318", raw)
	}
	return u, nil
}

// New starts an Exporter. It connects to nothing until the first export:
// an unreachable collector is an export error later, counted, never an
// error here.
func New(ctx context.Context, opts Options) (*Exporter, error) {
	u, err := ParseEndpoint(opts.Endpoint)
	if err != nil {
		return nil, err
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.Interval <= 0 {
		opts.Interval = 10 * time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.Service == "" {
		opts.Service = "jig proxy"
	}
	// The collector's URL without its user information, query or fragment,
	// as the OTLP exporters took it (WithEndpoint, WithURLPath).
	base := u.Scheme + "://" + u.Host + strings.TrimSuffix(u.Path, "/")
	te := &spanExporter{p: newPoster(opts.Timeout), url: base + "/v1/traces"}
	me := &metricExporter{p: newPoster(opts.Timeout), url: base + "/v1/metrics"}
	e := &Exporter{opts: opts, q: make(chan item, opts.Queue), done: make(chan struct{}), tools: map[string]bool{}}
	e.spans.SpanExporter = te
	e.metricsOut.Exporter = me
	// Export errors are counted and told at exit, not logged as they
	// happen: in stdio mode stderr is the client's, and a collector that
	// is down would print a line every few seconds.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { e.lastErr.Store(&err) }))
	attrs := []attribute.KeyValue{attribute.String("service.name", opts.Service)}
	if opts.Server != "" {
		attrs = append(attrs, attribute.String("jig.server", opts.Server))
	}
	res := resource.NewSchemaless(attrs...)
	e.tp = sdktrace.NewTracerProvider(sdktrace.WithResource(res),
		sdktrace.WithBatcher(&e.spans, sdktrace.WithMaxQueueSize(opts.Queue), sdktrace.WithExportTimeout(4*opts.Timeout)))
	e.mp = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res),
		sdkmetric.WithReader(sdkmetric.NewPeriodicReader(&e.metricsOut, sdkmetric.WithInterval(opts.Interval), sdkmetric.WithTimeout(4*opts.Timeout))))
	e.tracer = e.tp.Tracer("github.com/mcpjig/jig")
	if err := e.instruments(e.mp.Meter("github.com/mcpjig/jig")); err != nil {
		return nil, err
	}
	go e.run()
	return e, nil
}

func (e *Exporter) instruments(m metric.Meter) error {
	var errs [5]error
	e.calls, errs[0] = m.Int64Counter("jig.tool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("tools/call exchanges, by tool and outcome (ok, tool_error, error, unusable)"))
	e.duration, errs[1] = m.Float64Histogram("jig.tool.duration", metric.WithUnit("s"),
		metric.WithDescription("from a tools/call request to its response"),
		metric.WithExplicitBucketBoundaries(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
	e.size, errs[2] = m.Int64Histogram("jig.tool.result.size", metric.WithUnit("By"),
		metric.WithDescription("the size of a tools/call response as it crossed"),
		metric.WithExplicitBucketBoundaries(64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304))
	e.items, errs[3] = m.Int64Histogram("jig.tool.result.items", metric.WithUnit("{item}"),
		metric.WithDescription("the length of each top-level array of a result's structuredContent, by field"),
		metric.WithExplicitBucketBoundaries(0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000))
	e.flags, errs[4] = m.Int64Counter("jig.tool.result.flags", metric.WithUnit("{result}"),
		metric.WithDescription("results whose structuredContent sets a top-level boolean flag (truncated, partial, has_more, stale, ...) true, by field"))
	return errors.Join(errs[:]...)
}

// Endpoint is the collector's URL, redacted.
func (e *Exporter) Endpoint() string {
	u, _ := ParseEndpoint(e.opts.Endpoint)
	return u.Redacted()
}

// Session returns the Sink of a new session; id names it in the spans
// (mcp.session.id; a random one when empty). The id is jig's own, never
// the server's Mcp-Session-Id.
func (e *Exporter) Session(id string) *Session {
	if id == "" {
		var b [8]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	return &Session{e: e, id: id, matcher: frames.NewCallMatcher()}
}

// WriteFrame queues f for the exporter; it never blocks and never fails.
func (s *Session) WriteFrame(f *frames.Frame) error {
	switch f.Kind {
	case frames.KindRequest, frames.KindResult, frames.KindError:
	case frames.KindInvalid:
		if f.ID == "" {
			return nil
		}
	case frames.KindNotification:
		if f.Method != "notifications/cancelled" {
			return nil
		}
	default:
		return nil
	}
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		e.framesDropped.Add(1)
		return nil
	}
	select {
	case e.q <- item{s, *f}: // a copy: a write-through Log reuses its frames
	default:
		e.framesDropped.Add(1)
	}
	return nil
}

func (e *Exporter) run() {
	defer close(e.done)
	for it := range e.q {
		req := it.s.matcher.Add(&it.f) // it is a variable per frame: the matcher may keep it
		if req != nil && req.Method == "tools/call" {
			e.call(it.s, req, &it.f)
		}
	}
}

// call exports one tools/call exchange.
func (e *Exporter) call(s *Session, req, resp *frames.Frame) {
	var params struct {
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	json.Unmarshal(req.Raw, &params)
	tool := params.Params.Name
	outcome, code, result := outcomeOf(resp)
	span := []attribute.KeyValue{
		attribute.String("mcp.method.name", "tools/call"),
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", tool),
		attribute.String("mcp.session.id", s.id),
		attribute.String("jsonrpc.request.id", req.ID),
		attribute.Int("jig.arguments.size", len(params.Params.Arguments)),
		attribute.Int("jig.result.size", resp.Size()),
		attribute.Bool("jig.tool.is_error", outcome == "tool_error"),
		attribute.String("jig.outcome", outcome),
		attribute.Int64("jig.request.seq", req.Seq),
		attribute.Int64("jig.response.seq", resp.Seq),
	}
	if code != 0 {
		span = append(span, attribute.Int("rpc.jsonrpc.error_code", code), attribute.String("error.type", strconv.Itoa(code)))
	} else if outcome != "ok" {
		span = append(span, attribute.String("error.type", outcome))
	}
	if e.opts.Args && len(params.Params.Arguments) > 0 {
		span = append(span, attribute.String("jig.arguments", string(e.opts.Redact.Bytes(params.Params.Arguments))))
	}
	_, sp := e.tracer.Start(context.Background(), "tools/call "+tool, trace.WithTimestamp(req.Time),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(span...))
	if outcome != "ok" {
		sp.SetStatus(codes.Error, outcome)
	}
	sp.End(trace.WithTimestamp(resp.Time))
	e.ended.Add(1)

	mtool := e.toolAttr(tool)
	ctx := context.Background()
	e.calls.Add(ctx, 1, metric.WithAttributes(mtool, attribute.String("jig.outcome", outcome)))
	e.duration.Record(ctx, resp.Time.Sub(req.Time).Seconds(), metric.WithAttributes(mtool, attribute.String("jig.outcome", outcome)))
	e.size.Record(ctx, int64(resp.Size()), metric.WithAttributes(mtool))
	if outcome == "ok" {
		e.shape(ctx, mtool, result)
	}
}

// toolAttr is the tool's metric attribute; past maxTools names, "other".
func (e *Exporter) toolAttr(tool string) attribute.KeyValue {
	if !e.tools[tool] && len(e.tools) >= maxTools {
		tool = "other"
	} else {
		e.tools[tool] = true
	}
	return attribute.String("gen_ai.tool.name", tool)
}

// shape records the cardinality of each top-level array of the result's
// structuredContent and the top-level flags set true.
func (e *Exporter) shape(ctx context.Context, tool attribute.KeyValue, result []byte) {
	var sc []byte
	frames.Members(result, func(key string, val []byte) {
		if key == "structuredContent" {
			sc = val
		}
	})
	fields := 0
	frames.Members(sc, func(key string, val []byte) {
		if fields >= 16 { // bounded: a result's keys are the server's to choose
			return
		}
		switch {
		case len(val) > 0 && val[0] == '[':
			var arr []json.RawMessage
			if json.Unmarshal(val, &arr) == nil {
				fields++
				e.items.Record(ctx, int64(len(arr)), metric.WithAttributes(tool, attribute.String("jig.field", "/structuredContent/"+key)))
			}
		case bytes.Equal(val, []byte("true")):
			fields++
			e.flags.Add(ctx, 1, metric.WithAttributes(tool, attribute.String("jig.field", "/structuredContent/"+key)))
		}
	})
}

// outcomeOf is a response's outcome (ok, tool_error, error, unusable), its
// JSON-RPC error code and its result's JSON text.
func outcomeOf(resp *frames.Frame) (outcome string, code int, result []byte) {
	switch resp.Kind {
	case frames.KindError:
		return "error", resp.Code, nil
	case frames.KindResult:
	default:
		return "unusable", 0, nil
	}
	frames.Members(resp.Raw, func(key string, val []byte) {
		if key == "result" {
			result = val
		}
	})
	isErr := false
	frames.Members(result, func(key string, val []byte) {
		if key == "isError" && bytes.Equal(val, []byte("true")) {
			isErr = true
		}
	})
	if isErr {
		return "tool_error", 0, result
	}
	return "ok", 0, result
}

// Close exports what is left, waiting at most wait, and says what was and
// was not exported.
func (e *Exporter) Close(wait time.Duration) Counts {
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		close(e.q)
	}
	e.mu.Unlock()
	<-e.done
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	// Shutdown flushes; the metric reader's last export carries the totals.
	// Both are bounded by ctx, so a collector that is down costs wait at
	// most.
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); e.tp.Shutdown(ctx) }()
	go func() { defer wg.Done(); e.mp.Shutdown(ctx) }()
	wg.Wait()
	c := Counts{Calls: e.ended.Load(), Exported: e.spans.ok.Load(), FramesDropped: e.framesDropped.Load(),
		MetricExports: e.metricsOut.ok.Load() + e.metricsOut.failed.Load(), MetricFailures: e.metricsOut.failed.Load()}
	c.Dropped = c.Calls - c.Exported
	if p := e.lastErr.Load(); p != nil {
		c.Err = *p
	}
	if p := e.metricsOut.err.Load(); p != nil {
		c.Err = *p
	}
	if err := e.spans.lastErr(); err != nil {
		c.Err = err
	}
	return c
}

// countingSpans counts the spans the collector accepted.
type countingSpans struct {
	sdktrace.SpanExporter
	ok  atomic.Int64
	err atomic.Pointer[error]
}

func (c *countingSpans) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.SpanExporter.ExportSpans(ctx, spans)
	if err != nil {
		c.err.Store(&err)
		return err
	}
	c.ok.Add(int64(len(spans)))
	return nil
}

func (c *countingSpans) lastErr() error {
	if p := c.err.Load(); p != nil {
		return *p
	}
	return nil
}

// countingMetrics counts the metric exports and their failures.
type countingMetrics struct {
	sdkmetric.Exporter
	ok, failed atomic.Int64
	err        atomic.Pointer[error]
}

func (c *countingMetrics) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	err := c.Exporter.Export(ctx, rm)
	if err != nil {
		c.failed.Add(1)
		c.err.Store(&err)
		return err
	}
	c.ok.Add(1)
	return nil
}
