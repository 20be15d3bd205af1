package frames

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unsafe"
)

// A Scanner reads a JSONL transcript one record at a time, holding only the
// record it is on: statistics over a million recorded calls stream through
// it in bounded memory, where ReadTranscript holds every body and
// OpenIndexed every frame's metadata. Cut-off and corrupt lines become
// warnings, as in ReadTranscript.
type Scanner struct {
	// Header is the transcript's header, known once Next has read it.
	Header Header
	// Warnings lists lines that could not be read.
	Warnings []string

	name  string
	br    *bufio.Reader
	line  int
	off   int64 // where the line read next starts
	long  []byte
	frame *Frame
	meta  *Meta
	err   error
	// spans: list the long strings of each frame (WithSpans); cur the
	// frame's.
	spans bool
	cur   []Span
}

// NewScanner reads a transcript from r; name is what errors and warnings
// call it (its path).
func NewScanner(r io.Reader, name string) *Scanner {
	return &Scanner{name: name, br: bufio.NewReaderSize(r, indexBufSize)}
}

// WithSpans makes the Scanner list, for each frame it reads, where the long
// string literals of its bytes lie (see Span; Spans). It returns s.
func (s *Scanner) WithSpans() *Scanner {
	s.spans = true
	return s
}

// Spans lists the long string literals of the frame Next read, each a
// valid JSON string, in order, when WithSpans asked for them: offsets into
// its Raw as read (nil when none were found, or when Raw is changed). The
// slice is the caller's to keep.
func (s *Scanner) Spans() []Span { return s.cur }

// Next advances to the next frame or meta record and reports whether there
// is one. The header is read on the way: Header holds it. At the end, Err
// says whether the file was unreadable or no jig transcript at all.
func (s *Scanner) Next() bool {
	s.frame, s.meta, s.cur = nil, nil, nil
	for s.err == nil {
		line, err := s.br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			s.long = append(s.long, line...)
			line, err = s.br.ReadSlice('\n')
		}
		if s.long != nil {
			line = append(s.long, line...)
			s.long = nil
		}
		if err != nil && err != io.EOF {
			s.err = fmt.Errorf("transcript %s: %w", s.name, err)
			return false
		}
		s.line++
		start := s.off
		s.off += int64(len(line))
		complete := err == nil
		rec := bytes.TrimSpace(line)
		if len(rec) > 0 {
			if perr := s.record(rec); perr != nil {
				if !complete {
					s.Warnings = append(s.Warnings, Cut{Line: s.line, Offset: start, Bytes: int64(len(line))}.String())
				} else {
					s.Warnings = append(s.Warnings, fmt.Sprintf("line %d: %v; ignored", s.line, perr))
				}
			} else if s.frame != nil || s.meta != nil {
				return true
			}
		}
		if err == io.EOF {
			if s.Header.Type == "" {
				s.err = fmt.Errorf("transcript %s: not a jig transcript: no header record", s.name)
			}
			return false
		}
	}
	return false
}

// Frame is the frame record Next read, with its bytes, or nil when it read
// a meta record. It is the caller's to keep.
func (s *Scanner) Frame() *Frame { return s.frame }

// Meta is the meta record Next read, or nil.
func (s *Scanner) Meta() *Meta { return s.meta }

// Line is the line number of the record Next read.
func (s *Scanner) Line() int { return s.line }

// Err is why scanning stopped early, or nil at a clean end.
func (s *Scanner) Err() error { return s.err }

func (s *Scanner) record(rec []byte) error {
	if !bytes.HasPrefix(rec, frameRecordPrefix) {
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(rec, &probe); err != nil {
			return err
		}
		switch probe.Type {
		case "header":
			return json.Unmarshal(rec, &s.Header)
		case "meta":
			m := &Meta{}
			if err := json.Unmarshal(rec, m); err != nil {
				return err
			}
			s.meta = m
			return nil
		case "frame":
			f, err := DecodeRecordFrame(rec)
			if err != nil {
				return err
			}
			s.frame = f
			return nil
		}
		return fmt.Errorf("unknown record type %q", probe.Type)
	}
	var spans *[]Span
	if s.spans {
		spans = &s.cur
	}
	f, err := decodeFrameRecord(rec, spans)
	if err != nil {
		return err
	}
	s.frame = f
	return nil
}

