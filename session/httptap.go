package session

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mcpjig/jig/frames"
)

// An httpTap is the http.RoundTripper jig gives the SDK's HTTP transports. It
// sets the user's headers and records every request body, response status,
// and each server-sent event as it arrives. It does not touch the
// mcp.Connection: the Streamable client type-asserts its own connection, and
// wrapping it loses the standalone stream and the protocol-version header.
type httpTap struct {
	next    http.RoundTripper
	log     *frames.Log
	headers http.Header
	redact  *frames.Redactor
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.headers {
		req.Header[k] = vs
	}
	info := &frames.HTTP{Method: req.Method, URL: req.URL.String(), Headers: t.redact.Headers(req.Header)}
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		f := t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.TrimRight(body, "\r\n"), HTTP: info})
		if f.Kind == frames.KindRequest {
			// The SDK wrote this request under its call's context: tell the
			// call which id is its own.
			learnWrite(req.Context(), f.Method, f.ID)
		}
	} else {
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, HTTP: info,
			Note: frames.RequestNote(req)})
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: &frames.HTTP{Method: req.Method, URL: info.URL},
			Note: "HTTP request failed: " + err.Error()})
		return nil, err
	}
	rinfo := &frames.HTTP{Method: req.Method, URL: info.URL, Status: resp.StatusCode, Headers: t.redact.Headers(resp.Header)}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo,
			Note: fmt.Sprintf("%s: event stream opened", resp.Status)})
		resp.Body = &sseTap{body: resp.Body, log: t.log, info: frames.HTTP{Method: req.Method, URL: info.URL}}
	default:
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			return resp, nil
		}
		trimmed := bytes.TrimSpace(body)
		if len(trimmed) == 0 || !strings.Contains(ct, "json") {
			note := resp.Status
			if len(trimmed) > 0 {
				note += ": " + string(trimmed)
			}
			t.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, HTTP: rinfo, Note: note})
		} else {
			t.log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: trimmed, HTTP: rinfo})
		}
	}
	return resp, nil
}

// An sseTap records each server-sent event as the SDK reads its bytes, so
// events are recorded in the order they arrive and before they are handled.
// The stream is cut into events by frames.SSEParser, the parser the HTTP
// proxy uses too.
type sseTap struct {
	body io.ReadCloser
	log  *frames.Log
	info frames.HTTP

	mu     sync.Mutex
	parser frames.SSEParser
	closed bool
}

func (s *sseTap) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	s.mu.Lock()
	if n > 0 {
		s.parser.Feed(p[:n], s.emit)
	}
	if err == io.EOF {
		s.parser.End(s.emit) // a final event without its blank line
	}
	s.mu.Unlock()
	return n, err
}

func (s *sseTap) emit(e frames.SSEEvent) { s.log.Append(e.Frame(s.info)) }

func (s *sseTap) Close() error {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if !closed {
		s.log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
			HTTP: &frames.HTTP{Method: s.info.Method, URL: s.info.URL}, Note: "event stream closed"})
	}
	return s.body.Close()
}
