package frames

import (
	"bytes"
	"encoding/json"
	"errors"
)

// envelope holds the top-level members of a JSON-RPC message as raw JSON
// texts, nil when absent.
type envelope struct {
	JSONRPC, ID, Method, Result, Error json.RawMessage
	// depth is the deepest nesting of any member, counting the envelope.
	depth int
}

// scanEnvelope reads the top-level members of a JSON-RPC message without
// decoding params or result: those are skipped by matching brackets, so a
// 4 MB result costs a scan, not an allocation per value. It checks only the
// object's outer shape; Classify checks the rest as strictly as the SDK.
func scanEnvelope(raw []byte) (env envelope, err error) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return env, errNotObject
	}
	env.depth = 1
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return env, trailing(raw, i+1)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return env, errSyntax
		}
		kEnd, err := skipString(raw, i)
		if err != nil {
			return env, err
		}
		key := raw[i+1 : kEnd-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			// "m\u0065thod" is "method" to every JSON decoder.
			var k string
			if json.Unmarshal(raw[i:kEnd], &k) != nil {
				return env, errSyntax
			}
			key = []byte(k)
		}
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return env, errSyntax
		}
		i = skipSpace(raw, i+1)
		vEnd, depth, err := skipValue(raw, i)
		if err != nil {
			return env, err
		}
		env.depth = max(env.depth, 1+depth)
		val := json.RawMessage(raw[i:vEnd])
		switch string(key) {
		case "jsonrpc":
			env.JSONRPC = val
		case "id":
			env.ID = val
		case "method":
			env.Method = val
		case "result":
			env.Result = val
		case "error":
			env.Error = val
		}
		i = skipSpace(raw, vEnd)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
			continue
		}
		if i < len(raw) && raw[i] == '}' {
			return env, trailing(raw, i+1)
		}
		return env, errSyntax
	}
}

var (
	errNotObject = errors.New("not a JSON object")
	errSyntax    = errors.New("malformed JSON")
)

func trailing(raw []byte, i int) error {
	if skipSpace(raw, i) != len(raw) {
		return errors.New("data after the JSON value")
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	i++
	for {
		// The closing quote, unless a backslash comes first: both searches
		// run at memchr speed, where testing for either byte goes one by one.
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return 0, errSyntax
		}
		e := bytes.IndexByte(b[i:i+q], '\\')
		if e < 0 {
			return i + q + 1, nil
		}
		i += e + 2 // an escape: skip the escaped byte
		if i > len(b) {
			return 0, errSyntax
		}
	}
}

// skipValue returns the index just past the value starting at b[i], and how
// deeply it nests (0 for a scalar, 1 for a flat array or object).
func skipValue(b []byte, i int) (end, deepest int, err error) {
	if i >= len(b) {
		return 0, 0, errSyntax
	}
	switch b[i] {
	case '"':
		end, err := skipString(b, i)
		return end, 0, err
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
				deepest = max(deepest, depth)
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, deepest, nil
				}
			}
			i++
		}
		return 0, 0, errSyntax
	default: // number, true, false, null
		j := i
		for j < len(b) && !bytes.ContainsRune([]byte(" \t\r\n,}]"), rune(b[j])) {
			j++
		}
		if j == i {
			return 0, 0, errSyntax
		}
		return j, 0, nil
	}
}

// Members hands each member of the JSON object obj to fn, its value as the
// raw JSON text, without decoding any value: the top-level keys of a 4 MB
// result cost a scan. A key with escapes is passed decoded. It reports
// whether obj was a well-formed object as far as it was read.
func Members(obj []byte, fn func(key string, val []byte)) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		kEnd, err := skipString(obj, i)
		if err != nil {
			return false
		}
		key := string(obj[i+1 : kEnd-1])
		if bytes.IndexByte(obj[i:kEnd], '\\') >= 0 {
			if json.Unmarshal(obj[i:kEnd], &key) != nil {
				return false
			}
		}
		i = skipSpace(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		vEnd, _, err := skipValue(obj, i)
		if err != nil {
			return false
		}
		fn(key, obj[i:vEnd])
		i = skipSpace(obj, vEnd)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = skipSpace(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return true
		default:
			return false
		}
	}
}
