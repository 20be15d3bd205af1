package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// NextFree is where to record a session that was told to record to path:
// path itself while there is no such file, else the first free
// PATH-2.EXT, PATH-3.EXT, …, created empty with O_EXCL so that two processes
// starting at once never share one. It is for commands a client starts
// once per session with the same --record FILE (jig proxy in an MCP
// config): refusing the second start, as a command typed by hand does,
// would take the client's server away with it. A path that is no file
// (/dev/null, /dev/stdout, a named pipe a reader streams the recording
// from) holds no earlier session: it is path itself.
func NextFree(path string) (string, error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		// Taken means there at all: a recording's header may not be
		// written yet (the recorder writes it off the session's path).
		return path, nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return path, nil
	}
	return NextNumbered(path)
}

// NextNumbered is the first free PATH-2.EXT, PATH-3.EXT, …, created empty
// with O_EXCL: where a process that records path already records its next
// session (path itself may still be empty while its first session's header
// waits in its queue: NextFree would hand it out again).
func NextNumbered(path string) (string, error) {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	for n := 2; n < 1<<16; n++ {
		p := fmt.Sprintf("%s-%d%s", base, n, ext)
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return p, f.Close()
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("recording: %w", err)
		}
	}
	return "", fmt.Errorf("%s and 65,535 numbered files beside it are taken: choose another --record FILE", path)
}

// PipeWait is how long a recording to a named pipe waits for the pipe's
// reader.
const PipeWait = 5 * time.Second

// openPath opens the file --record names. A named pipe is opened without
// blocking: with no reader, open(2) waits for one for ever, and jig with
// it, deaf to SIGTERM, before the session even starts. jig waits PipeWait
// for the reader, then says what is wrong. Opened, the pipe is written
// through the runtime's poller, so a slow reader is backpressure.
func openPath(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	}
	deadline := time.Now().Add(PipeWait)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("nothing reads this named pipe (jig waited %v for a reader): start its reader first, or record to a file", PipeWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
