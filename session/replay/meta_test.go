package replay

import (
	"encoding/json"
	"testing"

	"github.com/mcpjig/jig/session"
)

func TestWithoutProtocolMeta(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"server info in _meta goes, and _meta with it",
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"d","version":"2.0.0"}},"content":[],"resultType":"complete"}`,
			`{"content":[]}`},
		{"a tool's own _meta stays (negative)",
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{},"acme/trace":"t-1"},"content":[]}`,
			`{"_meta":{"acme/trace":"t-1"},"content":[]}`},
		{"a resultType other than complete stays (negative)",
			`{"resultType":"input_required","content":[]}`,
			`{"resultType":"input_required","content":[]}`},
		{"key order and value bytes are kept",
			`{"z": 1.0, "resultType":"complete", "a": {"b" : 2}}`,
			`{"z":1.0,"a":{"b" : 2}}`},
		{"nothing to strip: the same bytes",
			`{ "content" : [ ] }`,
			`{ "content" : [ ] }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(withoutProtocolMeta(json.RawMessage(tc.in))); got != tc.want {
				t.Errorf("withoutProtocolMeta(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// A fixture whose tool is no longer listed is reported obsolete.
func TestObsoleteFixture(t *testing.T) {
	dir := t.TempDir()
	r1 := session.Target{Transport: session.TransportDemo, Release: 1}
	c := load(t, pin(t, openSession(t, r1), r1, dir, "echo", "echo", `{"text":"hi"}`))
	f := c[0].Fixture
	f.Request.Params = json.RawMessage(`{"name":"retired_echo","arguments":{"text":"hi"}}`)
	f.Tool = json.RawMessage(`{"name":"retired_echo","inputSchema":{"type":"object"}}`)
	outs := Run(testCtx(t), c, Options{})
	if o := outs[0]; o.Err != nil || !o.Report.Obsolete || !o.Drifted() {
		t.Errorf("a fixture of an unlisted tool: err %v, obsolete %v; want obsolete drift", o.Err, o.Report.Obsolete)
	}
}
