// Package proxy puts jig between a real MCP client and its server: a stdio
// shim the client launches in the server's place, and an HTTP reverse proxy
// for Streamable HTTP and legacy SSE. Bytes go onward verbatim and at once;
// every message that crossed is recorded into a frames.Log on the side.
package proxy

import (
	"sync"
	"time"

	"github.com/mcpjig/jig/frames"
)

// DefaultQueueBytes bounds the frames waiting to be recorded. When the disk
// is slower than the wire the queue fills, and then the forwarders wait for
// it before passing more bytes on: the proxied session slows to the disk's
// speed (backpressure), and nothing is ever dropped.
const DefaultQueueBytes = 512 << 10

// frameOverhead is what a queued frame costs beyond its bytes, counted so
// that a flood of tiny frames is bounded too.
const frameOverhead = 256

// A recorder takes frames from the forwarding goroutines and a single
// goroutine classifies, pairs and writes them (the Log's sinks do the disk
// write), a batch at a time. add returns at once while the queue has room and
// waits while it is full. Forwarders add a frame before writing it onward, so
// a request is always queued before the response it provokes; queued order
// is the Log's order.
type recorder struct {
	log *frames.Log
	// logFor, when set, is the Log of a client session's frames (by key).
	logFor func(key string) *frames.Log
	now    func() time.Time
	limit  int // bytes queued before add waits

	mu   sync.Mutex
	room *sync.Cond // signalled when the writer took the queue
	q    []frames.Frame
	keys []string // the client session of each frame in q, with logFor
	// known are the client sessions frames were recorded to: a request
	// that names one is recorded at once, never held (held frames are
	// numbered when they are settled, after frames captured later).
	known map[string]bool
	// issued are the session ids the server named (a response's
	// Mcp-Session-Id, a legacy SSE endpoint's sessionId): only those are
	// client sessions. An id a request claims that the server never issued
	// (an era probe's, a stale one; a 2026-07-28 server ignores it) is not.
	issued map[string]bool
	queued int // bytes in q, with frameOverhead each
	peak   int // the most bytes ever queued
	waits  int // how many adds waited for room
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newRecorder(log *frames.Log, limit int) *recorder {
	if limit <= 0 {
		limit = DefaultQueueBytes
	}
	r := &recorder{log: log, now: time.Now, limit: limit, wake: make(chan struct{}, 1), done: make(chan struct{})}
	r.room = sync.NewCond(&r.mu)
	go r.run()
	return r
}

// add queues f, waiting while the queue is full. One frame larger than the
// whole limit is let into an empty queue.
func (r *recorder) add(f frames.Frame) { r.addTo("", f) }

// addTo queues f for the client session key.
func (r *recorder) addTo(key string, f frames.Frame) {
	if f.Time.IsZero() {
		f.Time = r.now()
	}
	size := len(f.Raw) + frameOverhead
	r.mu.Lock()
	if r.queued > 0 && r.queued+size > r.limit && !r.closed {
		r.waits++
		for r.queued > 0 && r.queued+size > r.limit && !r.closed {
			r.room.Wait()
		}
	}
	r.q = append(r.q, f)
	if r.logFor != nil {
		r.keys = append(r.keys, key)
		if key != "" {
			if r.known == nil {
				r.known = map[string]bool{}
			}
			r.known[key] = true
		}
	}
	r.queued += size
	r.peak = max(r.peak, r.queued)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// issue notes a session id the server named.
func (r *recorder) issue(key string) {
	if key == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.issued == nil {
		r.issued = map[string]bool{}
	}
	r.issued[key] = true
}

// wasIssued says whether the server named the session id key.
func (r *recorder) wasIssued(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.issued[key]
}

// isKnown says whether frames were recorded to client session key.
func (r *recorder) isKnown(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.known[key]
}

func (r *recorder) run() {
	defer close(r.done)
	var batch []frames.Frame
	var keys []string
	for {
		r.mu.Lock()
		for len(r.q) == 0 && !r.closed {
			r.mu.Unlock()
			<-r.wake
			r.mu.Lock()
		}
		if len(r.q) == 0 {
			r.mu.Unlock()
			return
		}
		// Take the whole queue; the forwarders fill a fresh one meanwhile.
		batch, r.q = r.q, batch[:0]
		keys, r.keys = r.keys, keys[:0]
		r.queued = 0
		r.room.Broadcast()
		r.mu.Unlock()
		if r.logFor == nil {
			r.log.AppendAll(batch) // clears batch: the bodies go with the Log
			continue
		}
		// Each run of one client session's frames goes to its Log at once.
		for i := 0; i < len(batch); {
			j := i + 1
			for j < len(batch) && keys[j] == keys[i] {
				j++
			}
			r.logFor(keys[i]).AppendAll(batch[i:j])
			i = j
		}
	}
}

// stats reports the most bytes ever queued and how many adds had to wait.
func (r *recorder) stats() (peak, waits int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peak, r.waits
}

// close records everything queued and stops.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.room.Broadcast()
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	<-r.done
}
