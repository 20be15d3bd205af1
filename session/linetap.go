package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/mcpjig/jig/frames"
)

// A lineTap sits between the SDK's IOTransport and a newline-delimited
// stream. Every line that crosses is recorded before it is passed on, so the
// Log's order is the wire's order. Lines from the server that are not a
// JSON-RPC message (a stray print, a batch, invalid UTF-8) are recorded with
// their error and withheld from the SDK, which would otherwise drop the
// connection: the session goes on and the garbage stays as evidence.
type lineTap struct {
	log *frames.Log

	// client → server
	toServer io.WriteCloser
	wmu      sync.Mutex
	pending  []byte
	queued   []byte // jig's own lines, waiting for the SDK's line to end

	// server → client, as the SDK reads it
	sdkR *io.PipeReader
	sdkW *io.PipeWriter
	done chan struct{} // closed when the server's stream ends
	// max is the frame limit; a longer line is recorded truncated and ends
	// the session (overflow is that frame).
	max      int
	overflow atomic.Pointer[frames.Frame]

	closeOnce sync.Once
	closeErr  error
}

// newLineTap starts reading fromServer. The returned tap is the Reader and
// Writer to give mcp.IOTransport.
func newLineTap(log *frames.Log, toServer io.WriteCloser, fromServer io.Reader) *lineTap {
	return newLineTapLimit(log, toServer, fromServer, 0)
}

// newLineTapLimit is newLineTap with a frame limit (frames.DefaultMaxFrame
// when 0).
func newLineTapLimit(log *frames.Log, toServer io.WriteCloser, fromServer io.Reader, max int) *lineTap {
	if max <= 0 {
		max = frames.DefaultMaxFrame
	}
	r, w := io.Pipe()
	t := &lineTap{log: log, toServer: toServer, sdkR: r, sdkW: w, done: make(chan struct{}), max: max}
	go t.readLoop(fromServer)
	return t
}

// FrameLimitError is why a session ended on a frame over the frame limit:
// jig records its beginning and its size, and does not read further (a line
// that never ends would otherwise exhaust memory).
type FrameLimitError struct {
	Frame *frames.Frame
	Limit int
}

func (e *FrameLimitError) Error() string {
	return fmt.Sprintf("the server sent a line longer than the frame limit (%s; raise it with --max-frame): frame #%d keeps its first %s; jig stopped reading and ended the session",
		frames.HumanSize(e.Limit), e.Frame.Seq, frames.HumanSize(len(e.Frame.Raw)))
}

// readLine reads one line of at most max bytes (with its newline). Past the
// limit it returns the first max bytes read, how many bytes the line had so
// far, and errLineTooLong.
func readLine(br *bufio.Reader, max int) (line []byte, seen int64, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		seen += int64(len(chunk))
		if len(line) == 0 && err != bufio.ErrBufferFull && len(chunk) <= max {
			// The common case: the line fits the buffer. One copy, kept by
			// the frame and read by the SDK.
			return bytes.Clone(chunk), seen, err
		}
		if len(line)+len(chunk) > max {
			line = append(line, chunk[:max-len(line)]...)
			return line, seen, errLineTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, seen, err
		}
	}
}

var errLineTooLong = errors.New("line longer than the frame limit")

// Write records each complete line the SDK writes, then forwards the bytes.
func (t *lineTap) Write(p []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if len(t.pending) == 0 && bytes.IndexByte(p, '\n') == len(p)-1 {
		// The common case, one whole message per Write: one copy, for the Log.
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: trimCR(bytes.Clone(p[:len(p)-1]))})
		return t.toServer.Write(p)
	}
	buf := append(t.pending, p...)
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.Clone(trimCR(buf[:i]))})
		buf = buf[i+1:]
	}
	t.pending = append(t.pending[:0], buf...)
	n, err := t.toServer.Write(p)
	if len(t.pending) == 0 && len(t.queued) > 0 && err == nil {
		queued := t.queued
		t.queued = nil
		for q := queued; len(q) > 0; {
			i := bytes.IndexByte(q, '\n')
			t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.Clone(q[:i])})
			q = q[i+1:]
		}
		_, err = t.toServer.Write(queued)
	}
	return n, err
}

// answerServer sends the server one line of jig's own (the error answering
// a request jig withheld), recorded like every line the SDK writes. A line
// the SDK has begun is finished first: the answer follows it.
func (t *lineTap) answerServer(line []byte) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if len(t.pending) > 0 {
		t.queued = append(t.queued, line...)
		return
	}
	t.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: bytes.Clone(line[:len(line)-1])})
	_, _ = t.toServer.Write(line)
}

// Close closes the server's input: for a child process, its stdin. It may
// be called more than once: the SDK closes the tap as its reader and again
// as its writer, and the process closes it when it stops. Only the first
// close can fail.
func (t *lineTap) Close() error {
	t.closeOnce.Do(func() {
		_ = t.sdkR.Close()
		t.closeErr = t.toServer.Close()
	})
	return t.closeErr
}

// Read is what the SDK reads: only the lines that are JSON-RPC messages.
func (t *lineTap) Read(p []byte) (int, error) { return t.sdkR.Read(p) }

