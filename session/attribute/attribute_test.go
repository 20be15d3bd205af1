package attribute

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/peers"
)

func open(t *testing.T, target session.Target) *session.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: target})
	if err != nil {
		t.Fatalf("Open(%s): %v", target, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// recorded is the tools/call of an imported transcript at frame seq.
func recorded(t *testing.T, f *importer.File, seq int64) fixture.Call {
	t.Helper()
	for i := range f.Len() {
		if f.Frame(i).Seq == seq {
			c, err := fixture.RecordedCall(f.Reader, i)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	t.Fatalf("no frame #%d", seq)
	return fixture.Call{}
}

// TestSeedStory is the seed end to end: import the transcript of the two
// calls, attribute the second to the first against the demo server, and
// find the three single-variable effects the seed's analysis names.
func TestSeedStory(t *testing.T) {
	f, err := importer.Open("../../frames/importer/testdata/seed.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := recorded(t, f, 2), recorded(t, f, 4)
	plan, err := NewPlan("search_orders", a.Arguments, b.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Vars) != 3 || !plan.Exhaustive || len(plan.Points) != 8 || len(plan.Orders()) != 6 {
		t.Fatalf("plan: %d vars, exhaustive %v, %d points, %d orders; want 3, every subset (8), all 6 orders", len(plan.Vars), plan.Exhaustive, len(plan.Points), len(plan.Orders()))
	}
	s := open(t, session.Target{Transport: session.TransportDemo, Release: 1})
	var seen []int
	run, err := Execute(ctx(t), s, plan, func(st *Step) { seen = append(seen, st.Point) })
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 8 || run.Failed() != nil {
		t.Fatalf("steps %v, failed %v: want all 8 told and answered", seen, run.Failed())
	}
	// Every step is one frame pair of its own, with exactly its arguments.
	for _, st := range run.Steps {
		var req struct {
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		json.Unmarshal(st.Exchange.Request.Raw, &req)
		if got, want := compact(req.Params.Arguments), compact(plan.Points[st.Point].Arguments); got != want {
			t.Errorf("step %d sent %s, want %s", st.Point+1, got, want)
		}
	}
	ends := map[string]string{}
	for _, st := range run.Steps {
		ends[plan.Points[st.Point].Label(3)] = st.Summary.String()
	}
	if !strings.HasPrefix(ends["A"], "orders 0 · ") || !strings.HasPrefix(ends["B"], "orders 20 · PARTIAL (truncated: true)") {
		t.Errorf("the transcript's two calls must come out as it says: A %q, B %q", ends["A"], ends["B"])
	}

	byVar := map[string]Finding{}
	for _, fd := range run.Analyze() {
		byVar[fd.Var.Name] = fd
	}
	for name, want := range map[string]string{
		"since":    "since alone moves the result: orders 0 → 10, PARTIAL (truncated: true)",
		"customer": `customer alone changes nothing; it acts only after since: orders 10 → 10, other rows: customer_name "Acme Corp" → "acme"`,
		"limit":    "limit alone changes nothing; it acts only after since: orders 10 → 20, truncated: true stays, 20 of the 500 asked for: a cap of 20, said only by truncated: true",
	} {
		if got := byVar[name].Sentence; !strings.HasPrefix(got, want) {
			t.Errorf("%s:\n got  %s\n want %s…", name, got, want)
		}
	}
	if got := byVar["customer"].Sentence; !strings.Contains(got, `each row's customer_name is "acme", exactly as written: an exact match`) {
		t.Errorf("customer: the exact match is not said: %s", got)
	}
	report := strings.Join(run.Lines(End{Label: "seed.json#2"}, End{Label: "seed.json#4"}), "\n")
	for _, want := range []string{
		`3 arguments differ: customer ("Acme Corp" → "acme"), since ("last month" → "2026-01-01"), limit (absent → 500)`,
		"8 calls, one argument changed at a time, everything else held still: every order of the 3 changes (6 paths)",
		"since → customer → limit",
		"orders 0 → 10* → 10* → 20*",
		"customer → limit → since",
		"orders 0 → 0 → 0 → 20*",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

// TestServerFailsMidRun: the finished steps stay, the failed one is named.
func TestServerFailsMidRun(t *testing.T) {
	plan, err := NewPlan("search_orders", json.RawMessage(`{"customer":"Acme Corp","since":"last month"}`), json.RawMessage(`{"customer":"acme","since":"2026-01-01"}`))
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, session.Target{Transport: session.TransportDemo, Release: 1})
	c, cancel := context.WithCancel(ctx(t))
	run, err := Execute(c, s, plan, func(st *Step) {
		if st.Point == 1 {
			s.Close() // the server goes away after the second step
		}
	})
	cancel()
	if err == nil || !strings.HasPrefix(err.Error(), "step 3 (") {
		t.Fatalf("err = %v, want step 3 named", err)
	}
	if len(run.Steps) != 3 || !run.Steps[0].Answered() || !run.Steps[1].Answered() || run.Failed() != run.Steps[2] {
		t.Fatalf("steps %d: want two answered and the third failed", len(run.Steps))
	}
	report := strings.Join(run.Lines(End{Label: "a"}, End{Label: "b"}), "\n")
	for _, want := range []string{"the server stopped answering at step 3", "the 2 steps before it are kept below; 1 were not run", "FAILED:", "not run"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

func TestPlan(t *testing.T) {
	p, err := NewPlan("t", json.RawMessage(`{"a": 1, "keep": "x", "gone": true}`), json.RawMessage(`{"keep":"x","a":2.0e0,"new":[1, 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pt := range p.Points {
		got = append(got, pt.Label(len(p.Vars))+" "+string(pt.Arguments))
	}
	want := []string{
		`A {"a":1,"keep":"x","gone":true}`,
		`a {"a":2.0e0,"keep":"x","gone":true}`,
		`gone {"a":1,"keep":"x"}`,
		`new {"a":1,"keep":"x","gone":true,"new":[1, 2]}`,
		`a + gone {"a":2.0e0,"keep":"x"}`,
		`a + new {"a":2.0e0,"keep":"x","gone":true,"new":[1, 2]}`,
		`gone + new {"a":1,"keep":"x","new":[1, 2]}`,
		`B {"a":2.0e0,"keep":"x","new":[1, 2]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 1 and 1.0 are one value: not a variable.
	if p, _ := NewPlan("t", json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":1.0}`)); len(p.Vars) != 0 || len(p.Points) != 1 {
		t.Errorf("1 and 1.0: %d vars, %d points", len(p.Vars), len(p.Points))
	}
	// Beyond four, each alone from A, then B.
	p, _ = NewPlan("t", json.RawMessage(`{"a":1,"b":1,"c":1,"d":1,"e":1}`), json.RawMessage(`{"a":2,"b":2,"c":2,"d":2,"e":2}`))
	if p.Exhaustive || len(p.Points) != 7 || p.Orders() != nil {
		t.Errorf("5 vars: exhaustive %v, %d points; want A, 5 alone, B", p.Exhaustive, len(p.Points))
	}
	for _, bad := range []string{`"Acme Corp"`, `[1]`, `{"a":`} {
		if _, err := NewPlan("t", json.RawMessage(bad), json.RawMessage(`{}`)); err == nil || !strings.HasPrefix(err.Error(), "the first call's arguments are") {
			t.Errorf("NewPlan(%s): %v", bad, err)
		}
	}
}

func TestCompare(t *testing.T) {
	sum := func(result string) Summary { return Summarize(json.RawMessage(result), nil) }
	empty := sum(`{"content":[{"type":"text","text":"{\"orders\":[],\"truncated\":false}"}],"structuredContent":{"orders":[],"truncated":false}}`)
	ten := sum(`{"content":[],"structuredContent":{"orders":[{"id":"1","c":"A"},{"id":"2","c":"A"}],"truncated":true}}`)
	other := sum(`{"content":[],"structuredContent":{"orders":[{"id":"3","c":"B"},{"id":"4","c":"B"}],"truncated":true}}`)
	errored := sum(`{"content":[{"type":"text","text":"no order with id \"1042\""}],"isError":true}`)
	rpc := Summarize(nil, json.RawMessage(`{"code":-32602,"message":"invalid params"}`))
	for _, tt := range []struct {
		from, to Summary
		want     string
	}{
		{empty, empty, "no change"},
		{empty, ten, "orders 0 → 2, PARTIAL (truncated: true)"},
		{ten, other, `orders 2 → 2, other rows: c "A" → "B"`},
		{ten, errored, "isError false → true, orders 2 → 0, no longer partial"},
		{empty, rpc, "JSON-RPC error -32602 (invalid params)"},
		{errored, sum(`{"content":[{"type":"text","text":"no order with id \"1043\""}],"isError":true}`), `text "no order with id \"1042\"" → "no order with id \"1043\""`},
	} {
		if got := Compare(tt.from, tt.to).String(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("Compare(%s → %s) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
	if got := errored.String(); got != `isError · "no order with id \"1042\"" · 79 B` {
		t.Errorf("errored.String() = %q", got)
	}
}

// Against server-everything: the model wrote a as the string "2" and moved
// b at the same time. Alone, a's change makes an error and b's changes the
// sum; after a's, b's changes nothing: the error hides it.
func TestServerEverythingGetSum(t *testing.T) {
	f, err := importer.Open("../../frames/importer/testdata/everything-get-sum.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := recorded(t, f, 2), recorded(t, f, 4)
	s := open(t, session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")})
	_, tools, err := s.ListTools(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	m := importer.MatchTool(a.Name, names)
	if m.Name != "get-sum" {
		t.Fatalf("MatchTool(%s) = %+v", a.Name, m)
	}
	plan, err := NewPlan(m.Name, a.Arguments, b.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	run, err := Execute(ctx(t), s, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	byVar := map[string]Finding{}
	for _, fd := range run.Analyze() {
		byVar[fd.Var.Name] = fd
	}
	if got := byVar["a"].Sentence; !strings.HasPrefix(got, `a alone moves the result: isError false → true, text "The sum of 2 and 3 is 5." → "MCP error -32602`) {
		t.Errorf("a: %s", got)
	}
	if got := byVar["b"].Sentence; !strings.HasPrefix(got, `b alone moves the result (text "The sum of 2 and 3 is 5." → "The sum of 2 and 40 is 42."), and what it does depends on a`) {
		t.Errorf("b: %s", got)
	}
	if !byVar["b"].Interacts() || byVar["a"].Interacts() {
		t.Errorf("interacts: a %v, b %v; want only b's effect to depend on the other", byVar["a"].Interacts(), byVar["b"].Interacts())
	}
	report := strings.Join(run.Lines(End{Label: "A"}, End{Label: "B"}), "\n")
	if !strings.Contains(report, "  b after a: no change") {
		t.Errorf("the report does not say b changes nothing after a:\n%s", report)
	}
}
