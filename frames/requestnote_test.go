package frames

import (
	"net/http/httptest"
	"testing"
)

func TestRequestNote(t *testing.T) {
	resume := httptest.NewRequest("GET", "/mcp", nil)
	resume.Header.Set("Last-Event-ID", "ev-7")
	tests := []struct {
		name string
		req  func() string
		want string
	}{
		{"open", func() string { return RequestNote(httptest.NewRequest("GET", "/mcp", nil)) }, "GET: opening the event stream"},
		{"resume", func() string { return RequestNote(resume) }, "GET: reopening the event stream after event ev-7"},
		{"delete", func() string { return RequestNote(httptest.NewRequest("DELETE", "/mcp", nil)) }, "DELETE: ending the session"},
		{"other", func() string { return RequestNote(httptest.NewRequest("PUT", "/mcp", nil)) }, "PUT"},
	}
	for _, tt := range tests {
		if got := tt.req(); got != tt.want {
			t.Errorf("%s: RequestNote = %q, want %q", tt.name, got, tt.want)
		}
	}
}
