package demo

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveEnv makes the test binary act as the demo server over stdio (the SDK's
// own trick), so that ServeStdio is tested in a real child process.
const serveEnv = "JIG_DEMO_TEST_SERVE_RELEASE"

func TestMain(m *testing.M) {
	if r := os.Getenv(serveEnv); r != "" {
		release, err := strconv.Atoi(r)
		if err == nil {
			err = ServeStdio(context.Background(), release)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// eras are the protocol versions the tests connect with: "" lets the client
// open with server/discover (2026-07-28); the others use initialize.
var eras = []struct {
	name, request, want string
}{
	{"stateless", "", "2026-07-28"},
	{"legacy-2025-11-25", "2025-11-25", "2025-11-25"},
	{"legacy-2024-11-05", "2024-11-05", "2024-11-05"},
}

// connect starts the given release of the demo server and connects a real SDK
// client to it over in-memory transports.
func connect(t *testing.T, release int, protocolVersion string) *mcp.ClientSession {
	t.Helper()
	s, err := New(release)
	if err != nil {
		t.Fatalf("New(%d): %v", release, err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, nil)
	cs, err := c.Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		t.Fatalf("client Connect (protocol version %q): %v", protocolVersion, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s %v: protocol error: %v", name, args, err)
	}
	return res
}

// text returns the single text block of a result.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d content blocks, want 1: %+v", len(res.Content), res.Content)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// structured decodes a successful result's structuredContent into out, and
// checks that the text block carries the same JSON value.
func structured(t *testing.T, res *mcp.CallToolResult, out any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("result is an error: %s", text(t, res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	var fromStructured, fromText any
	json.Unmarshal(b, &fromStructured)
	if err := json.Unmarshal([]byte(text(t, res)), &fromText); err != nil {
		t.Fatalf("text block is not JSON: %v", err)
	}
	if diff := cmp.Diff(fromStructured, fromText); diff != "" {
		t.Errorf("text block and structuredContent disagree (-structured +text):\n%s", diff)
	}
}

type searchResult struct {
	Orders    []map[string]any `json:"orders"`
	Count     int              `json:"count"`
	Truncated bool             `json:"truncated"`
}

func (r searchResult) ids() []string {
	var ids []string
	for _, o := range r.Orders {
		ids = append(ids, o["id"].(string))
	}
	return ids
}

func search(t *testing.T, cs *mcp.ClientSession, args map[string]any) searchResult {
	t.Helper()
	var r searchResult
	structured(t, call(t, cs, "search_orders", args), &r)
	if r.Count != len(r.Orders) {
		t.Errorf("search_orders %v: count is %d but %d orders came back", args, r.Count, len(r.Orders))
	}
	return r
}

func TestNewRejectsUnknownReleases(t *testing.T) {
	for _, release := range []int{0, 4, -1} {
		s, err := New(release)
		if err == nil || s != nil {
			t.Errorf("New(%d) = %v, %v; want nil and an error", release, s, err)
			continue
		}
		if !strings.Contains(err.Error(), "1, 2, 3") {
			t.Errorf("New(%d) error %q does not name the valid releases 1, 2, 3", release, err)
		}
	}
}

func TestServesBothEras(t *testing.T) {
	wantTools := []string{"cancel_order", "echo", "get_report", "revenue_by_day", "search_order", "search_orders"}
	for _, release := range []int{1, 2} {
		for _, era := range eras {
			t.Run(fmt.Sprintf("release%d/%s", release, era.name), func(t *testing.T) {
				cs := connect(t, release, era.request)
				init := cs.InitializeResult()
				if init.ProtocolVersion != era.want {
					t.Errorf("negotiated protocol version %q, want %q", init.ProtocolVersion, era.want)
				}
				wantInfo := &mcp.Implementation{Name: Name, Version: fmt.Sprintf("%d.0.0", release)}
				if diff := cmp.Diff(wantInfo, init.ServerInfo); diff != "" {
					t.Errorf("server info (-want +got):\n%s", diff)
				}
				if init.Instructions != instructions {
					t.Errorf("instructions = %q, want %q", init.Instructions, instructions)
				}
				if c := init.Capabilities; c == nil || c.Tools == nil || c.Resources == nil || c.Prompts == nil || c.Logging != nil {
					t.Errorf("capabilities = %+v, want tools, resources and prompts, and no logging", c)
				}

				var names []string
				for tool, err := range cs.Tools(t.Context(), nil) {
					if err != nil {
						t.Fatalf("tools/list: %v", err)
					}
					names = append(names, tool.Name)
				}
				if diff := cmp.Diff(wantTools, names); diff != "" {
					t.Errorf("tools/list names (-want +got):\n%s", diff)
				}

				resources, err := cs.ListResources(t.Context(), nil)
				if err != nil || len(resources.Resources) != 1 || resources.Resources[0].URI != readmeURI {
					t.Errorf("resources/list = %+v, %v; want the one resource %s", resources, err, readmeURI)
				}
				prompts, err := cs.ListPrompts(t.Context(), nil)
				if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "triage_report" {
					t.Errorf("prompts/list = %+v, %v; want the one prompt triage_report", prompts, err)
				}
				if got := text(t, call(t, cs, "echo", map[string]any{"text": "hi there"})); got != "hi there" {
					t.Errorf("echo returned %q, want %q", got, "hi there")
				}
			})
		}
	}
}

// TestStatelessResultsCarryServerInfo pins down an SDK behaviour fixture
// diffs must allow for: under 2026-07-28 every result's _meta names the
// server, version included, and under initialize no result does.
func TestStatelessResultsCarryServerInfo(t *testing.T) {
	const key = "io.modelcontextprotocol/serverInfo"
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			res := call(t, connect(t, 2, era.request), "echo", map[string]any{"text": "x"})
			info, ok := res.Meta[key]
			if stateless := era.request == ""; ok != stateless {
				t.Fatalf("result _meta = %v: has %s = %v, want %v", res.Meta, key, ok, stateless)
			}
			if ok && !strings.Contains(fmt.Sprint(info), "2.0.0") {
				t.Errorf("_meta[%s] = %v, want the release 2 version 2.0.0", key, info)
			}
		})
	}
}

// TestSeedStory makes the transcript's two calls, which must come out as the
// transcript says, then the controlled ones that separate its three causes,
// one argument changed at a time.
func TestSeedStory(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connect(t, 1, era.request)
			check := func(args map[string]any, count int, truncated bool, customer, why string) searchResult {
				t.Helper()
				r := search(t, cs, args)
				if r.Count != count || r.Truncated != truncated || len(r.Orders) != count {
					t.Errorf("search_orders %v: got %d orders (count %d, truncated %v), want %d, truncated %v: %s",
						args, len(r.Orders), r.Count, r.Truncated, count, truncated, why)
				}
				for _, o := range r.Orders {
					if o["customer_name"] != customer || o["placed_at"].(string) < "2026-01-01" {
						t.Errorf("search_orders %v returned %v, want only %s's orders since 2026-01-01", args, o, customer)
					}
				}
				return r
			}

			// The transcript's first call: an unparsable since silently matches nothing.
			check(map[string]any{"customer": "Acme Corp", "since": "last month"}, 0, false, "",
				"an unparsable since matches nothing, with no error: that is the bug the demo shows")
			// The transcript's second call: twenty orders of another account, truncated.
			r := check(map[string]any{"customer": "acme", "since": "2026-01-01", "limit": 500}, 20, true, "acme",
				"the widened call returns twenty orders of the account \"acme\", capped and flagged")
			if newest := r.Orders[0]["placed_at"].(string); newest >= "2026-02-18" {
				t.Errorf(`acme's newest order is %s: the agent saw "nothing from the last few weeks", so it must be older than Acme Corp's March orders`, newest)
			}

			// One argument at a time from the first call.
			check(map[string]any{"customer": "acme", "since": "last month"}, 0, false, "",
				"customer alone changes nothing while since is unparsable")
			check(map[string]any{"customer": "Acme Corp", "since": "last month", "limit": 500}, 0, false, "",
				"limit alone changes nothing while since is unparsable")
			check(map[string]any{"customer": "Acme Corp", "since": "2026-01-01"}, 10, true, "Acme Corp",
				"since alone: the default limit of 10, and more matched")
			r = check(map[string]any{"customer": "Acme Corp", "since": "2026-01-01", "limit": 500}, 20, true, "Acme Corp",
				"then limit: capped at 20, still truncated")
			if ids := r.ids(); ids[0] != "ord-1059" || !slices.IsSortedFunc(r.Orders, func(a, b map[string]any) int {
				return strings.Compare(b["placed_at"].(string), a["placed_at"].(string))
			}) {
				t.Errorf("orders %v are not newest first from ord-1059", ids)
			}
			check(map[string]any{"customer": "acme", "since": "2026-01-01"}, 10, true, "acme",
				"then customer: exact matching makes \"acme\" another account")

			// Exact, case-sensitive matching: near spellings find nobody.
			for _, customer := range []string{"acme corp", "Acme", "ACME"} {
				check(map[string]any{"customer": customer, "since": "2026-01-01", "limit": 500}, 0, false, "",
					"matching is exact and case-sensitive")
			}
		})
	}
}

func TestSearchOrdersArguments(t *testing.T) {
	cs := connect(t, 1, "")
	tests := []struct {
		args          map[string]any
		count         int
		truncated     bool
		first, latest string // oldest and newest id returned
	}{
		// limit defaults to 10.
		{map[string]any{"customer": "Acme Corp", "since": "2026-01-01"}, 10, true, "ord-1049", "ord-1059"},
		// since is inclusive: ord-1035 is placed at 2026-01-01T08:00:00Z.
		{map[string]any{"customer": "Acme Corp", "since": "2026-01-01T08:00:00Z", "limit": 24}, 20, true, "ord-1039", "ord-1059"},
		{map[string]any{"customer": "Acme Corp", "since": "2026-02-28"}, 5, false, "ord-1054", "ord-1059"},
		// No since means no lower bound.
		{map[string]any{"customer": "Hooli", "limit": 3}, 3, true, "ord-1013", "ord-1019"},
		{map[string]any{"customer": "Hooli"}, 4, false, "ord-1004", "ord-1019"},
		// A limit below 1 means the default.
		{map[string]any{"customer": "Globex", "limit": 0}, 10, true, "ord-1005", "ord-1060"},
	}
	for _, tt := range tests {
		r := search(t, cs, tt.args)
		if r.Count != tt.count || r.Truncated != tt.truncated {
			t.Errorf("search_orders %v: got %d orders, truncated %v; want %d, %v", tt.args, r.Count, r.Truncated, tt.count, tt.truncated)
			continue
		}
		if ids := r.ids(); ids[0] != tt.latest || ids[len(ids)-1] != tt.first {
			t.Errorf("search_orders %v: returned %v, want newest %s down to %s", tt.args, ids, tt.latest, tt.first)
		}
	}
}

func TestSearchOrdersRejectsBadArguments(t *testing.T) {
	cs := connect(t, 1, "")
	for _, args := range []map[string]any{
		{"since": "2026-01-01"},                 // customer is required
		{"customer": "Acme Corp", "limit": "5"}, // limit is an integer
		{"customer_name": "Acme Corp"},          // unknown argument
	} {
		res := call(t, cs, "search_orders", args)
		if !res.IsError {
			t.Errorf("search_orders %v: want a tool error (isError), got %s", args, text(t, res))
		}
	}
}

func TestSearchOrder(t *testing.T) {
	cs := connect(t, 1, "2025-11-25")
	var o map[string]any
	structured(t, call(t, cs, "search_order", map[string]any{"order_id": "ord-1044"}), &o)
	want := map[string]any{"id": "ord-1044", "customer_name": "Acme Corp", "status": "shipped", "total": 46.46, "placed_at": "2026-01-29T08:33:00Z"}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("search_order ord-1044 (-want +got):\n%s", diff)
	}

	res := call(t, cs, "search_order", map[string]any{"order_id": "ord-9999"})
	if !res.IsError {
		t.Fatalf("search_order of an unknown id: isError is false, want true")
	}
	if msg := text(t, res); !strings.Contains(msg, "ord-9999") {
		t.Errorf("unknown-id message %q does not name the id", msg)
	}
}

