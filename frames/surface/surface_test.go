package surface

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
)

const (
	ordersTool = `{"name":"search_orders","description":"Find a customer's recent orders.","inputSchema":{"type":"object",` +
		`"properties":{"customer":{"type":"string"},"since":{"type":"string"},"limit":{"type":"integer"}},"required":["customer"]},` +
		`"annotations":{"readOnlyHint":true}}`
	cancelTool = `{"name":"cancel_order","description":"Cancel an order.","inputSchema":{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]},` +
		`"annotations":{"destructiveHint":true}}`
	envTool  = `{"name":"printEnv","description":"Print the environment.","inputSchema":{"type":"object","properties":{}}}`
	readme   = `{"uri":"demo://readme","name":"readme","mimeType":"text/plain"}`
	triage   = `{"name":"triage_report","arguments":[{"name":"customer","required":true},{"name":"symptom"}]}`
	template = `{"uriTemplate":"file:///{path}","name":"file"}`
)

func raws(items ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = json.RawMessage(it)
	}
	return out
}

func base() *Surface {
	return &Surface{Format: Format, Server: Server{Name: "demo", Version: "1.0.0"}, ProtocolVersion: "2025-11-25",
		Capabilities: json.RawMessage(`{"tools":{"listChanged":true},"resources":{}}`), Instructions: "Search orders.",
		Tools: raws(ordersTool, cancelTool, envTool), Resources: raws(readme), ResourceTemplates: raws(template), Prompts: raws(triage)}
}

func find(t *testing.T, d Diff, item string) Change {
	t.Helper()
	for _, c := range d.Changes {
		if c.Item == item {
			return c
		}
	}
	var b strings.Builder
	d.WriteText(&b, true)
	t.Fatalf("no change of %s:\n%s", item, b.String())
	return Change{}
}

func TestCompareIdenticalAndCosmetic(t *testing.T) {
	if d := Compare(base(), base()); len(d.Changes) != 0 || d.Unchanged != 8 {
		t.Errorf("identical surfaces: %d changes, %d unchanged; want 0 and 8 (6 items, capabilities, instructions)", len(d.Changes), d.Unchanged)
	}
	now := base()
	// Listed in another order, a schema spelled another way, keys moved:
	// the surface means the same.
	now.Tools = raws(envTool, strings.Replace(ordersTool, `"inputSchema":{"type":"object",`, `"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",`, 1),
		strings.Replace(cancelTool, `"description":"Cancel an order.","inputSchema"`, `"inputSchema"`, 1)[:0]+
			`{"description":"Cancel an order.","name":"cancel_order","inputSchema":{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]},"annotations":{"destructiveHint":true}}`)
	now.Capabilities = json.RawMessage(`{"resources":{},"tools":{"listChanged":true}}`)
	d := Compare(base(), now)
	if len(d.Changes) != 0 || len(d.Cosmetic) != 3 {
		var b strings.Builder
		d.WriteText(&b, true)
		t.Errorf("a reordered, respelled surface has changes:\n%s", b.String())
	}
}

