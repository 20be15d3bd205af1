package session

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// partialKeys are the members by which a result says it is not the whole
// answer: flags first, then cursors.
var (
	partialFlagKeys   = []string{"truncated", "hasMore", "has_more", "partial", "incomplete"}
	partialCursorKeys = []string{"nextCursor", "next_cursor", "cursor"}
)

// PartialMarkers lists where a tools/call result says it is partial — a
// truncated flag, hasMore, a next cursor — at the result's top level, in
// structuredContent, or in JSON carried by a text block, as
// "structuredContent.truncated: true". The seed transcript's agent read a
// truncated set as complete; jig flags it wherever the server said so.
func PartialMarkers(result json.RawMessage) []string {
	var r struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	out := markers(result, "")
	out = append(out, markers(r.StructuredContent, "structuredContent.")...)
	for i, c := range r.Content {
		if c.Type == "text" {
			out = append(out, markers([]byte(c.Text), fmt.Sprintf("content[%d].", i))...)
		}
	}
	return out
}

// markers finds the partial markers among a JSON object's own members.
func markers(v []byte, prefix string) []string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return nil
	}
	// A cheap look before the parse: most results name none of the markers.
	found := false
	for _, k := range append(partialFlagKeys, partialCursorKeys...) {
		found = found || bytes.Contains(t, []byte(`"`+k+`"`))
	}
	if !found {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return nil
	}
	var out []string
	for _, k := range partialFlagKeys {
		if string(bytes.TrimSpace(m[k])) == "true" {
			out = append(out, prefix+k+": true")
		}
	}
	for _, k := range partialCursorKeys {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			out = append(out, prefix+k+": "+s)
		}
	}
	return out
}