// revenue_by_day is the clean tool: it refuses what search_orders silently
// accepts, and says when it cut its answer.
func TestRevenueByDay(t *testing.T) {
	cs := connect(t, 1, "2025-11-25")
	var r struct {
		Days []struct {
			Date    string  `json:"date"`
			Orders  int     `json:"orders"`
			Revenue float64 `json:"revenue"`
		} `json:"days"`
		Truncated bool `json:"truncated"`
	}
	structured(t, call(t, cs, "revenue_by_day", map[string]any{"from": "2026-01-01", "to": "2026-01-05"}), &r)
	if len(r.Days) != 4 || r.Days[0].Date != "2026-01-01" || r.Days[3].Date != "2026-01-05" || r.Truncated {
		t.Errorf("revenue_by_day 2026-01-01..05: %+v, want 4 days oldest first, not truncated", r)
	}
	if r.Days[0].Orders != 1 || r.Days[0].Revenue != 2202.34 {
		t.Errorf("2026-01-01: %+v, want ord-1035 alone (2202.34)", r.Days[0])
	}
	structured(t, call(t, cs, "revenue_by_day", map[string]any{"from": "2026-01-01", "max_days": 3}), &r)
	if len(r.Days) != 3 || !r.Truncated {
		t.Errorf("max_days 3: %d days, truncated %v; want 3 and true", len(r.Days), r.Truncated)
	}
	for _, bad := range []map[string]any{{"from": "last month"}, {"from": "2026-01-01", "to": "soon"}, {"from": "2026-01-01", "max_days": 32}} {
		if res := call(t, cs, "revenue_by_day", bad); !res.IsError {
			t.Errorf("revenue_by_day %v: isError false, want a tool error (the clean tool refuses what search_orders accepts)", bad)
		}
	}
}

