package otlp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	colmetric "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// noUnknown fails when the generated types found a field they do not know
// anywhere in m: a wrong field number or wire type shows up there.
func noUnknown(t *testing.T, m protoreflect.Message, path string) {
	t.Helper()
	if u := m.GetUnknown(); len(u) > 0 {
		t.Errorf("%s: %d bytes of unknown fields", path, len(u))
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := range v.List().Len() {
				noUnknown(t, v.List().Get(i).Message(), path+"."+string(fd.Name()))
			}
		case fd.Message() != nil && !fd.IsMap():
			noUnknown(t, v.Message(), path+"."+string(fd.Name()))
		}
		return true
	})
}

// TestSpansOnTheWire: what encodeSpans writes decodes, with the generated
// OTLP types, into the spans the SDK made: ids, parent, kind, times,
// attributes of every type, events, links, status (whose codes the SDK
// numbers differently), resource and scope.
func TestSpansOnTheWire(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	res := resource.NewSchemaless(attribute.String("service.name", "jig proxy"))
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(rec))
	tr := tp.Tracer("github.com/mcpjig/jig")
	start := time.Unix(1700000000, 123456789)
	ctx, parent := tr.Start(context.Background(), "parent", trace.WithTimestamp(start))
	_, sp := tr.Start(ctx, "tools/call search", trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start),
		trace.WithAttributes(attribute.String("s", "v"), attribute.String("empty", ""), attribute.Int("i", -3), attribute.Bool("f", false),
			attribute.Float64("d", 0.5), attribute.StringSlice("ss", []string{"a", "b"}), attribute.Int64Slice("is", []int64{1, 2})),
		trace.WithLinks(trace.Link{SpanContext: parent.SpanContext(), Attributes: []attribute.KeyValue{attribute.String("why", "x")}}))
	sp.AddEvent("ev", trace.WithTimestamp(start.Add(time.Millisecond)), trace.WithAttributes(attribute.Int("n", 7)))
	sp.SetStatus(codes.Error, "tool_error")
	sp.End(trace.WithTimestamp(start.Add(2 * time.Millisecond)))
	parent.End(trace.WithTimestamp(start.Add(3 * time.Millisecond)))

	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(encodeSpans(rec.Ended()), &req); err != nil {
		t.Fatal(err)
	}
	noUnknown(t, req.ProtoReflect(), "request")
	if len(req.ResourceSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans) != 1 {
		t.Fatalf("resource spans %v", &req)
	}
	rs := req.ResourceSpans[0]
	if a := attrs(rs.Resource.Attributes); a["service.name"] != "jig proxy" {
		t.Errorf("resource %v", a)
	}
	ss := rs.ScopeSpans[0]
	if ss.Scope.Name != "github.com/mcpjig/jig" || len(ss.Spans) != 2 {
		t.Fatalf("scope %q with %d spans", ss.Scope.Name, len(ss.Spans))
	}
	call, par := ss.Spans[0], ss.Spans[1]
	sc, psc := sp.SpanContext(), parent.SpanContext()
	tid, sid, psid := sc.TraceID(), sc.SpanID(), psc.SpanID()
	if !slices.Equal(call.TraceId, tid[:]) || !slices.Equal(call.SpanId, sid[:]) || !slices.Equal(call.ParentSpanId, psid[:]) || len(par.ParentSpanId) != 0 {
		t.Errorf("ids: trace %x span %x parent %x (parent's parent %x)", call.TraceId, call.SpanId, call.ParentSpanId, par.ParentSpanId)
	}
	if call.Name != "tools/call search" || call.Kind != tracepb.Span_SPAN_KIND_CLIENT || par.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
		t.Errorf("name %q kind %v, parent's kind %v", call.Name, call.Kind, par.Kind)
	}
	if call.StartTimeUnixNano != uint64(start.UnixNano()) || call.EndTimeUnixNano != uint64(start.Add(2*time.Millisecond).UnixNano()) {
		t.Errorf("times %d..%d", call.StartTimeUnixNano, call.EndTimeUnixNano)
	}
	if call.Flags&0x100 == 0 || call.Flags&0x200 != 0 || call.Flags&0xff != uint32(sc.TraceFlags()) {
		t.Errorf("flags %#x", call.Flags)
	}
	byKey := map[string]*commonpb.AnyValue{}
	for _, kv := range call.Attributes {
		byKey[kv.Key] = kv.Value
	}
	check := func(key string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("attribute %s: %v", key, byKey[key])
		}
	}
	_, emptyIsString := byKey["empty"].GetValue().(*commonpb.AnyValue_StringValue)
	_, falseIsBool := byKey["f"].GetValue().(*commonpb.AnyValue_BoolValue)
	check("s", byKey["s"].GetStringValue() == "v")
	check("empty", emptyIsString)
	check("i", byKey["i"].GetIntValue() == -3)
	check("f", falseIsBool && !byKey["f"].GetBoolValue())
	check("d", byKey["d"].GetDoubleValue() == 0.5)
	ss2, is2 := byKey["ss"].GetArrayValue().GetValues(), byKey["is"].GetArrayValue().GetValues()
	check("ss", len(ss2) == 2 && ss2[1].GetStringValue() == "b")
	check("is", len(is2) == 2 && is2[1].GetIntValue() == 2)
	if len(call.Events) != 1 || call.Events[0].Name != "ev" || call.Events[0].TimeUnixNano != uint64(start.Add(time.Millisecond).UnixNano()) ||
		call.Events[0].Attributes[0].Value.GetIntValue() != 7 {
		t.Errorf("events %v", call.Events)
	}
	if len(call.Links) != 1 || !slices.Equal(call.Links[0].SpanId, psid[:]) || call.Links[0].Attributes[0].Value.GetStringValue() != "x" {
		t.Errorf("links %v", call.Links)
	}
	if call.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || call.Status.GetMessage() != "tool_error" || par.Status != nil {
		t.Errorf("status %v, parent's %v", call.Status, par.Status)
	}
}

