package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"
)

// reach is whether an HTTP server answers: what the last round trip said.
// A server that went away mid-session is first seen here (a request that
// found nobody listening), long before the SDK gives the connection up.
type reach struct {
	mu      sync.Mutex
	why     string        // "" while the server answers
	changed chan struct{} // closed when why changes (or the session ends)
	ended   bool
}

func newReach() *reach { return &reach{changed: make(chan struct{})} }

// set records the outcome of a round trip: "" when the server answered.
func (r *reach) set(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended || why == r.why {
		return
	}
	r.why = why
	close(r.changed)
	r.changed = make(chan struct{})
}

// end wakes every waiter for good: the session closed.
func (r *reach) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		r.ended = true
		close(r.changed)
	}
}

func (r *reach) state() (why string, changed <-chan struct{}, ended bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.why, r.changed, r.ended
}

// NotAnswering reports whether the session's HTTP server stopped answering:
// why the last request found nobody ("" while it answers, and always for a
// stdio server, whose end WaitGone reports), and a channel closed when that
// changes. ok is false once the session closed: there is nothing to watch.
func (s *Session) NotAnswering() (why string, changed <-chan struct{}, ok bool) {
	if s.http == nil {
		return "", nil, false
	}
	why, changed, ended := s.http.reach.state()
	return why, changed, !ended
}

// NotAnsweredError is a request that never reached the server: the HTTP
// request failed before any answer (nothing listens at the address, the
// connection was reset). The server did not refuse it; it never saw it.
type NotAnsweredError struct {
	Method string // what was sent ("tools/call echo")
	Err    error  // the network's reason ("dial tcp 127.0.0.1:3911: connect: connection refused")
	// Sent: the request was written before the connection failed (EOF,
	// reset), so the server may have received it: jig cannot tell.
	Sent bool
}

func (e *NotAnsweredError) Error() string {
	if e.Sent {
		return fmt.Sprintf("%s: no answer: the connection closed after jig sent it, before any answer (%v); the server may have received it; is it still running?", e.Method, e.Err)
	}
	return fmt.Sprintf("%s: not delivered: the server did not answer (%v); is it running?", e.Method, e.Err)
}

func (e *NotAnsweredError) Unwrap() error { return e.Err }

// unanswered finds, in an error the SDK returned, the HTTP request that
// failed without an answer.
func unanswered(err error) (*url.Error, bool) {
	var ue *url.Error
	if !errors.As(err, &ue) || errors.Is(ue.Err, context.Canceled) || errors.Is(ue.Err, context.DeadlineExceeded) {
		return nil, false
	}
	return ue, true
}

// reachWhy is what the header says about a failed round trip: the
// network's reason without Go's "Post \"URL\": " (the URL is on screen).
func reachWhy(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error() // "connect: connection refused"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}
