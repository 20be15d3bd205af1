package session

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpjig/jig/frames"
)

// The go-sdk answers a list call from its own TTL cache when the server gave
// the last answer a positive ttlMs (2026-07-28), keyed only by cursor and
// with no way to bypass it: an inspector's refresh would show the old list
// without asking. jig hands the SDK every result with its ttlMs at 0, so each
// list goes to the wire; the frames keep the ttlMs the server sent, and
// CacheHint reads it from there.

// uncachedResult returns a result with a positive top-level ttlMs set to 0,
// and whether it changed it.
func uncachedResult(result json.RawMessage) (json.RawMessage, bool) {
	if !bytes.Contains(result, []byte(`"ttlMs"`)) || !positiveTTL(result) {
		return result, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return result, false
	}
	var ttl float64
	if v, ok := m["ttlMs"]; !ok || json.Unmarshal(v, &ttl) != nil || ttl <= 0 {
		return result, false
	}
	m["ttlMs"] = json.RawMessage("0")
	out, err := json.Marshal(m)
	if err != nil {
		return result, false
	}
	return out, true
}

// positiveTTL reports whether result may be an object whose top-level
// ttlMs (the last, as a map keeps it) is a positive number, in a scan that
// decodes nothing: false only when it is not (no ttlMs, 0, a negative
// number, not a number, or not one valid object), so the decoding above
// runs only for the results it changes.
func positiveTTL(result []byte) bool {
	var ttl []byte
	if !frames.Fields(result, func(key string, val []byte) {
		if key == "ttlMs" {
			ttl = val
		}
	}) || ttl == nil {
		return false
	}
	return ttl[0] >= '0' && ttl[0] <= '9' && string(ttl) != "0"
}

// uncachedBody is uncachedResult for a whole JSON-RPC response body.
func uncachedBody(body []byte) []byte {
	if !bytes.Contains(body, []byte(`"ttlMs"`)) {
		return body
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m["result"] == nil {
		return body
	}
	r, changed := uncachedResult(m["result"])
	if !changed {
		return body
	}
	m["result"] = r
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}

// Read hands the SDK each response with its ttlMs at 0 (stdio and the demo
// server; the HTTP tap does the same for HTTP).
func (c idConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result != nil {
		r.Result, _ = uncachedResult(r.Result)
	}
	return msg, err
}

var ttlField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"ttlMs"\s*:\s*([1-9][0-9]*)`) })

// zeroTTL sets every positive "ttlMs" in b to 0 in place, padding with
// spaces so the length holds (an event stream is passed on as it is read).
// A nested "ttlMs" inside a result's content changes too, for the SDK only:
// jig reads results from the frames. A field split across two reads is left
// as it is, and that one answer may be cached.
func zeroTTL(b []byte) {
	if !bytes.Contains(b, []byte(`"ttlMs"`)) {
		return
	}
	for _, m := range ttlField().FindAllSubmatchIndex(b, -1) {
		b[m[2]] = '0'
		for i := m[2] + 1; i < m[3]; i++ {
			b[i] = ' '
		}
	}
}

// CacheHint is what the server said of a result's freshness (2026-07-28):
// "ttlMs 60000 · cacheScope private", or "" when it said nothing.
func CacheHint(result json.RawMessage) string {
	r, ok := cacheMembers(result)
	if !ok || (r.TTLMs == nil && r.CacheScope == "") {
		return ""
	}
	var parts []string
	if r.TTLMs != nil {
		b, _ := json.Marshal(*r.TTLMs)
		parts = append(parts, "ttlMs "+string(b))
	}
	if r.CacheScope != "" {
		parts = append(parts, "cacheScope "+r.CacheScope)
	}
	return joinDot(parts)
}

func joinDot(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += " · "
		}
		out += p
	}
	return out
}

// ListCacheHint is the CacheHint of the last answer to method (tools/list,
// resources/list, ...) in the session's frames, as the server sent it.
func (s *Session) ListCacheHint(method string) string {
	for i := s.Log.Len() - 1; i >= 0; i-- {
		f := s.Log.Frame(i)
		if f.Dir != frames.ClientToServer || f.Kind != frames.KindRequest || f.Method != method {
			continue
		}
		j := s.Log.Partner(i)
		if j < 0 {
			return ""
		}
		result, _ := responseMembers(s.Log.Frame(j).Raw)
		return CacheHint(result)
	}
	return ""
}
