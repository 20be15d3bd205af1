package mock

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
)

// maxLine bounds one message read from stdin: a longer line is answered
// with a parse error instead of being read whole.
const maxLine = 64 << 20

// ServeStdio serves one client session over newline-delimited JSON: r is
// what the client writes, w what it reads. Requests are answered
// concurrently, each as recorded. It returns when r ends (once the
// requests in flight are answered) or a close-after fault closes the
// connection.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	c := s.NewConn("")
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	closed := make(chan struct{})
	var once sync.Once
	send := func(msg []byte) error {
		if msg == nil {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		select {
		case <-closed:
			return errClosed
		default:
		}
		buf := make([]byte, 0, len(msg)+1)
		_, err := w.Write(append(append(buf, msg...), '\n'))
		return err
	}
	// Once it returns nothing more is written: a write under way ends
	// first, later ones fail.
	defer func() {
		mu.Lock()
		once.Do(func() { close(closed) })
		mu.Unlock()
	}()
	c.SetSessionStream(ctx, send)
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go readLines(ctx, r, lines, readErr)
	var wg sync.WaitGroup
	for {
		select {
		case line := <-lines:
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.Handle(ctx, line, send); errors.Is(err, errClosed) {
					once.Do(func() { close(closed) })
				}
			}()
		case err := <-readErr:
			c.hangUp()
			wg.Wait()
			if err == io.EOF {
				return nil
			}
			return err
		case <-closed:
			cancel()
			if cl, ok := w.(io.Closer); ok {
				cl.Close()
			}
			return nil
		case <-ctx.Done():
			c.hangUp()
			wg.Wait()
			return ctx.Err()
		}
	}
}

// readLines sends each non-blank line of r to lines, then r's error (EOF
// at its end) to errc.
func readLines(ctx context.Context, r io.Reader, lines chan<- []byte, errc chan<- error) {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			errc <- err
			return
		}
	}
}

// readLine reads one line without its newline, up to maxLine; a longer one
// is replaced by its first bytes, which do not parse.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}
