package contract

import (
	"sync"
	"sync/atomic"

	"github.com/mcpjig/jig/frames"
)

// DefaultQueue is how many frames a Live check holds waiting: past it,
// frames are not checked (and counted), so a check slower than the traffic
// never holds up the recording, let alone the traffic.
const DefaultQueue = 4096

// Live checks a session's responses as they are recorded. It is a
// frames.Sink: the Log hands it each frame, which it queues without
// blocking; one goroutine of its own checks them in order and reports each
// violation. jig proxy forwards a frame before the Log sees it, so the
// check is never on the path that forwards.
type Live struct {
	k       *Checker
	q       chan frames.Frame // copies: a write-through Log reuses its frames
	report  func(Violation)
	dropped atomic.Int64
	mu      sync.Mutex // guards closed against a frame written after Close
	closed  bool
	done    chan struct{}
}

// NewLive starts checking against c; report receives each violation on the
// Live's own goroutine. queue is the bound of frames waiting (DefaultQueue
// when 0).
func NewLive(c *Contracts, queue int, report func(Violation)) *Live {
	if queue <= 0 {
		queue = DefaultQueue
	}
	l := &Live{k: NewChecker(c), q: make(chan frames.Frame, queue), report: report, done: make(chan struct{})}
	go l.run()
	return l
}

// WriteFrame queues f for checking; it never blocks and never fails.
func (l *Live) WriteFrame(f *frames.Frame) error {
	if !wanted(f) {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		l.dropped.Add(1)
		return nil
	}
	select {
	case l.q <- *f:
	default:
		l.dropped.Add(1)
	}
	return nil
}

// wanted reports whether a frame can matter to a contract: requests,
// responses, cancellations. Notifications and stderr lines are most of a
// busy session and never do.
func wanted(f *frames.Frame) bool {
	switch f.Kind {
	case frames.KindRequest, frames.KindResult, frames.KindError:
		return true
	case frames.KindNotification:
		return f.Method == "notifications/cancelled"
	case frames.KindInvalid:
		return f.ID != ""
	}
	return false
}

func (l *Live) run() {
	defer close(l.done)
	for f := range l.q {
		for _, v := range l.k.Add(&f) { // f is a variable per frame: the Checker may keep it
			l.report(v)
		}
	}
}

// Close checks what is still queued, stops, and returns what was seen and
// how many frames went unchecked because the queue was full.
func (l *Live) Close() (Counts, int64) {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.q)
	}
	l.mu.Unlock()
	<-l.done
	return l.k.Counts, l.dropped.Load()
}