// Every kind of change the issue names is there, classified once.
func TestCompareClassifies(t *testing.T) {
	now := base()
	now.Tools = raws(
		strings.NewReplacer(`"since":{"type":"string"}`, `"since":{"type":"string","format":"date"}`,
			`"required":["customer"]`, `"required":["customer","region"]`, `"properties":{`, `"properties":{"region":{"type":"string"},`,
			`"readOnlyHint":true`, `"readOnlyHint":false,"destructiveHint":true`).Replace(ordersTool),
		cancelTool,
		strings.Replace(envTool, `"printEnv"`, `"get-env"`, 1),
		`{"name":"delete_everything","inputSchema":{"type":"object"}}`)
	now.Resources = raws(strings.Replace(readme, "text/plain", "text/markdown", 1))
	now.Prompts = raws(strings.Replace(triage, `{"name":"symptom"}`, `{"name":"symptom","required":true}`, 1))
	now.Instructions = "Search orders. Always call list_customers first."
	now.Capabilities = json.RawMessage(`{"tools":{"listChanged":true}}`)
	now.Server.Version = "2.0.0"
	d := Compare(base(), now)

	c := find(t, d, "tool search_orders")
	classes := map[string]bool{}
	for _, x := range c.Differences {
		classes[x.Class] = true
	}
	for _, want := range []string{fixture.ClassConstraintTightened, fixture.ClassRequiredAdded, fixture.ClassArgumentAdded, fixture.ClassAnnotationFlipped} {
		if !classes[want] {
			t.Errorf("search_orders: no %s among %v", want, classes)
		}
	}
	if c.Severity != fixture.Breaking {
		t.Errorf("search_orders: %v, want breaking", c.Severity)
	}
	if c := find(t, d, "tool printEnv"); c.Kind != "removed" || c.RenamedTo != "get-env" {
		t.Errorf("printEnv: %+v, want removed, renamed to get-env", c)
	}
	if c := find(t, d, "tool get-env"); c.Kind != "added" || c.RenamedFrom != "printEnv" || c.Severity != fixture.Warn {
		t.Errorf("get-env: %+v, want added (warn), renamed from printEnv", c)
	}
	if c := find(t, d, "resource demo://readme"); c.Severity != fixture.Breaking {
		t.Errorf("a resource's mimeType changed: %v", c.Severity)
	}
	if c := find(t, d, "prompt triage_report"); c.Differences[0].Path != "/prompt/arguments/1/required" || c.Severity != fixture.Breaking ||
		c.Differences[0].Detail != `argument "symptom" is now required: prompts/get without it fails` {
		t.Errorf("prompt argument made required: %+v", c.Differences)
	}
	find(t, d, "instructions")
	if c := find(t, d, "capabilities"); c.Severity != fixture.Breaking {
		t.Errorf("a capability dropped: %v, want breaking", c.Severity)
	}
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0], `server version "1.0.0" → "2.0.0"`) {
		t.Errorf("notes = %q, want the version change as a note", d.Notes)
	}
	var b strings.Builder
	d.WriteText(&b, false)
	out := b.String()
	for _, want := range []string{
		`tool "search_orders" changed (breaking)`,
		`tool "printEnv" is no longer listed (renamed to "get-env"?) (breaking)`,
		`tool "delete_everything" is new (warn)`,
		`(format of "since" added: "date": calls valid before may now be rejected)`,
		`(newly required: "region": calls without it are now invalid)`,
		"8 changes (6 breaking, 2 warn)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, `tool "search_orders"`) != 1 {
		t.Errorf("one changed tool is one block:\n%s", out)
	}
}

// A prompt argument inserted before the others is one argument added, not
// every argument changed.
func TestPromptArgumentsByName(t *testing.T) {
	now := base()
	now.Prompts = raws(strings.Replace(triage, `"arguments":[`, `"arguments":[{"name":"region"},`, 1))
	c := find(t, Compare(base(), now), "prompt triage_report")
	if len(c.Differences) != 1 || c.Differences[0].Kind != fixture.KindAdded {
		t.Errorf("an argument inserted: %+v, want one addition", c.Differences)
	}
}

