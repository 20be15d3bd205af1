package frames

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"
)

// TranscriptFormat is the version of the JSONL transcript format.
const TranscriptFormat = 1

// Header is the first record of a transcript.
type Header struct {
	Type    string    `json:"type"` // "header"
	Format  int       `json:"format"`
	Jig     string    `json:"jig"`
	Started time.Time `json:"started"`
	// Target describes what jig connected to, secrets already redacted.
	Target json.RawMessage `json:"target,omitempty"`
	// Mode is "session" for jig's own sessions and "proxy" for captured clients.
	Mode string `json:"mode,omitempty"`
}

// Meta is a record written when something about the session becomes known
// mid-stream, such as the negotiated protocol after the handshake.
type Meta struct {
	Type string          `json:"type"` // "meta"
	Time time.Time       `json:"time"`
	Key  string          `json:"key"`
	Data json.RawMessage `json:"data"`
}

// record is the on-disk shape of a frame. Raw is a JSON string when the bytes
// are valid UTF-8 (strings round-trip exactly, unlike an embedded RawMessage,
// which encoding/json would compact) and base64 otherwise. Records are read
// with this type and written by appendRecord, which makes the same bytes.
type record struct {
	Type string `json:"type"` // "frame"
	Frame
	Raw    *string `json:"raw,omitempty"`
	RawB64 string  `json:"raw_b64,omitempty"`
}

// A TranscriptWriter appends a session to a JSONL file, one record per line.
// Every WriteFrame or WriteFrames call hands its records to the file in one
// Write before it returns, so a killed jig leaves every frame it was given on
// disk; a batch costs one system call however many frames it holds.
type TranscriptWriter struct {
	mu     sync.Mutex
	w      io.Writer
	redact *Redactor
	closer io.Closer
	buf    []byte // reused between batches
}

// writeChunk is how much of a batch is encoded before it is written: large
// enough that a write costs little per frame, small enough that a batch of
// thousands of frames needs no buffer of its size. A buffer grown past it by
// one large frame is let go once written.
const writeChunk = 64 << 10

// CreateTranscript creates (or truncates) path and writes the header.
func CreateTranscript(path string, h Header, redact *Redactor) (*TranscriptWriter, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript %s: %w", path, err)
	}
	tw := FileTranscriptWriter(f, redact)
	if err := tw.WriteHeader(h); err != nil {
		f.Close()
		return nil, err
	}
	return tw, nil
}

// FileTranscriptWriter returns the writer of records to f, a file opened for
// writing, with no header written yet; closing the writer closes f.
func FileTranscriptWriter(f *os.File, redact *Redactor) *TranscriptWriter {
	tw := NewTranscriptWriter(f, redact)
	tw.closer = f
	return tw
}

// NewTranscriptWriter writes records to w. Each record is one Write call.
func NewTranscriptWriter(w io.Writer, redact *Redactor) *TranscriptWriter {
	return &TranscriptWriter{w: w, redact: redact}
}

// WriteHeader writes the header record.
func (t *TranscriptWriter) WriteHeader(h Header) error {
	h.Type = "header"
	if h.Format == 0 {
		h.Format = TranscriptFormat
	}
	if len(h.Target) > 0 {
		h.Target = t.redact.JSON(h.Target)
	}
	return t.writeJSON(h)
}

// WriteMeta writes a meta record.
func (t *TranscriptWriter) WriteMeta(key string, data any, now time.Time) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return t.writeJSON(Meta{Type: "meta", Time: now, Key: key, Data: t.redact.JSON(b)})
}

// WriteFrame writes one frame, redacted: its bytes, its note (an HTTP error
// body may echo a token), its URL and its headers.
func (t *TranscriptWriter) WriteFrame(f *Frame) error {
	return t.WriteFrames([]*Frame{f})
}

// WriteFrames writes frames, redacted as WriteFrame redacts one, in one Write.
func (t *TranscriptWriter) WriteFrames(fs []*Frame) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf[:0]
	var err error
	for i, f := range fs {
		rf := t.redact.Frame(f)
		raw := t.redact.Bytes(f.Raw)
		if len(raw) != len(f.Raw) && rf.Length == 0 {
			// The record keeps the size that crossed, not the redacted one.
			rf.Length = int64(len(f.Raw))
		}
		// Room for the record before it is encoded: appending a large frame's
		// escaped bytes to a small buffer would grow it (a copy and a cleared
		// tail each time) once per doubling.
		b = slices.Grow(b, recordRoom(len(raw)))
		b = appendRecord(b, &rf, raw)
		if len(b) >= writeChunk || i == len(fs)-1 {
			_, err = t.w.Write(b)
			if cap(b) > 2*writeChunk {
				b = nil
			}
			b = b[:0]
			if err != nil {
				break // the file is broken from here on; the Log reports it
			}
		}
	}
	t.buf = b
	return err
}

// recordRoom is the room a record of a frame of n bytes needs, nearly
// always: its fields (~200 bytes) and the frame's bytes escaped, which for
// JSON text is a quote's backslash every few dozen bytes.
func recordRoom(n int) int { return n + n/8 + 256 }