func TestCancelOrder(t *testing.T) {
	cs := connect(t, 1, "")
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	annotations := map[string]*mcp.ToolAnnotations{}
	for _, tool := range tools.Tools {
		annotations[tool.Name] = tool.Annotations
	}
	no, yes := false, true
	if diff := cmp.Diff(&mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &no}, annotations["cancel_order"]); diff != "" {
		t.Errorf("cancel_order annotations (-want +got):\n%s", diff)
	}
	for _, name := range []string{"search_orders", "search_order", "get_report", "echo"} {
		if a := annotations[name]; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s annotations = %+v, want readOnlyHint true", name, a)
		}
	}

	var got map[string]any
	structured(t, call(t, cs, "cancel_order", map[string]any{"order_id": "ord-1054", "reason": "duplicate"}), &got)
	if got["previous_status"] != "pending" || got["status"] != "cancelled" || got["reason"] != "duplicate" {
		t.Errorf("cancel_order ord-1054 = %v, want pending → cancelled with the reason", got)
	}
	// Nothing was mutated: a second session still sees the order pending.
	var o map[string]any
	structured(t, call(t, connect(t, 1, ""), "search_order", map[string]any{"order_id": "ord-1054"}), &o)
	if o["status"] != "pending" {
		t.Errorf("after cancel_order, ord-1054 is %v in a new session; the demo must not change its data", o["status"])
	}

	for _, id := range []string{"ord-1001", "ord-0000"} { // delivered, unknown
		if res := call(t, cs, "cancel_order", map[string]any{"order_id": id}); !res.IsError {
			t.Errorf("cancel_order %s: want a tool error, got %s", id, text(t, res))
		}
	}
}

