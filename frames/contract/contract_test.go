package contract

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
)

// TestParseErrors: a contracts file jig cannot use names the file, the
// tool and the rule, and says what to write.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, file, data, want string
	}{
		{"unknown rule", "c.json", `{"tools":{"search_orders":{"rules":[{"rule":"iso-8601","path":"/a"}]}}}`,
			`contracts c.json: tools.search_orders.rules[0] (rule iso-8601): rule "iso-8601" is unknown (want one of`},
		{"no rule", "c.json", `{"tools":{"t":{"rules":[{"path":"/a"}]}}}`, `tools.t.rules[0]: has no "rule"`},
		{"bad value", "c.json", `{"tools":{"t":{"rules":[{"rule":"max-age","path":"/a","value":"soon"}]}}}`, `tools.t.rules[0] (rule max-age): value "soon" is not a positive duration`},
		{"invalid schema", "c.json", `{"tools":{"t":{"structured_content":{"type":"strong"}}}}`, `contracts c.json: tools.t.structured_content: invalid JSON Schema`},
		{"unknown field", "c.json", `{"tools":{"t":{"rulez":[]}}}`, `unknown field "rulez"`},
		{"no tools", "c.json", `{}`, `tools: is missing or empty`},
		{"not json", "c.json", `{"tools":`, `contracts c.json: not valid JSON`},
		{"bad yaml", "c.yaml", "tools:\n  t: [\n", `contracts c.yaml: not valid YAML`},
		{"yaml unknown rule", "c.yml", "tools:\n  t:\n    rules:\n      - rule: nope\n", `tools.t.rules[0] (rule nope): rule "nope" is unknown`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.file, []byte(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse = %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func TestParseYAMLAndJSONAgree(t *testing.T) {
	js := `{"output_schema": false, "tools": {"search_orders": {"rules": [{"rule": "range", "path": "/structuredContent/orders/*/total", "value": {"min": 1}}]}}}`
	ya := "output_schema: false\ntools:\n  search_orders:\n    rules:\n      - rule: range\n        path: /structuredContent/orders/*/total\n        value: {min: 1}\n"
	a, err := Parse("a.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.yaml", []byte(ya))
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := a.Tools["search_orders"].Rules[0], b.Tools["search_orders"].Rules[0]
	if a.OutputSchema || b.OutputSchema || ra.Rule != rb.Rule || ra.Path != rb.Path || string(mustCompact(ra.Value)) != string(mustCompact(rb.Value)) {
		t.Errorf("JSON gave %+v %v, YAML %+v %v", ra, a.OutputSchema, rb, b.OutputSchema)
	}
}

func mustCompact(b []byte) []byte { c, _ := frames.Compact(b); return c }

// session builds a session's frames as a capture would: a tools/list, then
// calls, each response time-stamped.
type session struct {
	log *frames.Log
	id  int
}

func newSession(t *testing.T, tools string) *session {
	s := &session{log: frames.NewLog(func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) })}
	s.exchange(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":%d,"result":{"tools":`+tools+`}}`)
	return s
}

func (s *session) exchange(req, resp string) {
	s.id++
	s.log.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(strings.ReplaceAll(req, "%d", itoa(s.id)))})
	s.log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(strings.ReplaceAll(resp, "%d", itoa(s.id)))})
}

func (s *session) call(tool, result string) {
	s.exchange(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`, `{"jsonrpc":"2.0","id":%d,"result":`+result+`}`)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

const ordersTool = `[{"name":"search_orders","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"orders":{"type":"array","items":{"type":"object","properties":{"placed_at":{"type":"string","format":"date-time"}}}}},"required":["orders"]}},{"name":"echo","inputSchema":{"type":"object"}}]`

// TestCheckerNamesEveryViolation: each violation names the tool, the call,
// the path, the rule and the value; the tool's own outputSchema is checked
// by default; errors are counted, not held to the rules.
func TestCheckerNamesEveryViolation(t *testing.T) {
	c, err := Parse("c.json", []byte(`{"tools":{"search_orders":{"rules":[{"rule":"iso8601","path":"/structuredContent/orders/*/placed_at","note":"clients parse it"}]},"*":{"rules":[{"rule":"not-empty"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, ordersTool)
	s.call("search_orders", `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"orders":[{"placed_at":"2026-01-01T00:00:00Z"}]}}`)
	s.call("search_orders", `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"orders":[{"placed_at":1767225600}]}}`)
	s.call("echo", `{"content":[{"type":"text","text":""}]}`)
	s.call("search_orders", `{"content":[{"type":"text","text":"no such customer"}],"isError":true}`)
	s.exchange(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_orders"}}`, `{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad"}}`)
	s.call("search_orders", `{"content":[{"type":"text","text":"x"}]}`)
	k := NewChecker(c)
	var got []string
	for _, f := range s.log.Frames() {
		for _, v := range k.Add(f) {
			got = append(got, v.String())
		}
	}
	want := []string{
		`search_orders call id=3 (frame 6): /structuredContent/orders/0/placed_at: output-schema: got number, want string`,
		`search_orders call id=3 (frame 6): /structuredContent/orders/0/placed_at: iso8601: got the number 1767225600, not an ISO-8601 time: possible epoch regression (as Unix time it is 2026-01-01T00:00:00Z) (clients parse it)`,
		`echo call id=4 (frame 8): (result): not-empty: the result has no content and no structuredContent: an empty result (nothing came back: a cache miss or a failed lookup?)`,
		`search_orders call id=7 (frame 14): /structuredContent: output-schema: the tool declares an outputSchema and the result has no structuredContent`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := k.Counts; n.Calls != 6 || n.Errors != 1 || n.ToolErrors != 1 || n.Violating != 3 || n.Violations != 4 {
		t.Errorf("counts %+v, want 6 calls, 1 error, 1 tool error, 4 violations in 3 calls", n)
	}
}

// TestLiveNeverBlocks: a Live check with a full queue drops and counts
// frames instead of holding up the Log that feeds it.
func TestLiveNeverBlocks(t *testing.T) {
	c, _ := Parse("c.json", []byte(`{"tools":{"*":{"rules":[{"rule":"not-empty"}]}}}`))
	block := make(chan struct{})
	var seen []Violation
	l := NewLive(c, 8, func(v Violation) { <-block; seen = append(seen, v) }) // room for the first call; the rest overflow
	s := newSession(t, ordersTool)
	s.log.AddSink(l)
	for range 50 {
		s.call("echo", `{"content":[]}`) // every one a violation; the first report blocks
	}
	close(block)
	counts, dropped := l.Close()
	if dropped == 0 || counts.Calls+int(dropped) < 50 {
		t.Errorf("counts %+v, dropped %d: want frames dropped while the check was held up", counts, dropped)
	}
	if len(seen) == 0 {
		t.Error("no violation reported")
	}
}
