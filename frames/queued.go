package frames

import (
	"encoding/json"
	"sync"
	"time"
)

// DefaultQueueBytes bounds the frames a QueuedSink holds before they are
// written. When the disk is slower than the wire the queue fills, and then
// appending to the Log waits for it: the session slows to the disk's speed
// (backpressure), and nothing is ever dropped.
const DefaultQueueBytes = 512 << 10

// QueuedFrameCost is what a queued frame costs beyond its bytes, counted so
// that a flood of tiny frames is bounded too.
const QueuedFrameCost = 256

// A QueuedSink is a Log's sink that takes each batch of frames into a
// bounded queue and returns, while one goroutine of its own redacts, encodes
// and writes them to a TranscriptWriter in the order they were appended: the
// recording is off the path between the wire and the session. A batch that
// does not fit waits for room (one larger than the whole bound waits for an
// empty queue). Close writes everything queued before it returns; what a
// killed jig loses is at most what was queued, and the file still ends with
// whole records (the writer writes whole records, so only a short write can
// leave a cut last line, which readers report and skip).
type QueuedSink struct {
	w     *TranscriptWriter
	limit int

	mu     sync.Mutex
	room   *sync.Cond // the writer took the queue, or closed
	idle   *sync.Cond // the writer wrote everything it took
	q      []queued
	bytes  int // queued, with QueuedFrameCost each
	peak   int // the most bytes ever queued
	waits  int // how many batches waited for room
	busy   bool
	closed bool
	err    error // the first write error
	wake   chan struct{}
	done   chan struct{}
}

// queued is a frame, a meta record when key is set, or the header.
type queued struct {
	f    Frame
	key  string
	data json.RawMessage
	h    *Header
}

// NewQueuedSink writes to w through a queue of at most limit bytes
// (DefaultQueueBytes when limit <= 0).
func NewQueuedSink(w *TranscriptWriter, limit int) *QueuedSink {
	if limit <= 0 {
		limit = DefaultQueueBytes
	}
	s := &QueuedSink{w: w, limit: limit, wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.room = sync.NewCond(&s.mu)
	s.idle = sync.NewCond(&s.mu)
	go s.run()
	return s
}

// WriteFrame queues f.
func (s *QueuedSink) WriteFrame(f *Frame) error { return s.WriteFrames([]*Frame{f}) }

// WriteFrames queues a copy of each frame (their bodies are shared: a Log's
// bodies are never changed). It returns the first error the writer met, so
// the Log reports a broken file as soon as it is known.
func (s *QueuedSink) WriteFrames(fs []*Frame) error {
	size := 0
	for _, f := range fs {
		size += len(f.Raw) + QueuedFrameCost
	}
	s.mu.Lock()
	s.waitRoom(size)
	for _, f := range fs {
		s.q = append(s.q, queued{f: *f})
	}
	s.queue(size)
	err := s.err
	s.mu.Unlock()
	return err
}

// WriteMeta queues a meta record. data is encoded now: the caller may change
// it once WriteMeta returns.
func (s *QueuedSink) WriteMeta(key string, data any, now time.Time) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.waitRoom(len(b) + QueuedFrameCost)
	s.q = append(s.q, queued{f: Frame{Time: now}, key: key, data: b})
	s.queue(len(b) + QueuedFrameCost)
	err = s.err
	s.mu.Unlock()
	return err
}

// WriteHeader queues the transcript's header: given first, it is written
// first (encoded and redacted by the writer, off the caller's path).
func (s *QueuedSink) WriteHeader(h Header) {
	s.mu.Lock()
	s.waitRoom(len(h.Target) + QueuedFrameCost)
	s.q = append(s.q, queued{h: &h})
	s.queue(len(h.Target) + QueuedFrameCost)
	s.mu.Unlock()
}

// waitRoom waits, with s.mu held, until size bytes fit in the queue.
func (s *QueuedSink) waitRoom(size int) {
	if s.bytes > 0 && s.bytes+size > s.limit && !s.closed {
		s.waits++
		for s.bytes > 0 && s.bytes+size > s.limit && !s.closed {
			s.room.Wait()
		}
	}
}

// queue counts size bytes more as queued and wakes the writer, with s.mu held.
func (s *QueuedSink) queue(size int) {
	s.bytes += size
	s.peak = max(s.peak, s.bytes)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *QueuedSink) run() {
	defer close(s.done)
	var batch []queued
	var run []*Frame
	for {
		s.mu.Lock()
		for len(s.q) == 0 && !s.closed {
			s.busy = false
			s.idle.Broadcast()
			s.mu.Unlock()
			<-s.wake
			s.mu.Lock()
		}
		if len(s.q) == 0 {
			s.busy = false
			s.idle.Broadcast()
			s.mu.Unlock()
			return
		}
		// Take the whole queue; appenders fill a fresh one meanwhile.
		batch, s.q = s.q, batch[:0]
		s.bytes = 0
		s.busy = true
		failed := s.err != nil
		s.room.Broadcast()
		s.mu.Unlock()
		var err error
		if !failed { // after a failure the file is broken: the rest is let go
			err = s.write(batch, &run)
		}
		clear(batch)
		if err != nil {
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
		}
	}
}

// write writes a batch in order: each run of frames in one WriteFrames.
func (s *QueuedSink) write(batch []queued, run *[]*Frame) error {
	for i := 0; i < len(batch); {
		if q := &batch[i]; q.h != nil {
			if err := s.w.WriteHeader(*q.h); err != nil {
				return err
			}
			i++
			continue
		}
		if q := &batch[i]; q.key != "" {
			if err := s.w.WriteMeta(q.key, q.data, q.f.Time); err != nil {
				return err
			}
			i++
			continue
		}
		r := (*run)[:0]
		for ; i < len(batch) && batch[i].key == "" && batch[i].h == nil; i++ {
			r = append(r, &batch[i].f)
		}
		err := s.w.WriteFrames(r)
		clear(r)
		*run = r[:0]
		if err != nil {
			return err
		}
	}
	return nil
}

// Flush waits until everything queued before it is written, and returns the
// first write error.
func (s *QueuedSink) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for (len(s.q) > 0 || s.busy) && !s.finished() {
		s.idle.Wait()
	}
	return s.err
}

// finished says whether the writer has stopped, with s.mu held.
func (s *QueuedSink) finished() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Close writes everything queued, stops the writer and returns the first
// write error. Frames given after Close are written by nobody: the Log must
// not be appended to any more.
func (s *QueuedSink) Close() error {
	s.mu.Lock()
	s.closed = true
	s.room.Broadcast()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.mu.Unlock()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stats reports the most bytes ever queued and how many batches waited for
// room.
func (s *QueuedSink) Stats() (peak, waits int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak, s.waits
}
