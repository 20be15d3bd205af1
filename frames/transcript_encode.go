package frames

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendRecord appends the transcript record of f, with raw as its body, and
// a newline. The bytes are exactly what encoding/json makes of a record with
// HTML escaping off (a test holds the two equal), written without
// reflection: a proxy records every frame that crosses, and escaping the body
// into a JSON string is the only work that grows with its size.
func appendRecord(b []byte, f *Frame, raw []byte) []byte {
	b = append(b, `{"type":"frame","seq":`...)
	b = strconv.AppendInt(b, f.Seq, 10)
	b = append(b, `,"time":`...)
	b = appendTime(b, f.Time)
	b = append(b, `,"dir":`...)
	b = appendStringS(b, string(f.Dir))
	b = append(b, `,"kind":`...)
	b = appendStringS(b, string(f.Kind))
	if f.Method != "" {
		b = append(b, `,"method":`...)
		b = appendStringS(b, f.Method)
	}
	if f.ID != "" {
		b = append(b, `,"id":`...)
		b = appendStringS(b, f.ID)
	}
	if f.Answers != "" {
		b = append(b, `,"answers":`...)
		b = appendStringS(b, f.Answers)
	}
	if f.Code != 0 {
		b = append(b, `,"code":`...)
		b = strconv.AppendInt(b, int64(f.Code), 10)
	}
	if f.Err != "" {
		b = append(b, `,"err":`...)
		b = appendStringS(b, f.Err)
	}
	if f.Length != 0 {
		b = append(b, `,"length":`...)
		b = strconv.AppendInt(b, f.Length, 10)
	}
	if f.HTTP != nil {
		// Rare and small: the reflective encoder, minus its newline.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(f.HTTP)
		b = append(b, `,"http":`...)
		b = append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	if f.Note != "" {
		b = append(b, `,"note":`...)
		b = appendStringS(b, f.Note)
	}
	// Every record has a body, "" for frames without bytes (transport
	// evidence), as the reflective encoder always wrote it.
	if utf8.Valid(raw) {
		b = append(b, `,"raw":`...)
		b = appendString(b, raw)
	} else {
		b = append(b, `,"raw_b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, raw)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

// appendTime is time.Time's MarshalJSON: RFC 3339 with nanoseconds, quoted.
func appendTime(b []byte, t time.Time) []byte {
	if y := t.Year(); y < 0 || y >= 10000 {
		// MarshalJSON refuses these; no clock jig reads produces one.
		t = time.Time{}
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// escapes marks the bytes a JSON string cannot hold as they are: control
// characters, the quote, the backslash, and 0xE2, which starts U+2028 and
// U+2029 (encoding/json escapes those two for JavaScript's sake).
var escapes = [256]bool{'"': true, '\\': true, 0xE2: true,
	0x00: true, 0x01: true, 0x02: true, 0x03: true, 0x04: true, 0x05: true, 0x06: true, 0x07: true,
	0x08: true, 0x09: true, 0x0a: true, 0x0b: true, 0x0c: true, 0x0d: true, 0x0e: true, 0x0f: true,
	0x10: true, 0x11: true, 0x12: true, 0x13: true, 0x14: true, 0x15: true, 0x16: true, 0x17: true,
	0x18: true, 0x19: true, 0x1a: true, 0x1b: true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true,
}

const hexDigits = "0123456789abcdef"

// appendString appends s, valid UTF-8, as a JSON string, escaped exactly as
// encoding/json escapes it without HTML escaping. Runs of plain bytes are
// copied whole.
func appendString(b []byte, s []byte) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time: past them when all are plain, else straight
		// to the first that is not (a frame's quotes are every few bytes).
		if i+8 <= len(s) {
			m := escapeMask8(binary.LittleEndian.Uint64(s[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if !escapes[c] {
			i++
			continue
		}
		if c == 0xE2 {
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				b = append(b, s[start:i]...)
				b = append(b, `\u202`...)
				b = append(b, hexDigits[s[i+2]&0xF])
				i += 3
				start = i
				continue
			}
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// escapeMask8 has the high bit of each byte of x that escapes marks set,
// and perhaps of bytes after the first such (the borrows of the bit tricks
// run upwards), never of one before it: its lowest set bit is exact.
func escapeMask8(x uint64) uint64 {
	below := (x - 0x20*ones) & ^x & highs
	return below | hasZero(x^('"'*ones)) | hasZero(x^('\\'*ones)) | hasZero(x^(0xE2*ones))
}

func hasZero(v uint64) uint64 { return (v - ones) & ^v & highs }

// appendStringS is appendString for the short string fields.
func appendStringS(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if escapes[s[i]] {
			return appendString(b, []byte(s))
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
