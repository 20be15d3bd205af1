package frames

import (
	"context"
	"fmt"
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

// A BatchSink takes several frames in one call; the Log hands a batch of
// appended frames to it at once, so a transcript costs one write per batch.
type BatchSink interface {
	WriteFrames(fs []*Frame) error
}

// Log is the in-memory record of one session. Captures append to it from
// their own goroutines; the sequence number is taken under the lock so the
// order in the Log is the order frames were seen.
//
// Frames are stored in fixed blocks, so appending never copies the ones
// already held and a frame costs its bytes plus one Frame, not a separate
// allocation each.
type Log struct {
	mu      sync.Mutex
	now     func() time.Time
	blocks  [][]Frame // full blocks of logBlock frames, then the one being filled
	n       int
	start   time.Time
	keep    bool // false for a write-through Log
	pairs   *Pairer
	sinks   []Sink
	sinkErr error
	grew    chan struct{} // closed and replaced on every append
	batch   []*Frame      // the frames being handed to the sinks
	one     Frame         // a write-through Log's frame while the sinks read it
}

// logBlock is how many frames one block of a Log holds.
const logBlock = 1024

// NewLog returns an empty Log that keeps every frame. now is the clock
// (time.Now when nil); tests inject a fixed one.
func NewLog(now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{now: now, keep: true, pairs: NewPairer(), grew: make(chan struct{})}
}

// NewWriteThroughLog returns a Log that keeps no frame: each is stamped,
// classified, paired and handed to the sinks, then let go. A proxy that
// records a client's session for hours holds its frames on disk, not in
// memory as well. Len counts the frames; Frame, Body, Frames and Partner
// must not be called. Pairing remembers a bounded number of answered ids, so
// a duplicate response long after the first is reported as answering an
// unknown id rather than as a duplicate.
func NewWriteThroughLog(now func() time.Time) *Log {
	l := NewLog(now)
	l.keep = false
	l.pairs = newBoundedPairer(answeredMemory)
	return l
}

// answeredMemory is how many answered request ids a write-through Log
// remembers to tell duplicates apart from strays.
const answeredMemory = 1 << 12

// AddSink makes s receive every frame appended from now on.
func (l *Log) AddSink(s Sink) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sinks = append(l.sinks, s)
}

// Append stamps f with the next sequence number and the time, classifies it
// if its Kind is unset, pairs it, and hands it to the sinks. It returns the
// stored frame, which callers must not modify (nil from a write-through Log).
func (l *Log) Append(f Frame) *Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	var p *Frame
	if l.keep {
		p = l.store(&f)
	} else {
		l.one = f // not &f, which would move every appended frame to the heap
		p = &l.one
		l.stamp(p)
	}
	l.batch = append(l.batch[:0], p)
	l.write()
	l.signal()
	if !l.keep {
		l.one = Frame{}
		return nil
	}
	return p
}

// AppendAll appends fs in order, as Append does, and hands them to each sink
// in one batch. The Log takes the frames' bodies: fs is cleared.
func (l *Log) AppendAll(fs []Frame) {
	if len(fs) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.batch[:0]
	for i := range fs {
		if l.keep {
			b = append(b, l.store(&fs[i]))
		} else {
			// Nothing is kept: the sinks read the frames where they are.
			l.stamp(&fs[i])
			b = append(b, &fs[i])
		}
	}
	l.batch = b
	l.write()
	clear(fs)
	l.signal()
}

// stamp gives f its sequence number and time, classifies and pairs it.
func (l *Log) stamp(f *Frame) {
	if f.Kind == "" {
		f.Classify()
	}
	if f.Time.IsZero() {
		f.Time = l.now()
	}
	if l.n == 0 {
		l.start = f.Time
	}
	f.Seq = int64(l.n + 1)
	l.pairs.Add(l.n, f) // fills a response's method into the stored frame
	l.n++
}

// store copies f into the last block and stamps it there.
func (l *Log) store(f *Frame) *Frame {
	if len(l.blocks) == 0 || len(l.blocks[len(l.blocks)-1]) == logBlock {
		l.blocks = append(l.blocks, make([]Frame, 0, logBlock))
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, *f)
	p := &(*last)[len(*last)-1]
	l.stamp(p)
	return p
}

// write hands the frames in l.batch to every sink, then empties the batch.
func (l *Log) write() {
	for _, s := range l.sinks {
		var err error
		if bs, ok := s.(BatchSink); ok {
			err = bs.WriteFrames(l.batch)
		} else {
			for _, f := range l.batch {
				if err = s.WriteFrame(f); err != nil {
					break
				}
			}
		}
		if err != nil && l.sinkErr == nil {
			l.sinkErr = err
		}
	}
	clear(l.batch)
	if cap(l.batch) > 4*logBlock {
		l.batch = nil
	}
	l.batch = l.batch[:0]
}

func (l *Log) signal() {
	close(l.grew)
	l.grew = make(chan struct{})
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
	return l.n
}

// Frame returns frame i.
func (l *Log) Frame(i int) *Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frame(i)
}

func (l *Log) frame(i int) *Frame {
	if !l.keep {
		panic("frames: Frame called on a write-through Log, which keeps no frames")
	}
	if i < 0 || i >= l.n {
		panic(fmt.Sprintf("frames: Log.Frame(%d) of %d frames", i, l.n))
	}
	return &l.blocks[i/logBlock][i%logBlock]
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

// Ended returns the index of the frame that said the server exited while
// the request at i was open, or -1.
func (l *Log) Ended(i int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pairs.Ended(i)
}

// Frames returns a snapshot of all frames.
func (l *Log) Frames() []*Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.keep {
		return nil
	}
	out := make([]*Frame, l.n)
	for i := range out {
		out[i] = l.frame(i)
	}
	return out
}

// Start returns the time of the first frame, or the zero time.
func (l *Log) Start() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.start
}

// Wait blocks until the Log holds more than n frames or ctx ends, and
// returns the new length.
func (l *Log) Wait(ctx context.Context, n int) (int, error) {
	for {
		l.mu.Lock()
		cur, grew := l.n, l.grew
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
	// A source without times (an agent transcript that gave none) has no
	// latency: 0s would read like a measured one.
	req := r.Frame(j)
	if f.Time.IsZero() || req.Time.IsZero() {
		return 0, false
	}
	return f.Time.Sub(req.Time), true
}

// Pending reports whether a request with id (its JSON text) that travelled
// dir is still waiting for its response.
func (l *Log) Pending(dir Direction, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pairs.Pending(dir, id)
}
