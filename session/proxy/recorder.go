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

// A recorder takes frames from the forwarding goroutines without making
// them wait: add only stamps the time and queues, and a single goroutine
// classifies, pairs and writes them (the Log's sinks do the disk write).
// Forwarders add a frame before writing it onward, so a request is always
// queued before the response it provokes; queued order is the Log's order.
type recorder struct {
	log *frames.Log
	// logFor, when set, is the Log of a client session's frames (by key).
	logFor func(key string) *frames.Log
	now    func() time.Time
	mu     sync.Mutex
	q      []queued
	wake   chan struct{}
	quit   chan struct{}
	done   chan struct{}
}

func newRecorder(log *frames.Log) *recorder {
	r := &recorder{log: log, now: time.Now, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go r.run()
	return r
}

// A queued frame and the client session it belongs to.
type queued struct {
	key string
	f   frames.Frame
}

// add queues f. It never blocks on the disk.
func (r *recorder) add(f frames.Frame) { r.addTo("", f) }

// addTo queues f for the client session key.
func (r *recorder) addTo(key string, f frames.Frame) {
	if f.Time.IsZero() {
		f.Time = r.now()
	}
	r.mu.Lock()
	r.q = append(r.q, queued{key, f})
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *recorder) run() {
	defer close(r.done)
	var batch []queued
	for {
		select {
		case <-r.wake:
		case <-r.quit:
			r.drain(batch)
			return
		}
		batch = r.drain(batch)
	}
}

func (r *recorder) drain(batch []queued) []queued {
	for {
		r.mu.Lock()
		batch, r.q = r.q, batch[:0]
		r.mu.Unlock()
		if len(batch) == 0 {
			return batch
		}
		for i := range batch {
			log := r.log
			if r.logFor != nil {
				log = r.logFor(batch[i].key)
			}
			log.Append(batch[i].f)
			batch[i] = queued{} // let the body go
		}
	}
}

// close records everything queued and stops.
func (r *recorder) close() {
	close(r.quit)
	<-r.done
}