func TestReportHasVolatileAndStableFields(t *testing.T) {
	cs := connect(t, 1, "")
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	var reports [2]map[string]any
	for i := range reports {
		structured(t, call(t, cs, "get_report", nil), &reports[i])
		if id, _ := reports[i]["request_id"].(string); !uuid.MatchString(id) {
			t.Errorf("request_id %q is not a version 4 UUID", id)
		}
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(reports[i]["generated_at"])); err != nil {
			t.Errorf("generated_at: %v", err)
		}
	}
	if reports[0]["request_id"] == reports[1]["request_id"] {
		t.Errorf("two calls returned the same request_id %v; it must be fresh on every call", reports[0]["request_id"])
	}
	for _, r := range reports {
		delete(r, "request_id")
		delete(r, "generated_at")
	}
	if diff := cmp.Diff(reports[0], reports[1]); diff != "" {
		t.Errorf("stable report fields changed between calls (-first +second):\n%s", diff)
	}
	want := map[string]any{"pending": 6.0, "shipped": 8.0, "delivered": 61.0, "cancelled": 11.0}
	if diff := cmp.Diff(want, reports[0]["orders_by_status"]); diff != "" {
		t.Errorf("orders_by_status (-want +got):\n%s", diff)
	}
	if reports[0]["order_count"] != 86.0 {
		t.Errorf("order_count = %v, want 86", reports[0]["order_count"])
	}
}

