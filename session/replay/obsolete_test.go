package replay

import (
	"encoding/json"
	"testing"

	"github.com/mcpjig/jig/session"
)

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
