package frames

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// slowWriter is a disk slower than the wire: every Write waits for the
// test to let it through (or not at all once open), so the queue fills.
type slowWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	gate    chan struct{} // one token per Write while not open
	open    bool
	failAt  int // fail every Write once buf holds this many bytes (0: never)
	written int
}

func (w *slowWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	open := w.open
	w.mu.Unlock()
	if !open {
		<-w.gate
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failAt > 0 && w.buf.Len() >= w.failAt {
		return 0, errors.New("no space left on device")
	}
	w.written++
	return w.buf.Write(p)
}

func (w *slowWriter) setOpen() {
	w.mu.Lock()
	w.open = true
	w.mu.Unlock()
	close(w.gate)
}

func (w *slowWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Clone(w.buf.Bytes())
}

// queuedFrame is frame i of a test session: sizes vary, some are large.
func queuedFrame(i int) Frame {
	text := strings.Repeat(fmt.Sprintf("%d.", i), 1+i%97)
	if i%50 == 0 {
		text = strings.Repeat("L", 9000) // larger than the test's queue
	}
	return Frame{Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + text + `"}}`)}
}

// Every frame and meta record given to a QueuedSink reaches the file, in the
// order the Log took them, byte for byte, while the disk holds the queue
// full (backpressure: appending waits), and its queue stays in its bound.
func TestQueuedSinkKeepsEveryFrameInOrder(t *testing.T) {
	w := &slowWriter{gate: make(chan struct{})}
	tw := NewTranscriptWriter(w, NewRedactor())
	const limit = 4 << 10
	q := NewQueuedSink(tw, limit)
	log := NewLog(nil)
	log.AddSink(q)
	const n = 2000
	appended := make(chan struct{})
	released := make(chan struct{})
	go func() {
		// Let the writer through a write at a time while the session
		// appends, then open.
		defer close(released)
		for {
			select {
			case w.gate <- struct{}{}:
			case <-appended:
				w.setOpen()
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ { // appenders on two goroutines, as a tap and stderr are
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 2 {
				if i%7 == 0 {
					batch := []Frame{queuedFrame(i)}
					log.AppendAll(batch)
				} else {
					log.Append(queuedFrame(i))
				}
				if i%250 == 0 {
					log.Note(fmt.Sprintf("note-%d", i), map[string]int{"i": i})
				}
			}
		}()
	}
	wg.Wait()
	close(appended)
	<-released
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTranscript(bytes.NewReader(w.bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) > 1 { // "no header record": the test wrote none
		t.Errorf("warnings reading the recording: %v", tr.Warnings)
	}
	if len(tr.Frames) != log.Len() || log.Len() != n {
		t.Fatalf("the recording holds %d frames, the Log %d, appended %d", len(tr.Frames), log.Len(), n)
	}
	for i, f := range tr.Frames {
		want := log.Frame(i)
		if f.Seq != int64(i+1) || !bytes.Equal(f.Raw, want.Raw) || !f.Time.Equal(want.Time) {
			t.Fatalf("recorded frame %d is #%d %q, the Log's #%d %q", i, f.Seq, f.Raw, want.Seq, want.Raw)
		}
	}
	if len(tr.Metas) != n/250 {
		t.Errorf("%d meta records, want %d", len(tr.Metas), n/250)
	}
	peak, waits := q.Stats()
	if waits == 0 {
		t.Errorf("no append waited for the slow disk: the queue is not bounded")
	}
	if largest := len(queuedFrame(0).Raw) + QueuedFrameCost; peak > limit+largest {
		t.Errorf("the queue held %d bytes, bound %d (+ one frame of %d)", peak, limit, largest)
	}
}

// The header comes first, redacted; a meta record lands between the frames
// it was noted between.
func TestQueuedSinkMetaKeepsItsPlace(t *testing.T) {
	var buf bytes.Buffer
	q := NewQueuedSink(NewTranscriptWriter(&buf, NewRedactor("hunter2-secret")), 0)
	q.WriteHeader(Header{Jig: "test", Target: []byte(`{"command":["srv","--token","hunter2-secret"]}`)})
	log := NewLog(nil)
	log.AddSink(q)
	log.Append(queuedFrame(1))
	log.Note("protocol", "2025-06-18")
	log.Append(queuedFrame(2))
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"type":"header"`) || strings.Contains(lines[0], "hunter2") ||
		!strings.HasPrefix(lines[2], `{"type":"meta"`) || !strings.Contains(lines[2], `"data":"2025-06-18"`) {
		t.Fatalf("records out of order or missing:\n%s", buf.String())
	}
}

// Flush returns once everything appended before it is written.
func TestQueuedSinkFlush(t *testing.T) {
	w := &slowWriter{gate: make(chan struct{})}
	q := NewQueuedSink(NewTranscriptWriter(w, NewRedactor()), 0)
	log := NewLog(nil)
	log.AddSink(q)
	for i := 0; i < 100; i++ {
		log.Append(queuedFrame(i))
	}
	flushed := make(chan error, 1)
	go func() { flushed <- q.Flush() }()
	w.setOpen()
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(w.bytes(), []byte("\n")); got != 100 {
		t.Errorf("after Flush the file holds %d records, want 100", got)
	}
	q.Close()
	if err := q.Flush(); err != nil { // after Close it returns at once
		t.Fatal(err)
	}
}

// A disk that fails never blocks the session: appends go on, Close reports
// the error, and the records written before the failure are whole.
func TestQueuedSinkWriteErrorNeverBlocks(t *testing.T) {
	w := &slowWriter{gate: make(chan struct{}), open: true, failAt: 20 << 10}
	q := NewQueuedSink(NewTranscriptWriter(w, NewRedactor()), 2<<10)
	log := NewLog(nil)
	log.AddSink(q)
	for i := 0; i < 3000; i++ {
		log.Append(queuedFrame(i))
	}
	err := q.Close()
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("Close: %v, want the write error", err)
	}
	if log.SinkErr() == nil {
		t.Errorf("the Log was not told the recording broke")
	}
	tr, rerr := ReadTranscript(bytes.NewReader(w.bytes()))
	if rerr != nil || tr.Cut != nil || len(tr.Frames) == 0 {
		t.Fatalf("the records before the failure: %d frames, cut %v, err %v", len(tr.Frames), tr.Cut, rerr)
	}
	for i, f := range tr.Frames {
		if f.Seq != int64(i+1) {
			t.Fatalf("record %d is #%d: a gap before the failure", i, f.Seq)
		}
	}
}

// Close with frames still queued writes them all before it returns, and a
// sink closed with nothing queued closes at once.
func TestQueuedSinkCloseWritesTheQueue(t *testing.T) {
	w := &slowWriter{gate: make(chan struct{})}
	q := NewQueuedSink(NewTranscriptWriter(w, NewRedactor()), 1<<20)
	log := NewLog(nil)
	log.AddSink(q)
	for i := 0; i < 500; i++ {
		log.Append(queuedFrame(i))
	}
	go w.setOpen() // the disk comes back while Close waits, or before
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(w.bytes(), []byte("\n")); got != 500 {
		t.Errorf("Close left %d of 500 records written", got)
	}
	empty := NewQueuedSink(NewTranscriptWriter(&bytes.Buffer{}, nil), 0)
	if err := empty.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkQueuedAppend is what appending costs the session with the
// recording queued (the writer's work is on its own goroutine).
func BenchmarkQueuedAppend(b *testing.B) {
	for _, queued := range []bool{false, true} {
		b.Run(fmt.Sprintf("queued=%v", queued), func(b *testing.B) {
			tw := NewTranscriptWriter(io.Discard, NewRedactor())
			log := NewWriteThroughLog(nil)
			var q *QueuedSink
			if queued {
				q = NewQueuedSink(tw, 0)
				log.AddSink(q)
			} else {
				log.AddSink(tw)
			}
			f := queuedFrame(3)
			b.ReportAllocs()
			for b.Loop() {
				log.Append(f)
			}
			if q != nil {
				q.Close()
			}
		})
	}
}