func TestRelease2Drift(t *testing.T) {
	for _, era := range eras[:2] {
		t.Run(era.name, func(t *testing.T) {
			r1, r2 := connect(t, 1, era.request), connect(t, 2, era.request)

			// Semantic: customer_name → customer, shipped → dispatched, on
			// the pinned call and on the transcript's second call.
			for _, customer := range []string{"Acme Corp", "acme"} {
				args := map[string]any{"customer": customer, "since": "2026-01-01", "limit": 500}
				s1, s2 := search(t, r1, args), search(t, r2, args)
				if diff := cmp.Diff(s1.ids(), s2.ids()); diff != "" || s2.Count != 20 || !s2.Truncated {
					t.Fatalf("release 2 returned other orders for %v (-r1 +r2):\n%s", args, diff)
				}
				var dispatched int
				for i, o1 := range s1.Orders {
					o2 := s2.Orders[i]
					if _, ok := o2["customer_name"]; ok || o2["customer"] != o1["customer_name"] {
						t.Errorf("release 2 order %v: want customer_name renamed to customer", o2)
					}
					wantStatus := o1["status"]
					if wantStatus == "shipped" {
						wantStatus = "dispatched"
						dispatched++
					}
					if o2["status"] != wantStatus {
						t.Errorf("release 2 order %v: status %v, want %v", o2["id"], o2["status"], wantStatus)
					}
				}
				if dispatched == 0 {
					t.Errorf("no shipped order among %v: the status drift is not exercised", s1.ids())
				}
			}

			// Cosmetic: search_order's text is reformatted, its data is not.
			a := map[string]any{"order_id": "ord-1044"}
			c1, c2 := call(t, r1, "search_order", a), call(t, r2, "search_order", a)
			var o1, o2 map[string]any
			structured(t, c1, &o1) // also checks the text parses to the same value
			structured(t, c2, &o2)
			if diff := cmp.Diff(o1, o2); diff != "" {
				t.Errorf("search_order data drifted (-r1 +r2):\n%s", diff)
			}
			if text(t, c1) == text(t, c2) {
				t.Errorf("search_order text is byte-identical in both releases, want the cosmetic drift:\n%s", text(t, c1))
			}
			if !strings.Contains(text(t, c2), "\n  \"customer_name\": \"Acme Corp\",") {
				t.Errorf("release 2 search_order text is not indented with sorted keys:\n%s", text(t, c2))
			}

			// Definition: only search_orders' definition changes.
			tools1, tools2 := toolsByName(t, r1), toolsByName(t, r2)
			for name, t1 := range tools1 {
				diff := cmp.Diff(t1, tools2[name])
				if changed := diff != ""; changed != (name == "search_orders") {
					t.Errorf("tools/list %s: changed = %v, want %v:\n%s", name, changed, name == "search_orders", diff)
				}
			}
			since := func(tool *mcp.Tool) map[string]any {
				return tool.InputSchema.(map[string]any)["properties"].(map[string]any)["since"].(map[string]any)
			}
			if f, ok := since(tools1["search_orders"])["format"]; ok {
				t.Errorf("release 1 since has format %v; it must be a bare string", f)
			}
			if f := since(tools2["search_orders"])["format"]; f != "date" {
				t.Errorf("release 2 since has format %v, want date", f)
			}
			if tools1["search_orders"].Description == tools2["search_orders"].Description {
				t.Errorf("search_orders description did not change in release 2")
			}
		})
	}
}

