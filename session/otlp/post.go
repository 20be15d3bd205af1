package otlp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// A poster sends OTLP/HTTP requests (protobuf) to one collector, as the
// OTLP specification asks of an exporter: each attempt bounded by timeout;
// 429, 502, 503 and 504 and transient network errors retried with
// exponential back-off (from 500 ms, at most timeout apart, a Retry-After
// honoured), until maxElapsed has passed since the first attempt.
type poster struct {
	client     *http.Client
	timeout    time.Duration
	maxElapsed time.Duration
	stopped    atomic.Bool
}

func newPoster(timeout time.Duration) *poster {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &poster{client: &http.Client{Transport: tr}, timeout: timeout, maxElapsed: 4 * timeout}
}

// retryable is an attempt's failure worth another attempt; after, when
// set, is the collector's Retry-After.
type retryable struct {
	err   error
	after time.Duration
}

func (r retryable) Error() string { return r.err.Error() }

const (
	retryInitial  = 500 * time.Millisecond
	maxRespBody   = 64 << 10
	protobufMedia = "application/x-protobuf"
)

// post sends body to url, retrying as the poster says. what names the
// items for a partial success ("spans", "data points").
func (p *poster) post(ctx context.Context, url, what string, body []byte) error {
	if p.stopped.Load() {
		return errors.New("the exporter is shut down")
	}
	start := time.Now()
	wait := retryInitial
	for {
		err := p.attempt(ctx, url, what, body)
		var r retryable
		if !errors.As(err, &r) {
			return err
		}
		// Back-off with jitter: a random delay in [wait/2, 3·wait/2).
		d := wait/2 + time.Duration(rand.Int64N(int64(wait)))
		if r.after > d {
			d = r.after
		}
		if time.Since(start)+d > p.maxElapsed {
			return fmt.Errorf("%v (gave up retrying after %s)", r.err, time.Since(start).Round(time.Millisecond))
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%v (then %w)", r.err, ctx.Err())
		case <-t.C:
		}
		wait = min(wait*3/2, p.timeout)
	}
}

func (p *poster) attempt(ctx context.Context, u, what string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", protobufMedia)
	req.Header.Set("User-Agent", "jig (OTLP/HTTP protobuf)")
	resp, err := p.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() {
			return retryable{err: err}
		}
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxRespBody))
	if err != nil {
		return fmt.Errorf("POST %s: reading the response: %v", u, err)
	}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		if resp.Header.Get("Content-Type") != protobufMedia {
			return nil
		}
		if n, msg := partialSuccess(data); n != 0 || msg != "" {
			return fmt.Errorf("POST %s: the collector rejected %d %s: %s", u, n, what, msg)
		}
		return nil
	case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusBadGateway,
		resp.StatusCode == http.StatusServiceUnavailable, resp.StatusCode == http.StatusGatewayTimeout:
		return retryable{err: statusError(u, resp, data), after: retryAfter(resp.Header.Get("Retry-After"))}
	default:
		return statusError(u, resp, data)
	}
}

func statusError(u string, resp *http.Response, body []byte) error {
	msg := strings.TrimSpace(string(body))
	if resp.Header.Get("Content-Type") == protobufMedia {
		msg = "" // a google.rpc.Status; its text is not worth decoding for one line
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	if msg == "" {
		return fmt.Errorf("POST %s: %s", u, resp.Status)
	}
	return fmt.Errorf("POST %s: %s: %s", u, resp.Status, msg)
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(min(s, int64(time.Hour/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

func (p *poster) shutdown() {
	p.stopped.Store(true)
	p.client.CloseIdleConnections()
}

// spanExporter is the SDK's span exporter over a poster.
type spanExporter struct {
	p   *poster
	url string
}

func (e *spanExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	return e.p.post(ctx, e.url, "spans", encodeSpans(spans))
}

func (e *spanExporter) Shutdown(context.Context) error { e.p.shutdown(); return nil }

// metricExporter is the SDK's metric exporter over a poster: cumulative
// temporality and the default aggregations, as the OTLP exporters' defaults.
type metricExporter struct {
	p   *poster
	url string
}

func (e *metricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}

func (e *metricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

func (e *metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	if rm == nil {
		return nil
	}
	return e.p.post(ctx, e.url, "data points", encodeMetrics(rm))
}

func (e *metricExporter) ForceFlush(context.Context) error { return nil }

func (e *metricExporter) Shutdown(context.Context) error { e.p.shutdown(); return nil }
