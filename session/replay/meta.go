package replay

import (
	"bytes"
	"encoding/json"
	"strings"
)

// reservedMeta is the _meta key prefix the protocol itself writes. Under
// 2026-07-28 a go-sdk server copies its server info into the _meta of every
// result ("io.modelcontextprotocol/serverInfo"), so a new server version would
// otherwise show up as a changed value in every response, and a fixture pinned
// in one era would differ from a replay in another.
const reservedMeta = "io.modelcontextprotocol/"

// withoutProtocolMeta returns result without what the protocol, rather than
// the tool, put in it: reserved _meta keys (and _meta itself when nothing
// else is left) and a resultType of "complete", which only says "this is not
// a multi-round-trip result" in the stateless era. Everything else, including
// the order of keys and the bytes of every kept value, is unchanged, so
// cosmetic differences are still seen as cosmetic.
//
// The fixture on disk keeps the response exactly as received; this view is
// used only for the comparison.
func withoutProtocolMeta(result json.RawMessage) json.RawMessage {
	if !bytes.Contains(result, []byte(`"_meta"`)) && !bytes.Contains(result, []byte(`"resultType"`)) {
		return result
	}
	out, changed := filterObject(result, func(key string, val json.RawMessage) (json.RawMessage, bool) {
		switch key {
		case "resultType":
			return val, string(bytes.TrimSpace(val)) != `"complete"`
		case "_meta":
			meta, _ := filterObject(val, func(k string, v json.RawMessage) (json.RawMessage, bool) {
				return v, !strings.HasPrefix(k, reservedMeta)
			})
			var m map[string]json.RawMessage
			if json.Unmarshal(meta, &m) == nil && len(m) == 0 {
				return nil, false
			}
			return meta, true
		}
		return val, true
	})
	if !changed {
		return result
	}
	return out
}

// filterObject rebuilds a JSON object from the members keep retains, in their
// original order and with their original bytes. It reports whether anything
// changed; a value that is not an object comes back as it was.
func filterObject(obj json.RawMessage, keep func(key string, val json.RawMessage) (json.RawMessage, bool)) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return obj, false
	}
	var b bytes.Buffer
	b.WriteByte('{')
	changed, n := false, 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return obj, false
		}
		key, _ := t.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return obj, false
		}
		nv, ok := keep(key, val)
		if !ok {
			changed = true
			continue
		}
		if !bytes.Equal(nv, val) {
			changed = true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(nv)
		n++
	}
	b.WriteByte('}')
	return b.Bytes(), changed
}
