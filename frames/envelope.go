package frames

import (
	"bytes"
	"encoding/json"
	"errors"
)

// scanEnvelope reads the top-level members of a JSON-RPC message without
// decoding params or result: those are skipped by matching brackets, so a
// 4 MB result costs a scan, not an allocation per value. It reports the
// members the classifier needs; the SDK decodes the message in full anyway.
func scanEnvelope(raw []byte) (env envelope, err error) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return env, errNotObject
	}
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
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return env, errSyntax
		}
		i = skipSpace(raw, i+1)
		vEnd, err := skipValue(raw, i)
		if err != nil {
			return env, err
		}
		val := raw[i:vEnd]
		switch string(key) {
		case "jsonrpc":
			var s string
			if json.Unmarshal(val, &s) == nil {
				env.JSONRPC = &s
			}
		case "id":
			env.ID = val
		case "method":
			var s string
			if err := json.Unmarshal(val, &s); err == nil {
				env.Method = &s
			}
		case "result":
			env.Result = val
		case "error":
			if err := json.Unmarshal(val, &env.Error); err != nil {
				return env, err
			}
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
		j := bytes.IndexAny(b[i:], "\"\\")
		if j < 0 {
			return 0, errSyntax
		}
		i += j
		if b[i] == '"' {
			return i + 1, nil
		}
		i += 2 // an escape: skip the escaped byte
		if i > len(b) {
			return 0, errSyntax
		}
	}
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errSyntax
	default: // number, true, false, null
		j := i
		for j < len(b) && !bytes.ContainsRune([]byte(" \t\r\n,}]"), rune(b[j])) {
			j++
		}
		if j == i {
			return 0, errSyntax
		}
		return j, nil
	}
}
