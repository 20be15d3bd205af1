package attribute

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/content"
)

// A Summary is what a result is, computed from its bytes, so that "this
// change moved the result" is a fact and not a reading: how many items each
// array holds, whether the server said the result is partial, isError, the
// JSON-RPC error code, the size.
type Summary struct {
	// IsError is the result's isError flag.
	IsError bool
	// Code and Message are the JSON-RPC error's; Code is 0 for a result.
	Code    int64
	Message string
	// Arrays counts the items of each array the result holds, at the
	// result's top level, in structuredContent and in the JSON of text
	// blocks, named by where it is ("structuredContent.orders").
	Arrays []Array
	// Partial lists where the result says it is not the whole answer
	// ("truncated: true"), once per marker, wherever it appeared.
	Partial []string
	// Text is the first text block when it is not JSON, cut to 120 bytes.
	Text string
	// Size is the result's (or error's) size in bytes.
	Size int
	// Digest identifies the result without its _meta: equal digests, equal results.
	Digest string
}

// An Array is one array of a result.
type Array struct {
	Path string
	N    int
	// Fields are, for an array of objects, the distinct values of each
	// string member when there are at most three: what the rows are
	// (customer_name: ["acme"]).
	Fields map[string][]string
}

// Name is the array's member name ("orders"), or its path when it has none.
func (a Array) Name() string {
	if i := strings.LastIndexAny(a.Path, ".#"); i >= 0 {
		return a.Path[i+1:]
	}
	return a.Path
}

// Summarize computes the summary of a tools/call response's result or
// JSON-RPC error (exactly as received).
func Summarize(result, rpcError json.RawMessage) Summary {
	if len(rpcError) > 0 {
		var e struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		json.Unmarshal(rpcError, &e)
		return Summary{Code: e.Code, Message: e.Message, Size: len(rpcError), Digest: digest(rpcError)}
	}
	s := Summary{Size: len(result), IsError: content.IsError(result)}
	var r struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(result, &r)
	s.Arrays = append(s.Arrays, arrays(result, "", true)...)
	s.Arrays = append(s.Arrays, arrays(r.StructuredContent, "structuredContent", false)...)
	for i, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		t := bytes.TrimSpace([]byte(c.Text))
		if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
			s.Arrays = append(s.Arrays, arrays(t, fmt.Sprintf("content[%d]#", i), false)...)
		} else if s.Text == "" {
			s.Text = c.Text
			if len(s.Text) > 120 {
				s.Text = s.Text[:117] + "…"
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range content.PartialMarkers(result) {
		if i := strings.LastIndexByte(m[:strings.IndexByte(m+":", ':')], '.'); i >= 0 {
			m = m[i+1:]
		}
		if !seen[m] {
			seen[m] = true
			s.Partial = append(s.Partial, m)
		}
	}
	s.Digest = digest(withoutMeta(result))
	return s
}

// arrays lists the arrays among a JSON object's own members (or the value
// itself when it is an array). topLevel skips structuredContent, which is
// summarized on its own.
func arrays(raw []byte, path string, topLevel bool) []Array {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return nil
	}
	if t[0] == '[' {
		return []Array{count(strings.TrimSuffix(path, "#"), t)}
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []Array
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return out
		}
		v = bytes.TrimSpace(v)
		if len(v) == 0 || v[0] != '[' || topLevel && k == "structuredContent" {
			continue
		}
		p := k
		if path != "" && !strings.HasSuffix(path, "#") {
			p = path + "." + k
		} else if path != "" {
			p = path + k
		}
		out = append(out, count(p, v))
	}
	return out
}

func count(path string, raw []byte) Array {
	var items []json.RawMessage
	json.Unmarshal(raw, &items)
	a := Array{Path: path, N: len(items)}
	values := map[string]map[string]bool{}
	for _, it := range items {
		var m map[string]json.RawMessage
		if json.Unmarshal(it, &m) != nil {
			continue
		}
		for k, v := range m {
			var s string
			if json.Unmarshal(v, &s) != nil {
				continue
			}
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			if len(values[k]) <= 3 {
				values[k][s] = true
			}
		}
	}
	for k, set := range values {
		if len(set) > 3 {
			continue
		}
		if a.Fields == nil {
			a.Fields = map[string][]string{}
		}
		for s := range set {
			a.Fields[k] = append(a.Fields[k], s)
		}
		sort.Strings(a.Fields[k])
	}
	return a
}

func withoutMeta(result json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return result
	}
	delete(m, "_meta")
	b, _ := json.Marshal(m)
	return b
}

func digest(b []byte) string {
	sum := sha256.Sum256([]byte(canonical(b)))
	return hex.EncodeToString(sum[:8])
}

// rows are the arrays a reader cares about, one per name: structuredContent's
// first, then the text blocks', then the top level's (content, the blocks
// themselves, last).
func (s Summary) rows() []Array {
	var out []Array
	seen := map[string]bool{}
	for _, pass := range []func(Array) bool{
		func(a Array) bool { return strings.HasPrefix(a.Path, "structuredContent") },
		func(a Array) bool { return strings.HasPrefix(a.Path, "content[") },
		func(a Array) bool { return a.Path != "content" },
		func(a Array) bool { return true },
	} {
		for _, a := range s.Arrays {
			if pass(a) && !seen[a.Name()] {
				seen[a.Name()] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// primary is the array the result is mostly about (not its content
// blocks), or nil.
func (s Summary) primary() *Array {
	r := s.rows()
	for i := range r {
		if r[i].Path != "content" {
			return &r[i]
		}
	}
	return nil
}

// String is a one-line description: "orders 10 · PARTIAL (truncated: true) · 2.7 KB".
func (s Summary) String() string {
	var parts []string
	switch {
	case s.Code != 0:
		parts = append(parts, fmt.Sprintf("JSON-RPC error %d: %s", s.Code, s.Message))
	case s.IsError:
		parts = append(parts, "isError")
	}
	if p := s.primary(); p != nil {
		parts = append(parts, fmt.Sprintf("%s %d", p.Name(), p.N))
	}
	if len(s.Partial) > 0 {
		parts = append(parts, "PARTIAL ("+strings.Join(s.Partial, ", ")+")")
	}
	if s.Text != "" && (s.primary() == nil || s.IsError) {
		parts = append(parts, fmt.Sprintf("%q", s.Text))
	}
	parts = append(parts, frames.HumanSize(s.Size))
	return strings.Join(parts, " · ")
}

// short is the summary without sizes, to compare a recorded rendering with
// a live result: "orders 20 · PARTIAL (truncated: true)".
func (s Summary) short() string {
	t := s
	t.Size = -1
	out := t.String()
	return strings.TrimSuffix(out, " · "+frames.HumanSize(-1))
}