func toolsByName(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]*mcp.Tool)
	for _, tool := range res.Tools {
		m[tool.Name] = tool
	}
	return m
}

func TestRelease2ChangesCoverEveryKind(t *testing.T) {
	kinds := map[ChangeKind]int{}
	for _, c := range Release2Changes {
		kinds[c.Kind]++
		if c.Where == "" || c.What == "" || !strings.HasPrefix(c.String(), string(c.Kind)+": ") {
			t.Errorf("change %#v is incomplete", c)
		}
	}
	for _, k := range []ChangeKind{Semantic, Cosmetic, Definition, Flow} {
		if kinds[k] == 0 {
			t.Errorf("Release2Changes has no %s change", k)
		}
	}
}

func TestSinceFormatIsNotEnforced(t *testing.T) {
	// Release 2 documents since as a date, but the SDK does not assert
	// formats: "last month" still reaches the handler and finds nothing.
	r := search(t, connect(t, 2, ""), map[string]any{"customer": "Acme Corp", "since": "last month"})
	if r.Count != 0 {
		t.Errorf(`release 2, since "last month": got %d orders, want 0`, r.Count)
	}
}

func TestPromptAndResource(t *testing.T) {
	cs := connect(t, 1, "")
	if _, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "triage_report"}); err == nil {
		t.Errorf("triage_report without its required customer argument: want an error")
	}
	p, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "triage_report", Arguments: map[string]string{"customer": "Acme Corp", "symptom": "no recent orders"}})
	if err != nil {
		t.Fatalf("prompts/get triage_report: %v", err)
	}
	if len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, `"Acme Corp"`) {
		t.Errorf("triage_report messages = %+v, want one naming the customer", p.Messages)
	}

	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: readmeURI})
	if err != nil {
		t.Fatalf("resources/read %s: %v", readmeURI, err)
	}
	if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "search_orders") {
		t.Errorf("readme contents = %+v", res.Contents)
	}
}

func TestOrderBook(t *testing.T) {
	seen := map[string]bool{}
	since2026 := map[string]int{}
	for i, o := range orderBook {
		if want := fmt.Sprintf("ord-%d", 1001+i); o.id != want || seen[o.id] {
			t.Errorf("order %d has id %s, want %s", i, o.id, want)
		}
		seen[o.id] = true
		// Ids follow dates, except where acme's imported orders start
		// (ord-1061): they follow dates among themselves.
		if i > 0 && o.id != "ord-1061" && o.placedAt < orderBook[i-1].placedAt {
			t.Errorf("%s is out of date order", o.id)
		}
		if imported := i >= 60; imported != (o.customer == "acme") {
			t.Errorf("%s belongs to %q: only ord-1061 on are acme's", o.id, o.customer)
		}
		if !slices.Contains(statuses, o.status) {
			t.Errorf("%s has status %q", o.id, o.status)
		}
		if !o.placed().Before(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
			since2026[o.customer]++
		}
	}
	if len(orderBook) != 86 || since2026["Acme Corp"] <= maxLimit || since2026["acme"] <= maxLimit {
		t.Errorf("order book has %d orders, since 2026 %d of Acme Corp's and %d of acme's; want 86 and both more than %d",
			len(orderBook), since2026["Acme Corp"], since2026["acme"], maxLimit)
	}
}

