package otlp

import (
	"encoding/binary"
	"math"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The OTLP/HTTP request bodies, in protobuf's wire encoding, written by hand
// from opentelemetry-proto's messages (collector/trace/v1, collector/
// metrics/v1 and what they hold; the field numbers are in the comments).
// The official OTLP exporters link gRPC and the protobuf runtime into jig,
// 11 MB and ~1 ms of package initialisation on every run of every command;
// the encoding itself is a few varints and length prefixes. The tests decode
// what this writes with the generated go.opentelemetry.io/proto/otlp types.

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

func appendVarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func appendTag(b []byte, field, wire int) []byte {
	return appendVarint(b, uint64(field)<<3|uint64(wire))
}

// appendLen appends a length-delimited field.
func appendLen(b []byte, field int, v []byte) []byte {
	b = appendTag(b, field, wireBytes)
	b = appendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// appendString appends a string field, omitted when empty (proto3).
func appendString(b []byte, field int, s string) []byte {
	if s == "" {
		return b
	}
	b = appendTag(b, field, wireBytes)
	b = appendVarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendUint appends a varint field, omitted when 0.
func appendUint(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return appendVarint(appendTag(b, field, wireVarint), v)
}

// appendFixed64 appends a fixed64 field (also sfixed64 and double, as
// bits), always: callers omit the ones proto3 would.
func appendFixed64(b []byte, field int, v uint64) []byte {
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireFixed64), v)
}

func appendTime(b []byte, field int, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return appendFixed64(b, field, uint64(t.UnixNano()))
}

// appendMessage appends field as the message fill builds.
func appendMessage(b []byte, field int, fill func([]byte) []byte) []byte {
	return appendLen(b, field, fill(nil))
}

// keyValue is opentelemetry.proto.common.v1.KeyValue: 1 key, 2 value.
func appendKeyValue(b []byte, field int, kv attribute.KeyValue) []byte {
	return appendMessage(b, field, func(m []byte) []byte {
		m = appendString(m, 1, string(kv.Key))
		return appendMessage(m, 2, func(v []byte) []byte { return appendAnyValue(v, kv.Value) })
	})
}

func appendAttributes(b []byte, field int, kvs []attribute.KeyValue) []byte {
	for _, kv := range kvs {
		b = appendKeyValue(b, field, kv)
	}
	return b
}

// appendAnyValue writes an AnyValue's fields: a oneof of 1 string_value,
// 2 bool_value, 3 int_value, 4 double_value, 5 array_value (1 values),
// 6 kvlist_value (1 values), 7 bytes_value; a member of a oneof is written
// even when it holds its zero value.
func appendAnyValue(b []byte, v attribute.Value) []byte {
	array := func(n int, each func(int) attribute.Value) []byte {
		return appendMessage(b, 5, func(a []byte) []byte {
			for i := range n {
				a = appendMessage(a, 1, func(e []byte) []byte { return appendAnyValue(e, each(i)) })
			}
			return a
		})
	}
	switch v.Type() {
	case attribute.BOOL:
		x := uint64(0)
		if v.AsBool() {
			x = 1
		}
		return appendVarint(appendTag(b, 2, wireVarint), x)
	case attribute.INT64:
		return appendVarint(appendTag(b, 3, wireVarint), uint64(v.AsInt64()))
	case attribute.FLOAT64:
		return appendFixed64(b, 4, math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		return appendLen(b, 1, []byte(v.AsString()))
	case attribute.BOOLSLICE:
		s := v.AsBoolSlice()
		return array(len(s), func(i int) attribute.Value { return attribute.BoolValue(s[i]) })
	case attribute.INT64SLICE:
		s := v.AsInt64Slice()
		return array(len(s), func(i int) attribute.Value { return attribute.Int64Value(s[i]) })
	case attribute.FLOAT64SLICE:
		s := v.AsFloat64Slice()
		return array(len(s), func(i int) attribute.Value { return attribute.Float64Value(s[i]) })
	case attribute.STRINGSLICE:
		s := v.AsStringSlice()
		return array(len(s), func(i int) attribute.Value { return attribute.StringValue(s[i]) })
	case attribute.SLICE:
		s := v.AsSlice()
		return array(len(s), func(i int) attribute.Value { return s[i] })
	case attribute.MAP:
		kvs := v.AsMap()
		return appendMessage(b, 6, func(l []byte) []byte { return appendAttributes(l, 1, kvs) })
	case attribute.BYTESLICE:
		return appendLen(b, 7, v.AsByteSlice())
	case attribute.EMPTY:
		return b
	default:
		return appendLen(b, 1, []byte(v.String()))
	}
}

// appendResource is opentelemetry.proto.resource.v1.Resource: 1 attributes.
func appendResource(b []byte, field int, r *resource.Resource) []byte {
	return appendMessage(b, field, func(m []byte) []byte { return appendAttributes(m, 1, r.Attributes()) })
}

// appendScope is InstrumentationScope: 1 name, 2 version, 3 attributes.
func appendScope(b []byte, field int, s instrumentation.Scope) []byte {
	return appendMessage(b, field, func(m []byte) []byte {
		m = appendString(m, 1, s.Name)
		m = appendString(m, 2, s.Version)
		return appendAttributes(m, 3, s.Attributes.ToSlice())
	})
}

// Span flags (opentelemetry.proto.trace.v1.SpanFlags).
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

func spanFlags(sc trace.SpanContext) uint32 {
	f := uint32(sc.TraceFlags()) | flagHasIsRemote
	if sc.IsRemote() {
		f |= flagIsRemote
	}
	return f
}

// statusCode maps the SDK's codes to Status.StatusCode (UNSET 0, OK 1,
// ERROR 2: the SDK numbers Error and Ok the other way round).
func statusCode(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}

// appendSpan is opentelemetry.proto.trace.v1.Span.
func appendSpan(b []byte, field int, s sdktrace.ReadOnlySpan) []byte {
	return appendMessage(b, field, func(m []byte) []byte {
		sc := s.SpanContext()
		tid, sid := sc.TraceID(), sc.SpanID()
		m = appendLen(m, 1, tid[:])
		m = appendLen(m, 2, sid[:])
		m = appendString(m, 3, sc.TraceState().String())
		if p := s.Parent(); p.SpanID().IsValid() {
			psid := p.SpanID()
			m = appendLen(m, 4, psid[:])
		}
		m = binary.LittleEndian.AppendUint32(appendTag(m, 16, wireFixed32), spanFlags(s.Parent()))
		m = appendString(m, 5, s.Name())
		m = appendUint(m, 6, uint64(s.SpanKind())) // trace.SpanKind numbers SpanKind's values
		m = appendTime(m, 7, s.StartTime())
		m = appendTime(m, 8, s.EndTime())
		m = appendAttributes(m, 9, s.Attributes())
		m = appendUint(m, 10, uint64(s.DroppedAttributes()))
		for _, ev := range s.Events() {
			m = appendMessage(m, 11, func(e []byte) []byte { // Span.Event
				e = appendTime(e, 1, ev.Time)
				e = appendString(e, 2, ev.Name)
				e = appendAttributes(e, 3, ev.Attributes)
				return appendUint(e, 4, uint64(ev.DroppedAttributeCount))
			})
		}
		m = appendUint(m, 12, uint64(s.DroppedEvents()))
		for _, l := range s.Links() {
			m = appendMessage(m, 13, func(e []byte) []byte { // Span.Link
				ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
				e = appendLen(e, 1, ltid[:])
				e = appendLen(e, 2, lsid[:])
				e = appendString(e, 3, l.SpanContext.TraceState().String())
				e = appendAttributes(e, 4, l.Attributes)
				e = appendUint(e, 5, uint64(l.DroppedAttributeCount))
				return binary.LittleEndian.AppendUint32(appendTag(e, 6, wireFixed32), spanFlags(l.SpanContext))
			})
		}
		m = appendUint(m, 14, uint64(s.DroppedLinks()))
		if st := s.Status(); st.Code != codes.Unset || st.Description != "" {
			m = appendMessage(m, 15, func(e []byte) []byte { // Status: 2 message, 3 code
				e = appendString(e, 2, st.Description)
				return appendUint(e, 3, statusCode(st.Code))
			})
		}
		return m
	})
}

// encodeSpans is an ExportTraceServiceRequest: 1 resource_spans, each
// ResourceSpans 1 resource, 2 scope_spans, 3 schema_url; each ScopeSpans
// 1 scope, 2 spans, 3 schema_url. Spans keep their order within a scope.
func encodeSpans(spans []sdktrace.ReadOnlySpan) []byte {
	type scopeKey struct {
		res   *resource.Resource
		scope instrumentation.Scope
	}
	var resources []*resource.Resource
	var scopes []scopeKey
	byScope := map[scopeKey][]sdktrace.ReadOnlySpan{}
	seenRes := map[*resource.Resource]bool{}
	for _, s := range spans {
		r := s.Resource()
		if !seenRes[r] {
			seenRes[r] = true
			resources = append(resources, r)
		}
		k := scopeKey{r, s.InstrumentationScope()}
		if _, ok := byScope[k]; !ok {
			scopes = append(scopes, k)
		}
		byScope[k] = append(byScope[k], s)
	}
	var out []byte
	for _, r := range resources {
		out = appendMessage(out, 1, func(m []byte) []byte {
			if r != nil {
				m = appendResource(m, 1, r)
			}
			for _, k := range scopes {
				if k.res != r {
					continue
				}
				m = appendMessage(m, 2, func(ss []byte) []byte {
					ss = appendScope(ss, 1, k.scope)
					for _, s := range byScope[k] {
						ss = appendSpan(ss, 2, s)
					}
					return appendString(ss, 3, k.scope.SchemaURL)
				})
			}
			if r != nil {
				m = appendString(m, 3, r.SchemaURL())
			}
			return m
		})
	}
	return out
}

// temporality maps the SDK's to AggregationTemporality (DELTA 1,
// CUMULATIVE 2: the SDK numbers them the other way round).
func temporality(t metricdata.Temporality) uint64 {
	switch t {
	case metricdata.DeltaTemporality:
		return 1
	case metricdata.CumulativeTemporality:
		return 2
	}
	return 0
}

// appendNumberPoint is NumberDataPoint: 7 attributes, 2 start_time_unix_nano,
// 3 time_unix_nano, and the oneof 4 as_double or 6 as_int (sfixed64).
func appendNumberPoint[N int64 | float64](b []byte, field int, p metricdata.DataPoint[N]) []byte {
	return appendMessage(b, field, func(m []byte) []byte {
		m = appendAttributes(m, 7, p.Attributes.ToSlice())
		m = appendTime(m, 2, p.StartTime)
		m = appendTime(m, 3, p.Time)
		switch v := any(p.Value).(type) {
		case int64:
			m = appendFixed64(m, 6, uint64(v))
		case float64:
			m = appendFixed64(m, 4, math.Float64bits(v))
		}
		return m
	})
}

func asFloat[N int64 | float64](v N) float64 { return float64(v) }

// appendHistogramPoint is HistogramDataPoint: 9 attributes, 2 start, 3 time,
// 4 count, 5 sum, 6 bucket_counts and 7 explicit_bounds (packed), 11 min,
// 12 max (sum, min and max are optional: written when known).
func appendHistogramPoint[N int64 | float64](b []byte, field int, p metricdata.HistogramDataPoint[N]) []byte {
	return appendMessage(b, field, func(m []byte) []byte {
		m = appendAttributes(m, 9, p.Attributes.ToSlice())
		m = appendTime(m, 2, p.StartTime)
		m = appendTime(m, 3, p.Time)
		if p.Count != 0 {
			m = appendFixed64(m, 4, p.Count)
		}
		m = appendFixed64(m, 5, math.Float64bits(asFloat(p.Sum)))
		if len(p.BucketCounts) > 0 {
			packed := make([]byte, 0, 8*len(p.BucketCounts))
			for _, c := range p.BucketCounts {
				packed = binary.LittleEndian.AppendUint64(packed, c)
			}
			m = appendLen(m, 6, packed)
		}
		if len(p.Bounds) > 0 {
			packed := make([]byte, 0, 8*len(p.Bounds))
			for _, x := range p.Bounds {
				packed = binary.LittleEndian.AppendUint64(packed, math.Float64bits(x))
			}
			m = appendLen(m, 7, packed)
		}
		if v, ok := p.Min.Value(); ok {
			m = appendFixed64(m, 11, math.Float64bits(asFloat(v)))
		}
		if v, ok := p.Max.Value(); ok {
			m = appendFixed64(m, 12, math.Float64bits(asFloat(v)))
		}
		return m
	})
}

// appendMetricData writes a Metric's data: 5 gauge, 7 sum (1 data_points,
// 2 aggregation_temporality, 3 is_monotonic) or 9 histogram (1 data_points,
// 2 aggregation_temporality). jig's instruments make only these; other
// aggregations are left out (ok false).
func appendMetricData(b []byte, data metricdata.Aggregation) (_ []byte, ok bool) {
	switch d := data.(type) {
	case metricdata.Gauge[int64]:
		return appendMessage(b, 5, func(m []byte) []byte { return appendNumberPoints(m, d.DataPoints) }), true
	case metricdata.Gauge[float64]:
		return appendMessage(b, 5, func(m []byte) []byte { return appendNumberPoints(m, d.DataPoints) }), true
	case metricdata.Sum[int64]:
		return appendMessage(b, 7, func(m []byte) []byte {
			return appendSumTail(appendNumberPoints(m, d.DataPoints), d.Temporality, d.IsMonotonic)
		}), true
	case metricdata.Sum[float64]:
		return appendMessage(b, 7, func(m []byte) []byte {
			return appendSumTail(appendNumberPoints(m, d.DataPoints), d.Temporality, d.IsMonotonic)
		}), true
	case metricdata.Histogram[int64]:
		return appendMessage(b, 9, func(m []byte) []byte {
			return appendUint(appendHistogramPoints(m, d.DataPoints), 2, temporality(d.Temporality))
		}), true
	case metricdata.Histogram[float64]:
		return appendMessage(b, 9, func(m []byte) []byte {
			return appendUint(appendHistogramPoints(m, d.DataPoints), 2, temporality(d.Temporality))
		}), true
	}
	return b, false
}

func appendNumberPoints[N int64 | float64](b []byte, ps []metricdata.DataPoint[N]) []byte {
	for _, p := range ps {
		b = appendNumberPoint(b, 1, p)
	}
	return b
}

func appendHistogramPoints[N int64 | float64](b []byte, ps []metricdata.HistogramDataPoint[N]) []byte {
	for _, p := range ps {
		b = appendHistogramPoint(b, 1, p)
	}
	return b
}

func appendSumTail(b []byte, t metricdata.Temporality, monotonic bool) []byte {
	b = appendUint(b, 2, temporality(t))
	if monotonic {
		b = appendUint(b, 3, 1)
	}
	return b
}

// encodeMetrics is an ExportMetricsServiceRequest: 1 resource_metrics, a
// ResourceMetrics of 1 resource, 2 scope_metrics, 3 schema_url; each
// ScopeMetrics 1 scope, 2 metrics, 3 schema_url; each Metric 1 name,
// 2 description, 3 unit and its data.
func encodeMetrics(rm *metricdata.ResourceMetrics) []byte {
	return appendMessage(nil, 1, func(m []byte) []byte {
		if rm.Resource != nil {
			m = appendResource(m, 1, rm.Resource)
		}
		for _, sm := range rm.ScopeMetrics {
			m = appendMessage(m, 2, func(s []byte) []byte {
				s = appendScope(s, 1, sm.Scope)
				for _, mt := range sm.Metrics {
					one := appendString(nil, 1, mt.Name)
					one = appendString(one, 2, mt.Description)
					one = appendString(one, 3, mt.Unit)
					if one, ok := appendMetricData(one, mt.Data); ok {
						s = appendLen(s, 2, one)
					}
				}
				return appendString(s, 3, sm.Scope.SchemaURL)
			})
		}
		if rm.Resource != nil {
			m = appendString(m, 3, rm.Resource.SchemaURL())
		}
		return m
	})
}

// partialSuccess reads an Export*ServiceResponse's 1 partial_success:
// 1 rejected_spans or rejected_data_points (int64), 2 error_message. A body
// it cannot read is no partial success: the collector accepted the request.
func partialSuccess(body []byte) (rejected int64, msg string) {
	var ps []byte
	eachField(body, func(field int, _ uint64, data []byte) {
		if field == 1 && data != nil {
			ps = data
		}
	})
	eachField(ps, func(field int, v uint64, data []byte) {
		switch {
		case field == 1 && data == nil:
			rejected = int64(v)
		case field == 2 && data != nil:
			msg = string(data)
		}
	})
	return rejected, msg
}

// eachField calls f with each field of a message: a varint's value, or a
// length-delimited field's bytes (fixed-size fields are skipped). It stops
// at the first byte it cannot read.
func eachField(b []byte, f func(field int, v uint64, data []byte)) {
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return
		}
		b = b[n:]
		field := int(tag >> 3)
		switch tag & 7 {
		case wireVarint:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return
			}
			f(field, v, nil)
			b = b[n:]
		case wireBytes:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return
			}
			f(field, 0, b[n:n+int(l)])
			b = b[n+int(l):]
		case wireFixed64:
			if len(b) < 8 {
				return
			}
			b = b[8:]
		case wireFixed32:
			if len(b) < 4 {
				return
			}
			b = b[4:]
		default:
			return
		}
	}
}