func (t *TranscriptWriter) writeJSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, err := t.w.Write(buf.Bytes())
	return err
}

// Close closes the underlying file, if the writer opened it.
func (t *TranscriptWriter) Close() error {
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

// Transcript is a session read back from disk.
type Transcript struct {
	Header Header
	Metas  []Meta
	Frames []*Frame
	pairs  *Pairer
	// lastLine is the line ReadTranscript read last.
	lastLine []byte
	// Warnings lists lines that could not be read (a cut-off last line, a
	// corrupt record); the rest of the file is still used.
	Warnings []string
	// Cut is where the file ends mid-record, or nil.
	Cut *Cut
}

// ReadTranscript reads a JSONL transcript. A cut-off or corrupt line becomes
// a warning, never an error: a transcript of a killed session is still evidence.
func ReadTranscript(r io.Reader) (*Transcript, error) {
	t := &Transcript{pairs: NewPairer()}
	br := bufio.NewReaderSize(r, 1<<16)
	var off int64
	for n := 1; ; n, off = n+1, off+int64(len(t.lastLine)) {
		line, err := br.ReadBytes('\n')
		t.lastLine = line
		if len(bytes.TrimSpace(line)) > 0 {
			complete := err == nil
			if perr := t.addLine(line); perr != nil {
				if !complete {
					t.Cut = &Cut{Line: n, Offset: off, Bytes: int64(len(line))}
					t.Warnings = append(t.Warnings, t.Cut.String())
				} else {
					t.Warnings = append(t.Warnings, fmt.Sprintf("line %d: %v; ignored", n, perr))
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return t, err
		}
	}
	if t.Header.Type == "" && len(t.Frames) == 0 {
		return t, fmt.Errorf("not a jig transcript: no header record and no frame records")
	}
	t.Warnings = append(t.Warnings, t.Header.check()...)
	return t, nil
}

// check fills in a missing header (a transcript whose first line was lost
// or cut away: its frames are still evidence) and says what was assumed,
// and says so of a format this jig does not know.
func (h *Header) check() []string {
	switch {
	case h.Type == "":
		*h = Header{Type: "header", Format: TranscriptFormat}
		return []string{fmt.Sprintf("no header record: read as a jig transcript of format %d; the target and start time are unknown", TranscriptFormat)}
	case h.Format > TranscriptFormat:
		return []string{fmt.Sprintf("transcript format %d: this jig reads format %d and older; records or fields it does not know are skipped (upgrade jig to read it all)", h.Format, TranscriptFormat)}
	}
	return nil
}

// DecodeRecordFrame decodes one transcript line of type "frame".
func DecodeRecordFrame(line []byte) (*Frame, error) {
	var rec record
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, err
	}
	f := rec.Frame
	switch {
	case rec.Raw != nil:
		f.Raw = []byte(*rec.Raw)
	case rec.RawB64 != "":
		b, err := base64.StdEncoding.DecodeString(rec.RawB64)
		if err != nil {
			return nil, fmt.Errorf("raw_b64: %w", err)
		}
		f.Raw = b
	}
	return &f, nil
}

func (t *Transcript) addLine(line []byte) error {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return err
	}
	switch probe.Type {
	case "header":
		return json.Unmarshal(line, &t.Header)
	case "meta":
		var m Meta
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		t.Metas = append(t.Metas, m)
	case "frame":
		f, err := DecodeRecordFrame(line)
		if err != nil {
			return err
		}
		t.pairs.Add(len(t.Frames), f)
		t.Frames = append(t.Frames, f)
	default:
		return fmt.Errorf("unknown record type %q", probe.Type)
	}
	return nil
}

// Len, Frame, Body and Partner make a Transcript a Reader.
func (t *Transcript) Len() int                   { return len(t.Frames) }
func (t *Transcript) Frame(i int) *Frame         { return t.Frames[i] }
func (t *Transcript) Body(i int) ([]byte, error) { return t.Frames[i].Raw, nil }
func (t *Transcript) Partner(i int) int          { return t.pairs.Partner(i) }

// Cancelled returns the index of the notifications/cancelled that named the
// request at i, or -1.
func (t *Transcript) Cancelled(i int) int { return t.pairs.Cancelled(i) }

// Ended returns the index of the frame that said the server exited while
// the request at i was open, or -1.
func (t *Transcript) Ended(i int) int { return t.pairs.Ended(i) }

// Meta returns the data of the last meta record with key, or nil.
func (t *Transcript) Meta(key string) json.RawMessage {
	for i := len(t.Metas) - 1; i >= 0; i-- {
		if t.Metas[i].Key == key {
			return t.Metas[i].Data
		}
	}
	return nil
}

// Cut says where a recording ends mid-record: the line, the byte it starts
// at and how many bytes of it there are, none of them read.
type Cut struct {
	Line   int
	Offset int64
	Bytes  int64
}

// String is the warning a reader of the recording shows.
func (c Cut) String() string {
	return fmt.Sprintf("line %d: cut off (the file ends mid-record): the %d bytes from byte %d to the end are an incomplete record and were not read; the frames before it are kept, and a request shown pending may have been answered in what is missing",
		c.Line, c.Bytes, c.Offset)
}
