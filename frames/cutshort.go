package frames

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// CutShort reports whether data is one JSON document that is sound up to
// its end but ends inside a value: a file truncated by an interrupted write
// or copy (head -c, a full disk). size is its length in bytes, line the
// line it ends on.
func CutShort(data []byte) (size, line int, ok bool) {
	doc := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))
	if len(doc) == 0 || (doc[0] != '{' && doc[0] != '[') {
		return 0, 0, false
	}
	var v any
	err := json.NewDecoder(bytes.NewReader(doc)).Decode(&v)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, 0, false
	}
	return len(data), bytes.Count(data, []byte("\n")) + 1, true
}

// CutShortMsg is the one diagnosis of a truncated file, whichever command
// read it, to follow the file's name: where it is cut short and the next
// step.
func CutShortMsg(path string, size, line int) string {
	return fmt.Sprintf("is cut short at byte %d (line %d): it ends inside its JSON, so it was truncated (an interrupted write or copy); restore it from git (git checkout -- %s) or pin it again", size, line, path)
}
