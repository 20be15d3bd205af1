package frames

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf16"
	"unicode/utf8"
)

// Indexed is a transcript opened for reading without holding its bodies: one
// pass over the file keeps each frame's metadata and where its record lies,
// and Body re-reads a frame's bytes when somebody looks at it. A 100 MB,
// 100,000-frame capture opens in a fraction of a second and costs a few tens
// of megabytes, where ReadTranscript would hold every body twice over.
type Indexed struct {
	Header Header
	Metas  []Meta
	// Warnings lists lines that could not be read, as in Transcript.
	Warnings []string
	// Cut is where the file ends mid-record, or nil.
	Cut *Cut

	file   *os.File
	blocks [][]Frame // frame metadata in fixed blocks: appending never copies, pointers stay valid; Raw is nil
	n      int
	off    []int64 // offset of each frame's record in the file
	length []int32 // length of each frame's record, without its newline
	pairs  *Pairer
}

// indexBufSize bounds the memory the index pass uses for one read; longer
// records are assembled from several reads.
const indexBufSize = 1 << 20

// indexBlock is how many frames' metadata one allocation holds.
const indexBlock = 4096

// OpenIndexed indexes the JSONL transcript at path. As with ReadTranscript, a
// cut-off or corrupt line becomes a warning, not an error. Close releases the
// file.
func OpenIndexed(path string) (*Indexed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	x := &Indexed{file: f, pairs: NewPairer()}
	if err := x.index(bufio.NewReaderSize(f, indexBufSize)); err != nil {
		f.Close()
		return nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	if x.Header.Type == "" && x.n == 0 {
		f.Close()
		return nil, fmt.Errorf("transcript %s: not a jig transcript: no header record and no frame records", path)
	}
	x.Warnings = append(x.Warnings, x.Header.check()...)
	return x, nil
}

func (x *Indexed) index(br *bufio.Reader) error {
	var off int64
	var long []byte // a record longer than the read buffer, assembled
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			line, err = br.ReadSlice('\n')
		}
		if long != nil {
			line = append(long, line...)
			long = nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		complete := err == nil
		rec := bytes.TrimSuffix(line, []byte("\n"))
		if len(bytes.TrimSpace(rec)) > 0 {
			if perr := x.addRecord(rec, off); perr != nil {
				if !complete {
					x.Cut = &Cut{Line: n, Offset: off, Bytes: int64(len(line))}
					x.Warnings = append(x.Warnings, x.Cut.String())
				} else {
					x.Warnings = append(x.Warnings, fmt.Sprintf("line %d: %v; ignored", n, perr))
				}
			}
		}
		off += int64(len(line))
		if err == io.EOF {
			return nil
		}
	}
}

var (
	frameRecordPrefix = []byte(`{"type":"frame",`)
	rawKey            = []byte(`,"raw":"`)
	rawB64Key         = []byte(`,"raw_b64":"`)
)

// frameMeta is a frame record without its body.
type frameMeta struct {
	Type string `json:"type"`
	Frame
}

func (x *Indexed) addRecord(rec []byte, off int64) error {
	if !bytes.HasPrefix(rec, frameRecordPrefix) {
		return x.addOther(rec, off)
	}
	f, size, err := splitFrameRecord(rec)
	if err != nil {
		return err
	}
	return x.addFrame(f, size, rec, off)
}

// addFrame indexes frame f (its body of size bytes stays in the file).
func (x *Indexed) addFrame(f Frame, size int, rec []byte, off int64) error {
	if len(rec) > 1<<31-1 {
		return fmt.Errorf("frame record of %d bytes is too large to index", len(rec))
	}
	f.RawLen = size
	i := x.n
	if i%indexBlock == 0 {
		x.blocks = append(x.blocks, make([]Frame, 0, indexBlock))
	}
	b := &x.blocks[len(x.blocks)-1]
	*b = append(*b, f)
	x.n++
	x.off = append(x.off, off)
	x.length = append(x.length, int32(len(rec)))
	x.pairs.Add(i, x.Frame(i))
	if f.Method == "notifications/cancelled" {
		// Small and rare: decode its body so the request it names is known
		// as cancelled rather than pending.
		if full, err := DecodeRecordFrame(rec); err == nil {
			x.pairs.NoteCancel(i, full)
		}
	}
	return nil
}