// TestMetricsOnTheWire: what encodeMetrics writes decodes into the SDK's
// aggregations: a monotonic cumulative sum of ints, histograms with their
// bounds, counts, sum, min and max, attributes per data point.
func TestMetricsOnTheWire(t *testing.T) {
	rd := sdkmetric.NewManualReader()
	res := resource.NewSchemaless(attribute.String("service.name", "jig proxy"))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(rd))
	m := mp.Meter("github.com/mcpjig/jig")
	e := &Exporter{tools: map[string]bool{}}
	if err := e.instruments(m); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tool := e.toolAttr("search")
	for _, d := range []float64{0.002, 0.02, 7} {
		e.calls.Add(ctx, 1, metric.WithAttributes(tool, attribute.String("jig.outcome", "ok")))
		e.duration.Record(ctx, d, metric.WithAttributes(tool))
	}
	e.size.Record(ctx, 300, metric.WithAttributes(tool))
	var rm metricdata.ResourceMetrics
	if err := rd.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	var req colmetric.ExportMetricsServiceRequest
	if err := proto.Unmarshal(encodeMetrics(&rm), &req); err != nil {
		t.Fatal(err)
	}
	noUnknown(t, req.ProtoReflect(), "request")
	if len(req.ResourceMetrics) != 1 || attrs(req.ResourceMetrics[0].Resource.Attributes)["service.name"] != "jig proxy" {
		t.Fatalf("resource metrics %v", &req)
	}
	byName := map[string]*metricspb.Metric{}
	for _, sm := range req.ResourceMetrics[0].ScopeMetrics {
		if sm.Scope.Name != "github.com/mcpjig/jig" {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, mt := range sm.Metrics {
			byName[mt.Name] = mt
		}
	}
	calls := byName["jig.tool.calls"]
	if calls == nil || calls.Unit != "{call}" || calls.Description == "" {
		t.Fatalf("jig.tool.calls: %v", calls)
	}
	sum := calls.GetSum()
	if !sum.GetIsMonotonic() || sum.GetAggregationTemporality() != metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE ||
		len(sum.DataPoints) != 1 || sum.DataPoints[0].GetAsInt() != 3 || sum.DataPoints[0].TimeUnixNano == 0 || sum.DataPoints[0].StartTimeUnixNano == 0 {
		t.Errorf("jig.tool.calls sum %v", sum)
	}
	if a := attrs(sum.GetDataPoints()[0].Attributes); a["gen_ai.tool.name"] != "search" || a["jig.outcome"] != "ok" {
		t.Errorf("jig.tool.calls attributes %v", a)
	}
	h := byName["jig.tool.duration"].GetHistogram()
	if h == nil || len(h.DataPoints) != 1 || h.GetAggregationTemporality() != metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Fatalf("jig.tool.duration %v", byName["jig.tool.duration"])
	}
	p := h.DataPoints[0]
	bounds := []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	var n uint64
	for _, c := range p.BucketCounts {
		n += c
	}
	if p.Count != 3 || n != 3 || len(p.BucketCounts) != len(bounds)+1 || !slices.Equal(p.ExplicitBounds, bounds) ||
		p.GetSum() != 7.022 || p.GetMin() != 0.002 || p.GetMax() != 7 || p.BucketCounts[1] != 1 || p.BucketCounts[4] != 1 || p.BucketCounts[12] != 1 {
		t.Errorf("jig.tool.duration point %v", p)
	}
	if sp := byName["jig.tool.result.size"].GetHistogram().GetDataPoints(); len(sp) != 1 || sp[0].GetSum() != 300 || sp[0].GetMax() != 300 {
		t.Errorf("jig.tool.result.size %v", sp)
	}
}