// decodeFrameRecord is DecodeRecordFrame for records in the layout
// TranscriptWriter writes (the body last), decoding the metadata alone with
// encoding/json and unescaping the body by hand: several times faster on
// large bodies. Other layouts go through DecodeRecordFrame. With spans
// set, the body's long strings are listed there (see unquoteSpans).
func decodeFrameRecord(rec []byte, spans *[]Span) (*Frame, error) {
	for _, key := range [][]byte{rawKey, rawB64Key} {
		i := bytes.Index(rec, key)
		if i < 0 || !bytes.HasSuffix(rec, []byte(`"}`)) {
			continue
		}
		body := rec[i+len(key) : len(rec)-2]
		f, ok := fastHead(rec[:i])
		if !ok {
			var meta frameMeta
			head := append(rec[:i:i], '}')
			if err := json.Unmarshal(head, &meta); err != nil {
				return nil, err
			}
			f = meta.Frame
		}
		if bytes.Equal(key, rawB64Key) {
			raw, err := base64.StdEncoding.DecodeString(string(body))
			if err != nil {
				return nil, fmt.Errorf("raw_b64: %w", err)
			}
			f.Raw = raw
			return &f, nil
		}
		var raw []byte
		if spans != nil && bytes.IndexByte(body, '\\') >= 0 {
			raw, *spans, ok = unquoteSpans(body, nil)
		} else {
			raw, ok = unescapeJSONString(body)
		}
		if !ok {
			break
		}
		f.Raw = raw
		return &f, nil
	}
	return DecodeRecordFrame(rec)
}

// unescapeJSONString decodes the inside of a JSON string (without its
// quotes) as encoding/json does, invalid surrogates becoming U+FFFD. It
// reports false on an escape JSON does not allow or, in a string without
// escapes, a quote.
func unescapeJSONString(s []byte) ([]byte, bool) {
	if bytes.IndexByte(s, '\\') < 0 {
		if bytes.IndexByte(s, '"') >= 0 {
			return nil, false
		}
		return bytes.Clone(s), true
	}
	return appendUnquoted(make([]byte, 0, len(s)), s)
}

// fastHead decodes a frame record's metadata (the record before its body,
// without the closing brace) as TranscriptWriter writes it, by hand: the
// same answer as encoding/json for that layout, five times sooner. It
// reports false on anything else (an HTTP frame, an escape in a string, a
// key it does not know), which encoding/json then decodes.
func fastHead(head []byte) (Frame, bool) {
	var f Frame
	rest, ok := bytes.CutPrefix(head, []byte(`{"type":"frame"`))
	if !ok {
		return f, false
	}
	for len(rest) > 0 {
		if rest[0] != ',' || len(rest) < 2 || rest[1] != '"' {
			return f, false
		}
		rest = rest[2:]
		k := bytes.IndexByte(rest, '"')
		if k < 0 || len(rest) < k+2 || rest[k+1] != ':' {
			return f, false
		}
		key := rest[:k]
		rest = rest[k+2:]
		var val []byte
		if len(rest) > 0 && rest[0] == '"' {
			end := bytes.IndexByte(rest[1:], '"')
			if end < 0 {
				return f, false
			}
			val = rest[1 : 1+end]
			if bytes.IndexByte(val, '\\') >= 0 {
				return f, false
			}
			rest = rest[end+2:]
		} else {
			end := bytes.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			val = rest[:end]
			rest = rest[end:]
		}
		switch string(key) {
		case "seq", "code", "length":
			n, err := strconv.ParseInt(unsafeString(val), 10, 64)
			if err != nil {
				return f, false
			}
			switch string(key) {
			case "seq":
				f.Seq = n
			case "code":
				f.Code = int(n)
			default:
				f.Length = n
			}
		case "time":
			t, err := time.Parse(time.RFC3339Nano, unsafeString(val))
			if err != nil {
				return f, false
			}
			f.Time = t
		case "dir":
			f.Dir = Direction(intern(val, directions[:]))
		case "kind":
			f.Kind = Kind(intern(val, kinds[:]))
		case "method":
			f.Method = intern(val, methods[:])
		case "id":
			f.ID = string(val) // a number's text; a string id has escapes and goes the slow way
		case "answers":
			f.Answers = string(val)
		case "err":
			f.Err = string(val)
		case "note":
			f.Note = string(val)
		default:
			return f, false // "http" goes the slow way
		}
	}
	return f, true
}

// The strings a frame record's head holds most often, handed out as they
// are instead of a new copy for each of a million frames.
var (
	directions = [...]string{string(ClientToServer), string(ServerToClient)}
	kinds      = [...]string{string(KindRequest), string(KindResult), string(KindNotification), string(KindError),
		string(KindStderr), string(KindTransport), string(KindInvalid), string(KindBatch)}
	methods = [...]string{"tools/call", "tools/list", "initialize", "notifications/initialized", "ping",
		"notifications/cancelled", "notifications/progress", "notifications/message", "resources/read",
		"resources/list", "prompts/get", "prompts/list"}
)

// intern is b as a string: one of known when it is one, else a copy.
func intern(b []byte, known []string) string {
	for _, k := range known {
		if string(b) == k {
			return k
		}
	}
	return string(b)
}

// unsafeString is b as a string without a copy, for a parse that keeps
// nothing of it once it returns (its error, which may, is dropped).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