// Lines that arrive together are recorded and handed to the SDK together:
// one Log append (one transcript write) and one pipe write per burst, up to
// these bounds, instead of one of each per line. A server that floods
// notifications is read at the speed it writes.
const (
	burstFrames = 1024
	burstBytes  = 1 << 20
)

func (t *lineTap) readLoop(from io.Reader) {
	defer close(t.done)
	br := bufio.NewReaderSize(from, 64<<10)
	forward := true
	var (
		burst []frames.Frame // classified, dispatchable, not yet recorded
		msgs  []byte         // their lines, as the SDK reads them
	)
	flush := func() {
		if len(burst) == 0 {
			return
		}
		t.log.AppendAll(burst) // recorded before the SDK sees any of them
		burst = burst[:0]
		if forward {
			if _, err := t.sdkW.Write(msgs); err != nil {
				forward = false // the SDK has gone; keep recording
			}
		}
		if cap(msgs) > 2*burstBytes {
			msgs = nil
		}
		msgs = msgs[:0]
	}
	for {
		// Lines of 4 MB+ are real; past the frame limit, the line is
		// recorded truncated and the session ends.
		line, seen, err := readLine(br, t.max)
		if errors.Is(err, errLineTooLong) {
			f := frames.Truncated(frames.Frame{Dir: frames.ServerToClient, Raw: line}, seen,
				fmt.Sprintf("a line longer than the frame limit (%s; --max-frame)", frames.HumanSize(t.max)))
			stored := t.log.Append(f)
			t.overflow.Store(stored)
			t.sdkW.CloseWithError(&FrameLimitError{Frame: stored, Limit: t.max})
			return
		}
		if len(line) > 0 {
			complete := line[len(line)-1] == '\n'
			// ReadBytes returns a fresh slice: the frame keeps it.
			raw := trimCR(bytes.TrimSuffix(line, []byte("\n")))
			f := frames.Frame{Dir: frames.ServerToClient, Raw: raw}
			f.Classify()
			if !complete {
				f.Kind = frames.KindInvalid
				f.Err = "partial line: the server's output ended without a newline"
			}
			if f.Dispatchable() && !readFromLog(&f) {
				burst = append(burst, f)
				if hasOuterSpace(line) {
					msgs = append(append(msgs, bytes.TrimSpace(line)...), '\n')
				} else {
					msgs = append(msgs, line...)
				}
				if br.Buffered() == 0 || len(burst) >= burstFrames || len(msgs) >= burstBytes {
					flush()
				}
			} else if f.Dispatchable() {
				burst = append(burst, f) // recorded only
				if len(burst) >= burstFrames || br.Buffered() == 0 {
					flush()
				}
			} else {
				// What the SDK must not see is recorded and dealt with on
				// its own, after everything before it, exactly as it came.
				flush()
				stored := t.log.Append(f)
				if forward {
					if werr := t.deliver(stored, line, complete); werr != nil {
						forward = false
					}
				}
			}
		}
		if err != nil {
			flush()
			if errors.Is(err, io.EOF) {
				t.sdkW.Close()
			} else {
				t.sdkW.CloseWithError(err)
			}
			return
		}
	}
}

// readFromLog reports whether f is a message jig reads from the Log alone,
// so the SDK is not given it: the server's log lines (notifications/message)
// go to the frames pane and the transcript, and jig registers no SDK handler
// for them. The SDK decodes each message it is given three times over, at a
// few thousand a second; a server that logs a million lines must not make a
// call time out while every one of them has arrived.
func readFromLog(f *frames.Frame) bool {
	return f.Kind == frames.KindNotification && f.Method == "notifications/message"
}

// deliver hands a recorded server line to the SDK when the SDK can decode
// it (frames.Frame.Dispatchable), trimmed of the spaces the SDK's decoder
// would take for trailing data. A line it cannot decode is withheld; when it
// was the answer to a request still waiting (response-shaped bytes that are
// not valid JSON-RPC, a response inside a batch), the SDK gets an error for
// that request instead (withheldError), so the call ends at once and says
// what arrived, rather than timing out with the answer in the frames.
func (t *lineTap) deliver(f *frames.Frame, line []byte, complete bool) error {
	if f.Dispatchable() {
		msg := line
		if !complete || hasOuterSpace(line) {
			msg = append(bytes.TrimSpace(line), '\n')
		}
		_, err := t.sdkW.Write(msg)
		return err
	}
	// A request nobody will dispatch gets its error now: a server that
	// waits for the answer (sampling, elicitation) would wait for ever.
	for _, r := range frames.WithheldRequests(f) {
		go t.answerServer(r.Answer(f.Seq)) // never block reading on a server not reading
	}
	for _, id := range frames.AnswerIDs(f) {
		if !t.log.Pending(frames.ClientToServer, id) {
			continue
		}
		if _, err := t.sdkW.Write(withheldError(id, f.Seq)); err != nil {
			return err
		}
	}
	return nil
}

// hasOuterSpace reports whether line has blanks around its JSON text other
// than its line ending.
func hasOuterSpace(line []byte) bool {
	end := bytes.TrimRight(line, "\r\n")
	return len(end) > 0 && (isBlank(end[0]) || isBlank(end[len(end)-1]))
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func trimCR(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\r")) }