func TestServeStdio(t *testing.T) {
	for _, era := range eras[:2] {
		t.Run(era.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), serveEnv+"=2")
			c := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, nil)
			cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: era.request})
			if err != nil {
				t.Fatalf("connecting to the demo server over stdio: %v", err)
			}
			if got := cs.InitializeResult(); got.ProtocolVersion != era.want || got.ServerInfo.Version != "2.0.0" {
				t.Errorf("over stdio: protocol %s, server %+v; want %s and version 2.0.0", got.ProtocolVersion, got.ServerInfo, era.want)
			}
			if got := text(t, call(t, cs, "echo", map[string]any{"text": "over stdio"})); got != "over stdio" {
				t.Errorf("echo over stdio = %q", got)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("closing the stdio session: %v", err)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("demo server exited with code %d after the client went away, want 0", code)
			}
		})
	}
}

func TestServeStdioRejectsUnknownRelease(t *testing.T) {
	if err := ServeStdio(t.Context(), 4); err == nil {
		t.Errorf("ServeStdio(ctx, 4) = nil, want an error")
	}
}

// TestRelease2AsksForACancellationReason: release 2's cancel_order, given
// no reason, asks a client that declares elicitation for one, in every era
// (an input_required round in 2026-07-28, a request in the legacy ones); a
// decline gets release 1's answer, an accept's reason is reported; a call
// with a reason, release 1, and a client that cannot be asked are not asked.
func TestRelease2AsksForACancellationReason(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			for _, tc := range []struct {
				release int
				args    map[string]any
				answer  string // the client's action; "" declares no elicitation
				asked   bool
				reason  string
			}{
				{2, map[string]any{"order_id": "ord-1054"}, "decline", true, ""},
				{2, map[string]any{"order_id": "ord-1054"}, "accept", true, "moved away"},
				{2, map[string]any{"order_id": "ord-1054", "reason": "duplicate"}, "accept", false, "duplicate"},
				{2, map[string]any{"order_id": "ord-1054"}, "", false, ""},
				{1, map[string]any{"order_id": "ord-1054"}, "accept", false, ""},
			} {
				s, err := New(tc.release)
				if err != nil {
					t.Fatal(err)
				}
				st, ct := mcp.NewInMemoryTransports()
				ss, err := s.Connect(t.Context(), st, nil)
				if err != nil {
					t.Fatal(err)
				}
				var asked []string
				opts := &mcp.ClientOptions{}
				if tc.answer != "" {
					opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked = append(asked, req.Params.Message)
						if tc.answer == "accept" {
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"reason": "moved away"}}, nil
						}
						return &mcp.ElicitResult{Action: tc.answer}, nil
					}
				}
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, opts).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: era.request})
				if err != nil {
					t.Fatal(err)
				}
				var got cancelOrderOutput
				structured(t, call(t, cs, "cancel_order", tc.args), &got)
				cs.Close()
				ss.Close()
				if (len(asked) > 0) != tc.asked || len(asked) > 1 {
					t.Errorf("release %d %v, client answering %q: asked %q, want asked %v", tc.release, tc.args, tc.answer, asked, tc.asked)
				}
				if tc.asked && !strings.Contains(asked[0], "ord-1054") {
					t.Errorf("the question %q does not name the order", asked[0])
				}
				if got.Reason != tc.reason || got.Status != "cancelled" || got.PreviousStatus != "pending" {
					t.Errorf("release %d %v, client answering %q: %+v, want cancelled with reason %q", tc.release, tc.args, tc.answer, got, tc.reason)
				}
			}
		})
	}
}