// TestPartialSuccess: a collector that accepts a request but rejects some
// of its spans makes the export an error, counted, with its message.
func TestPartialSuccess(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b []byte
		if r.URL.Path == "/v1/traces" {
			b, _ = proto.Marshal(&coltrace.ExportTraceServiceResponse{PartialSuccess: &coltrace.ExportTracePartialSuccess{RejectedSpans: 4, ErrorMessage: "too old"}})
		} else {
			b, _ = proto.Marshal(&colmetric.ExportMetricsServiceResponse{})
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	}))
	defer srv.Close()
	log := demoSession(t)
	e, err := New(context.Background(), Options{Endpoint: srv.URL, Interval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	feed(e, log)
	c := e.Close(time.Minute)
	if c.Calls != 4 || c.Exported != 0 || c.Err == nil || c.MetricFailures != 0 {
		t.Fatalf("counts %+v: want 4 calls, none exported, the collector's error, metrics exported", c)
	}
	if msg := c.Err.Error(); !strings.Contains(msg, "rejected 4 spans: too old") {
		t.Errorf("error %q does not say what the collector said", msg)
	}
}

// TestRetryAfter503: a collector that answers 503 with Retry-After is asked
// again after that delay, and the spans arrive.
func TestRetryAfter503(t *testing.T) {
	col := newCollector(t)
	var tries int
	var first time.Time
	var gap time.Duration
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/traces" {
			col.mu.Lock()
			tries++
			n := tries
			col.mu.Unlock()
			if n == 1 {
				first = time.Now()
				w.Header().Set("Retry-After", "1")
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			gap = time.Since(first)
		}
		col.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	log := demoSession(t)
	e, err := New(context.Background(), Options{Endpoint: srv.URL, Interval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	feed(e, log)
	c := e.Close(time.Minute)
	if c.Exported != 4 || c.Err != nil || tries != 2 {
		t.Fatalf("counts %+v after %d tries: want 4 exported on the second", c, tries)
	}
	if gap < time.Second {
		t.Errorf("asked again after %s, before the collector's Retry-After of 1s", gap)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	for v, want := range map[string]time.Duration{"": 0, "3": 3 * time.Second, "-1": 0, "soon": 0, "99999999": time.Hour} {
		if got := retryAfter(v); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", v, got, want)
		}
	}
}
