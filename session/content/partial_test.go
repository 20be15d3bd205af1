package content

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPartialMarkers(t *testing.T) {
	tests := []struct {
		result string
		want   string
	}{
		{`{"content":[],"structuredContent":{"orders":[],"truncated":true}}`, "structuredContent.truncated: true"},
		{`{"content":[{"type":"text","text":"{\"hasMore\":true,\"items\":[]}"}]}`, "content[0].hasMore: true"},
		{`{"content":[],"nextCursor":"abc"}`, "nextCursor: abc"},
		{`{"content":[],"structuredContent":{"truncated":false,"nextCursor":""}}`, ""},
		{`{"content":[{"type":"text","text":"truncated: true, but not JSON"}]}`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		got := strings.Join(PartialMarkers(json.RawMessage(tt.result)), "; ")
		if got != tt.want {
			t.Errorf("PartialMarkers(%s) = %q, want %q", tt.result, got, tt.want)
		}
	}
}
