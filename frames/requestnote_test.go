package frames

import (
	"net/http"
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

// The frame shows the status code; the note says the reason phrase once,
// the standard one when the server sent none ("HTTP/1.1 200 " was shown
// as "HTTP 200 — 200 : event stream opened").
func TestStatusNote(t *testing.T) {
	for _, tc := range []struct {
		status string
		code   int
		what   string
		want   string
	}{
		{"200 OK", 200, "event stream opened", "OK: event stream opened"},
		{"200 ", 200, "event stream opened", "OK: event stream opened"},
		{"200", 200, "event stream opened", "OK: event stream opened"},
		{"202 Accepted", 202, "", "Accepted"},
		{"404 Nope", 404, "session not found", "Nope: session not found"},
		{"599 ", 599, "odd", "odd"},
	} {
		resp := &http.Response{Status: tc.status, StatusCode: tc.code}
		if got := StatusNote(resp, tc.what); got != tc.want {
			t.Errorf("StatusNote(%q, %q) = %q, want %q", tc.status, tc.what, got, tc.want)
		}
	}
}
