package frames

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Every file jig writes may hold evidence of a session (redacted, but still
// about the user's servers): it is created readable by its owner only, and
// so are the directories jig creates for it.
const (
	PrivateFile fs.FileMode = 0o600
	PrivateDir  fs.FileMode = 0o700
)

// CreatePrivate creates or truncates path as a private file (0600, also when
// it existed with a wider mode), creating missing parent directories 0700.
func CreatePrivate(path string) (*os.File, error) {
	if err := MkdirPrivate(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, PrivateFile)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(PrivateFile); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// MkdirPrivate creates dir and its missing parents with mode 0700.
// Directories that already exist keep their mode.
func MkdirPrivate(dir string) error {
	if dir == "" || dir == "." {
		return nil
	}
	return os.MkdirAll(dir, PrivateDir)
}

// Limits of the files jig reads. A fixture, a config file or an --args file
// larger than this is refused, so a file that is really /dev/zero or a
// runaway log cannot exhaust memory.
const (
	MaxFixtureFile = 256 << 20
	MaxConfigFile  = 16 << 20
)

// ErrNotRegular is why a file that is a FIFO, a device, a socket or a
// directory is refused: reading one can hang forever (a FIFO with no writer)
// or never end (/dev/zero).
var ErrNotRegular = errors.New("not a regular file")

// ReadRegular reads the regular file at path (a symlink to one is fine), at
// most limit bytes of it. A FIFO, device, socket or directory is refused
// before it is opened, and a file over the limit is refused without reading
// it all; both errors name the file.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized by the file, so a fixture is read in one read and the one that
	// finds its end, not grown from 512 bytes (reading was a third of
	// loading 10,000 fixtures). The limit still holds if it grew meanwhile.
	b := make([]byte, 0, 512)
	if st, err := f.Stat(); err == nil && st.Size() > 0 && st.Size() <= limit {
		b = make([]byte, 0, st.Size()+1)
	}
	r := io.LimitReader(f, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %s, the most jig reads from such a file", path, HumanSize(int(limit)))
	}
	return b, nil
}

// OpenRegular opens path for reading if it is a regular file.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (it is %s); jig reads only regular files here", path, ErrNotRegular, describeMode(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// It may have been swapped between the Stat and the Open.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w; jig reads only regular files here", path, ErrNotRegular)
	}
	return f, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}
