package frames

import (
	"context"
	"sync"
	"time"
)

// A Sink receives every frame as it is appended, in order, under the Log's
// lock. Transcript writers are sinks: a frame is on disk as soon as it crossed.
type Sink interface {
	WriteFrame(f *Frame) error
}

// A MetaSink is a Sink that also keeps facts learned mid-session, such as
// the protocol the handshake negotiated.
type MetaSink interface {
	WriteMeta(key string, data any, now time.Time) error
}

// A Reader is anything that can be stepped through frame by frame: a live Log
// or a transcript opened from disk (which may load bodies lazily).
type Reader interface {
	Len() int
	// Frame returns frame i's metadata; Raw may be nil when bodies load lazily.
	Frame(i int) *Frame
	// Body returns frame i's exact bytes.
	Body(i int) ([]byte, error)
	// Partner returns the index of the request or response paired with i, or -1.
	Partner(i int) int
}

// Log is the in-memory record of one session. Captures append to it from
// their own goroutines; the sequence number is taken under the lock so the
// order in the Log is the order frames were seen.
type Log struct {
	mu      sync.Mutex
	now     func() time.Time
	frames  []*Frame
	pairs   *Pairer
	sinks   []Sink
	sinkErr error
	grew    chan struct{} // closed and replaced on every append
}

// NewLog returns an empty Log. now is the clock (time.Now when nil); tests
// inject a fixed one.
func NewLog(now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{now: now, pairs: NewPairer(), grew: make(chan struct{})}
}

// AddSink makes s receive every frame appended from now on.
func (l *Log) AddSink(s Sink) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sinks = append(l.sinks, s)
}

// Append stamps f with the next sequence number and the time, classifies it
// if its Kind is unset, pairs it, and hands it to the sinks. It returns the
// stored frame, which callers must not modify.
func (l *Log) Append(f Frame) *Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f.Kind == "" {
		f.Classify()
	}
	if f.Time.IsZero() {
		f.Time = l.now()
	}
	f.Seq = int64(len(l.frames) + 1)
	p := &f
	l.pairs.Add(len(l.frames), p)
	l.frames = append(l.frames, p)
	for _, s := range l.sinks {
		if err := s.WriteFrame(p); err != nil && l.sinkErr == nil {
			l.sinkErr = err
		}
	}
	close(l.grew)
	l.grew = make(chan struct{})
	return p
}

// Note hands a fact about the session to every sink that keeps them.
func (l *Log) Note(key string, data any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.sinks {
		if ms, ok := s.(MetaSink); ok {
			if err := ms.WriteMeta(key, data, l.now()); err != nil && l.sinkErr == nil {
				l.sinkErr = err
			}
		}
	}
}

// SinkErr returns the first error a sink reported, so a full disk is told to
// the user instead of silently losing the recording.
func (l *Log) SinkErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sinkErr
}

// Len returns the number of frames.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.frames)
}

// Frame returns frame i.
func (l *Log) Frame(i int) *Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frames[i]
}

// Body returns frame i's bytes.
func (l *Log) Body(i int) ([]byte, error) { return l.Frame(i).Raw, nil }

// Partner returns the index paired with frame i, or -1.
func (l *Log) Partner(i int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pairs.Partner(i)
}

// Cancelled returns the index of the notifications/cancelled that named the
// request at i, or -1.
func (l *Log) Cancelled(i int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pairs.Cancelled(i)
}

// Frames returns a snapshot of all frames.
func (l *Log) Frames() []*Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*Frame(nil), l.frames...)
}

// Start returns the time of the first frame, or the zero time.
func (l *Log) Start() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.frames) == 0 {
		return time.Time{}
	}
	return l.frames[0].Time
}

// Wait blocks until the Log holds more than n frames or ctx ends, and
// returns the new length.
func (l *Log) Wait(ctx context.Context, n int) (int, error) {
	for {
		l.mu.Lock()
		cur, grew := len(l.frames), l.grew
		l.mu.Unlock()
		if cur > n {
			return cur, nil
		}
		select {
		case <-grew:
		case <-ctx.Done():
			return cur, ctx.Err()
		}
	}
}

// Latency returns the time between a response at index i and its request.
func Latency(r Reader, i int) (time.Duration, bool) {
	f := r.Frame(i)
	j := r.Partner(i)
	if j < 0 || !f.IsResponse() {
		return 0, false
	}
	return f.Time.Sub(r.Frame(j).Time), true
}

// Pending reports whether a request with id (its JSON text) that travelled
// dir is still waiting for its response.
func (l *Log) Pending(dir Direction, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pairs.Pending(dir, id)
}
