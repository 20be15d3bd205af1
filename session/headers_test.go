package session

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// The 2026-07-28 era mirrors the method and the name a request acts on into
// Mcp-Method and Mcp-Name on every POST, and a tool's x-mcp-header
// parameters into Mcp-Param-* (base64 sentinel for what a header cannot
// carry). The go-sdk's conformance server validates them against the body
// and refuses a mismatch with HeaderMismatch (-32020).
func TestStatelessHTTPHeaders(t *testing.T) {
	bin := peers.Path(t, peers.GoSDKConformance)
	addr := startPeer(t, func(addr string) []string { return []string{bin, "-http", addr} })
	s := open(t, Options{Target: Target{Transport: TransportStreamable, URL: "http://" + addr}, ProtocolVersion: "2026-07-28"})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx(t), "test_x_mcp_header", json.RawMessage(`{"region":"eu-wést 1","level":3}`))
	if err != nil || isErrorResult(ex.Result) {
		t.Fatalf("test_x_mcp_header: %s, %v\n%s", ex.Result, err, frameText(s.Log))
	}
	h := http.Header(ex.Request.HTTP.Headers)
	if h.Get("Mcp-Method") != "tools/call" || h.Get("Mcp-Name") != "test_x_mcp_header" {
		t.Errorf("tools/call headers: Mcp-Method %q, Mcp-Name %q", h.Get("Mcp-Method"), h.Get("Mcp-Name"))
	}
	if r := h.Get("Mcp-Param-Region"); !strings.HasPrefix(r, "=?base64?") {
		t.Errorf("Mcp-Param-Region %q, want the base64 sentinel for a non-ASCII value", r)
	}
	if h.Get("Mcp-Param-Level") != "" {
		t.Errorf("a parameter without x-mcp-header was mirrored: %v", h)
	}
	resources, err := s.ListResources(ctx(t))
	if err != nil || len(resources) == 0 {
		t.Fatalf("resources: %d, %v", len(resources), err)
	}
	var r struct{ URI string }
	json.Unmarshal(resources[0], &r)
	rex, err := s.ReadResource(ctx(t), r.URI)
	if err != nil {
		t.Fatalf("resources/read %s: %v", r.URI, err)
	}
	if h := http.Header(rex.Request.HTTP.Headers); h.Get("Mcp-Method") != "resources/read" || h.Get("Mcp-Name") != r.URI {
		t.Errorf("resources/read headers %v, want Mcp-Name %s", h, r.URI)
	}
	for _, f := range s.Log.Frames() {
		if f.Dir == frames.ClientToServer && f.HTTP != nil && f.Kind.IsMessage() && http.Header(f.HTTP.Headers).Get("Mcp-Method") != f.Method {
			t.Errorf("frame #%d %s: Mcp-Method %q", f.Seq, f.Method, http.Header(f.HTTP.Headers).Get("Mcp-Method"))
		}
	}
}
