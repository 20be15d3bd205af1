package frames

import (
	"bytes"
	"io"
	"sync"
)

// A LineRedactor is an io.Writer that redacts what passes through it a line
// at a time, so a secret split across two writes is still caught: the CLI
// writes stdout and stderr through one, which is how every terminal line jig
// prints goes through the same Redactor as its files.
type LineRedactor struct {
	mu  sync.Mutex
	w   io.Writer
	r   *Redactor
	buf []byte
}

// lineRedactorMax bounds the bytes held back waiting for a newline.
const lineRedactorMax = 64 << 20

// NewLineRedactor returns a writer that writes to w what r leaves of each
// line. Call Flush to write a last line without its newline.
func NewLineRedactor(w io.Writer, r *Redactor) *LineRedactor {
	return &LineRedactor{w: w, r: r}
}

// Write buffers p and writes every complete line, redacted.
func (l *LineRedactor) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	i := bytes.LastIndexByte(l.buf, '\n')
	if i < 0 && len(l.buf) < lineRedactorMax {
		return len(p), nil
	}
	if i < 0 {
		i = len(l.buf) - 1
	}
	if _, err := l.w.Write(l.r.Bytes(l.buf[:i+1])); err != nil {
		return 0, err
	}
	l.buf = append(l.buf[:0], l.buf[i+1:]...)
	return len(p), nil
}

// Flush writes what is buffered, redacted.
func (l *LineRedactor) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.r.Bytes(l.buf))
	l.buf = l.buf[:0]
	return err
}