// splitFrameRecord decodes a frame record's metadata and measures its body
// without decoding it. TranscriptWriter writes the body last, so the metadata
// is the prefix before `,"raw":"`; a quote inside an earlier string value is
// escaped, so that key cannot be matched inside one. Records in any other
// layout are decoded whole.
func splitFrameRecord(rec []byte) (Frame, int, error) {
	var meta frameMeta
	for _, key := range [][]byte{rawKey, rawB64Key} {
		i := bytes.Index(rec, key)
		if i < 0 || !bytes.HasSuffix(rec, []byte(`"}`)) || i+len(key) > len(rec)-2 {
			continue // not this layout (the suffix may even overlap the key): decode it whole
		}
		body := rec[i+len(key) : len(rec)-2]
		head := append(bytes.Clone(rec[:i]), '}')
		if err := json.Unmarshal(head, &meta); err != nil {
			return Frame{}, 0, err
		}
		if bytes.Equal(key, rawB64Key) {
			return meta.Frame, base64.StdEncoding.DecodedLen(len(body)) - bytes.Count(body[max(0, len(body)-2):], []byte("=")), nil
		}
		return meta.Frame, unescapedLen(body), nil
	}
	f, err := DecodeRecordFrame(rec)
	if err != nil {
		return Frame{}, 0, err
	}
	size := len(f.Raw)
	f.Raw = nil
	return *f, size, nil
}

// unescapedLen is the length of the bytes a JSON string body decodes to.
func unescapedLen(s []byte) int {
	n := 0
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 || i+1 >= len(s) {
			return n + len(s)
		}
		n += i
		if s[i+1] != 'u' || i+6 > len(s) {
			n++
			s = s[i+2:]
			continue
		}
		r := hexRune(s[i+2 : i+6])
		s = s[i+6:]
		if utf16.IsSurrogate(r) && len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
			if pair := utf16.DecodeRune(r, hexRune(s[2:6])); pair != utf8.RuneError {
				n += utf8.RuneLen(pair)
				s = s[6:]
				continue
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		n += utf8.RuneLen(r)
	}
}

func hexRune(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError
		}
	}
	return r
}

func (x *Indexed) addOther(rec []byte, off int64) error {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(rec, &probe); err != nil {
		return err
	}
	switch probe.Type {
	case "header":
		return json.Unmarshal(rec, &x.Header)
	case "meta":
		var m Meta
		if err := json.Unmarshal(rec, &m); err != nil {
			return err
		}
		x.Metas = append(x.Metas, m)
		return nil
	case "frame":
		// Rewritten by another tool (json.dumps puts spaces after the
		// colons): decoded whole, which is slower but just as good.
		f, err := DecodeRecordFrame(rec)
		if err != nil {
			return err
		}
		size := len(f.Raw)
		f.Raw = nil
		return x.addFrame(*f, size, rec, off)
	}
	return fmt.Errorf("unknown record type %q", probe.Type)
}

// Len returns the number of frames.
func (x *Indexed) Len() int { return x.n }

// Frame returns frame i's metadata. Its Raw is nil: Body loads it, and
// RawLen (so Size) gives its length.
func (x *Indexed) Frame(i int) *Frame { return &x.blocks[i/indexBlock][i%indexBlock] }

// Partner returns the index paired with frame i, or -1.
func (x *Indexed) Partner(i int) int { return x.pairs.Partner(i) }

// Cancelled returns the index of the notifications/cancelled that named the
// request at i, or -1.
func (x *Indexed) Cancelled(i int) int { return x.pairs.Cancelled(i) }

// Ended returns the index of the frame that said the server exited while
// the request at i was open, or -1.
func (x *Indexed) Ended(i int) int { return x.pairs.Ended(i) }

// Body re-reads frame i's record from the file and returns its exact bytes.
// It is safe for concurrent use.
func (x *Indexed) Body(i int) ([]byte, error) {
	buf := make([]byte, x.length[i])
	if _, err := x.file.ReadAt(buf, x.off[i]); err != nil {
		return nil, fmt.Errorf("transcript %s: frame %d: %w", x.file.Name(), x.Frame(i).Seq, err)
	}
	f, err := DecodeRecordFrame(buf)
	if err != nil {
		return nil, fmt.Errorf("transcript %s: frame %d: %w (was the file changed since it was opened?)", x.file.Name(), x.Frame(i).Seq, err)
	}
	return f.Raw, nil
}

// Meta returns the data of the last meta record with key, or nil.
func (x *Indexed) Meta(key string) json.RawMessage {
	for i := len(x.Metas) - 1; i >= 0; i-- {
		if x.Metas[i].Key == key {
			return x.Metas[i].Data
		}
	}
	return nil
}

// Close closes the transcript file; Body fails afterwards.
func (x *Indexed) Close() error { return x.file.Close() }