func TestAcceptOneItem(t *testing.T) {
	now := base()
	now.Tools = raws(strings.Replace(ordersTool, "recent orders.", "recent orders, exactly.", 1), cancelTool)
	now.Instructions = "Changed."
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	got, err := Accept(base(), now, []string{"tool search_orders"}, "the new wording is intended", at)
	if err != nil {
		t.Fatal(err)
	}
	d := Compare(got, now)
	if items := d.Items(); len(items) != 2 || items[0] != "tool printEnv" || items[1] != "instructions" {
		t.Errorf("after accepting search_orders the changes left are %q, want printEnv and instructions", items)
	}
	if len(got.History) != 1 || got.History[0].Reason != "the new wording is intended" || got.History[0].At != "2026-12-01T10:00:00Z" {
		t.Errorf("history = %+v", got.History)
	}
	if got, _ := Accept(got, now, d.Items(), "all of it", at); len(Compare(got, now).Changes) != 0 {
		t.Errorf("after accepting every change the surfaces still differ")
	}
	if _, err := Accept(base(), now, []string{"tool nope"}, "x", at); err == nil || !strings.Contains(err.Error(), "is not a change") {
		t.Errorf("accepting an unknown item: %v", err)
	}
	if _, err := Accept(base(), now, []string{"tool search_orders"}, " ", at); err == nil {
		t.Errorf("accepting without a reason succeeded")
	}
}

func TestFileRoundTripAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	s := base()
	s.Tools = raws(envTool, ordersTool, cancelTool)
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "surface.json")
	os.WriteFile(path, b, 0o600)
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if Identity(got.Tools[0], "name") != "cancel_order" || len(Compare(s, got).Changes) != 0 {
		t.Errorf("the file is not sorted by name or not the same surface: %s", b)
	}
	bad := map[string]string{
		"fixture.json": `{"format":2,"scenario":"x","request":{"method":"tools/call"}}`,
		"tools.json":   `{"tools":[]}`,
		"dup.json":     `{"jig_surface":1,"tools":[{"name":"a"},{"name":"a"}]}`,
		"noname.json":  `{"jig_surface":1,"tools":[{"description":"x"}]}`,
		"future.json":  `{"jig_surface":9,"tools":[]}`,
		"text.json":    `not json`,
	}
	want := map[string]string{"fixture.json": "looks like a fixture", "tools.json": "tools/list result", "dup.json": `"a" is listed twice`,
		"noname.json": `tools[0] has no "name"`, "future.json": "upgrade jig", "text.json": "not a JSON object"}
	for name, body := range bad {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), want[name]) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", name, err, want[name])
		}
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// bigSurface is a server of n tools with realistic schemas.
func bigSurface(n int, edit func(i int, tool string) string) *Surface {
	s := &Surface{Format: Format, Server: Server{Name: "big"}}
	for i := range n {
		tool := fmt.Sprintf(`{"name":"tool_%04d","title":"Tool %d","description":"Search the records of collection %d by name and date. At most 50 records are returned; truncated: true means more matched.",`+
			`"inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Exact name, case-sensitive."},`+
			`"since":{"type":"string","format":"date","description":"Earliest date, YYYY-MM-DD."},"limit":{"type":"integer","minimum":1,"maximum":50},`+
			`"status":{"type":"string","enum":["open","closed","archived"]}},"required":["name"],"additionalProperties":false},`+
			`"outputSchema":{"type":"object","properties":{"records":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"at":{"type":"string","format":"date-time"}}}},"truncated":{"type":"boolean"}}},`+
			`"annotations":{"readOnlyHint":true,"openWorldHint":false}}`, i, i, i)
		if edit != nil {
			tool = edit(i, tool)
		}
		s.Tools = append(s.Tools, json.RawMessage(tool))
	}
	return s
}

// BenchmarkDiff500 diffs two 500-tool surfaces in which every tenth tool
// changed (a description, a maximum, an enum value).
func BenchmarkDiff500(b *testing.B) {
	old := bigSurface(500, nil)
	now := bigSurface(500, func(i int, tool string) string {
		if i%10 != 0 {
			return tool
		}
		return strings.NewReplacer("At most 50", "At most 20", `"maximum":50`, `"maximum":20`, `"archived"]`, `"deleted"]`).Replace(tool)
	})
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		d := Compare(old, now)
		if len(d.Changes) != 50 {
			b.Fatalf("%d changes, want 50", len(d.Changes))
		}
	}
	// Wall time on a shared machine measures the neighbours too.
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
