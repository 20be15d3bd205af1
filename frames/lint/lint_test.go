package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/mcpjig/jig/frames/surface"
)

func surf(t testing.TB, tools ...string) *surface.Surface {
	t.Helper()
	s := &surface.Surface{Format: surface.Format, Server: surface.Server{Name: "test"}}
	for _, tool := range tools {
		if !json.Valid([]byte(tool)) {
			t.Fatalf("not JSON: %s", tool)
		}
		s.Tools = append(s.Tools, json.RawMessage(tool))
	}
	return s
}

// rules is "rule path" for every finding, in order.
func rules(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule+" "+f.Path)
	}
	return out
}

const annotated = `"annotations": {"readOnlyHint": true, "openWorldHint": false}`

// The seed's search tool, its faults as the demo server plants them.
const seedSearch = `{"name": "search_orders", "description": "Find a customer's recent orders. Say which customer, and how far back to look with since.",
  "inputSchema": {"type": "object", "properties": {"customer": {"type": "string", "description": "The customer's name."}, "since": {"type": "string"},
    "limit": {"type": "integer", "description": "How many orders to return.", "default": 10}}, "required": ["customer"], "additionalProperties": false},
  "outputSchema": {"type": "object", "properties": {"orders": {"type": "array", "items": {"type": "object"}}, "truncated": {"type": "boolean"}}},
  ` + annotated + `}`

// The same tool, every fault fixed: the clean neighbour must raise nothing.
const cleanSearch = `{"name": "find_invoices", "description": "Find the invoices one customer was sent on or after a date, newest first. customer must match the customer name exactly, case included. At most 20 invoices come back; truncated: true means more matched.",
  "inputSchema": {"type": "object", "properties": {"customer": {"type": "string", "description": "The customer's name, e.g. \"Acme Corp\"."},
    "since": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "description": "Earliest date, as YYYY-MM-DD."},
    "limit": {"type": "integer", "maximum": 20, "minimum": 1, "description": "How many invoices to return (1 to 20)."}}, "required": ["customer"], "additionalProperties": false},
  "outputSchema": {"type": "object", "properties": {"invoices": {"type": "array", "items": {"type": "object"}}, "truncated": {"type": "boolean"}}},
  ` + annotated + `}`

func TestSeedFaultsFoundCleanToolSilent(t *testing.T) {
	got := rules(Lint(surf(t, seedSearch, cleanSearch), Config{}))
	want := []string{
		"date-bare-string /inputSchema/properties/since",
		"description-missing /inputSchema/properties/since",
		"limit-without-maximum /inputSchema/properties/limit",
		"matching-undocumented /inputSchema/properties/customer",
		"truncation-undocumented /outputSchema/properties/truncated",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		tool string
		want []string // rule path; nil: no finding at all
	}{
		{"confusable plural is for the pair", ``, nil},
		{"date by suffix _at", `{"name": "list_events", "description": "List the events of a calendar.", "inputSchema": {"type": "object", "properties": {"created_at": {"type": "string", "description": "Only events created after this."}}}, ` + annotated + `}`,
			[]string{"date-bare-string /inputSchema/properties/created_at"}},
		{"date by description", `{"name": "list_events", "description": "List the events of a calendar.", "inputSchema": {"type": "object", "properties": {"from": {"type": "string", "description": "Start, an ISO 8601 timestamp."}}}, ` + annotated + `}`,
			[]string{"date-bare-string /inputSchema/properties/from"}},
		{"an id of a date is not a date", `{"name": "get_event", "description": "Get one event by its id.", "inputSchema": {"type": "object", "properties": {"date_id": {"type": "string", "description": "The id of the date entry."}}}, ` + annotated + `}`, nil},
		{"enum in description", `{"name": "set_mode", "description": "Set the display mode of the board.", "inputSchema": {"type": "object", "properties": {"mode": {"type": "string", "description": "One of \"light\", \"dark\" or \"auto\"."}}}, "annotations": {"readOnlyHint": false}}`,
			[]string{"enum-in-description /inputSchema/properties/mode"}},
		{"enum in description, pipes", `{"name": "set_mode", "description": "Set the display mode of the board.", "inputSchema": {"type": "object", "properties": {"mode": {"type": "string", "description": "Must be light|dark|auto"}}}, "annotations": {"readOnlyHint": false}}`,
			[]string{"enum-in-description /inputSchema/properties/mode"}},
		{"one-word descriptions", `{"name": "ping_host", "description": "Ping.", "inputSchema": {"type": "object", "properties": {"host": {"type": "string", "description": "host"}}}, ` + annotated + `}`,
			[]string{"description-missing /description", "description-missing /inputSchema/properties/host/description"}},
		{"no annotations", `{"name": "ping_host", "description": "Send one ICMP echo to a host.", "inputSchema": {"type": "object", "properties": {}}}`,
			[]string{"annotations-missing /annotations"}},
		{"delete that is not destructive", `{"name": "delete_file", "description": "Delete one file from the workspace.", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": false, "destructiveHint": false}}`,
			[]string{"annotation-contradicts-name /annotations/destructiveHint"}},
		{"create that only reads", `{"name": "createIssue", "description": "Open a new issue in the tracker.", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}}`,
			[]string{"annotation-contradicts-name /annotations/readOnlyHint"}},
		{"required unknown", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "The user id."}}, "required": ["id", "user_id"], "additionalProperties": false}, ` + annotated + `}`,
			[]string{"required-unknown /inputSchema/required"}},
		{"not an object", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"type": "string"}, ` + annotated + `}`,
			[]string{"schema-not-object /inputSchema/type"}},
		{"a schema of only $schema (server-filesystem 2025.7.1)", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}, ` + annotated + `}`,
			[]string{"schema-not-object /inputSchema"}},
		{"no input schema", `{"name": "get_user", "description": "Look up one user by id.", ` + annotated + `}`,
			[]string{"schema-not-object /inputSchema"}},
		{"root oneOf", `{"name": "get_user", "description": "Look up one user by id or email.", "inputSchema": {"type": "object", "oneOf": [{"properties": {"id": {"type": "string", "description": "The user id."}}}, {"properties": {"email": {"type": "string", "description": "Their email."}}}]}, ` + annotated + `}`,
			[]string{"schema-root-combinator /inputSchema/oneOf"}},
		{"refs", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"type": "object", "properties": {"who": {"$ref": "#/$defs/who", "description": "Who to look up."}, "where": {"$ref": "#/$defs/missing", "description": "Where to look."}}, "$defs": {"who": {"type": "string"}}}, ` + annotated + `}`,
			[]string{"schema-ref /inputSchema/properties/who/$ref", "schema-unresolved-ref /inputSchema/properties/where/$ref"}},
		{"boolean subschema, union, no type, not-empty, odd format", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"type": "object", "properties": {"a": true, "b": {"type": ["string", "null"], "description": "Bee value."}, "c": {"description": "Sea value."}, "d": {"type": "string", "format": "color-hex", "description": "Dee value."}}, "additionalProperties": {"not": {}}}, ` + annotated + `}`,
			[]string{"schema-additional-properties /inputSchema/additionalProperties", "schema-boolean-subschema /inputSchema/properties/a", "schema-type-union /inputSchema/properties/b/type", "schema-missing-type /inputSchema/properties/c", "schema-format-unportable /inputSchema/properties/d/format"}},
		{"invalid schema", `{"name": "get_user", "description": "Look up one user by id.", "inputSchema": {"type": "object", "properties": {"id": {"type": "strin", "description": "The user id."}}}, ` + annotated + `}`,
			[]string{"schema-invalid /inputSchema"}},
		{"invalid name", `{"name": "get user (v2)", "description": "Look up one user by id.", "inputSchema": {"type": "object"}, ` + annotated + `}`,
			[]string{"tool-name-invalid /name"}},
		{"unportable name", `{"name": "users.get", "description": "Look up one user by id.", "inputSchema": {"type": "object"}, ` + annotated + `}`,
			[]string{"tool-name-unportable /name"}},
		{"oversized", `{"name": "get_user", "description": "` + strings.Repeat("Look up one user by id. ", 120) + `", "inputSchema": {"type": "object"}, ` + annotated + `}`,
			[]string{"description-oversized /description"}},
		{"truncation said", `{"name": "list_users", "description": "List users, 50 at a time: pass next_cursor back as cursor for the next page.", "inputSchema": {"type": "object", "properties": {"cursor": {"type": "string"}}}, "outputSchema": {"type": "object", "properties": {"users": {"type": "array"}, "next_cursor": {"type": "string"}}}, ` + annotated + `}`, nil},
		{"a greeting's name is not a search", `{"name": "greet", "description": "Say hello to someone by name.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string", "description": "Who to greet."}}}, ` + annotated + `}`, nil},
	} {
		if tc.tool == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			got := rules(Lint(surf(t, tc.tool), Config{}))
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestNames(t *testing.T) {
	tool := func(name, desc string) string {
		return fmt.Sprintf(`{"name": %q, "description": %q, "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false}}`, name, desc)
	}
	for _, tc := range []struct {
		a, b string
		want string // the rule, or ""
	}{
		{"search_order", "search_orders", "tool-names-confusable"},
		{"get-user", "getUser", "tool-names-confusable"},
		{"list_categories", "list_category", "tool-names-confusable"},
		{"retrieve_document", "retreive_document", "tool-names-confusable"},
		{"read_file", "head_file", ""},
		{"get_file", "put_file", ""},
		{"create_entities", "delete_entities", ""},
		{"list_directory", "list_directory_with_sizes", ""},
	} {
		got := Lint(surf(t, tool(tc.a, "Does the first thing for this test, "+tc.a), tool(tc.b, "And a different sentence altogether for "+tc.b)), Config{})
		var ids []string
		for _, f := range got {
			ids = append(ids, f.Rule)
		}
		if (tc.want == "") != (len(ids) == 0) || (tc.want != "" && !slices.Contains(ids, tc.want)) {
			t.Errorf("%s / %s: %v, want %q", tc.a, tc.b, ids, tc.want)
		}
	}
	dup := Lint(surf(t, tool("list_directory", "Get a detailed listing of all files and directories in a specified path."),
		tool("list_directory_sizes", "Get a detailed listing of all files and directories in a specified path, with sizes.")), Config{})
	if got := rules(dup); !slices.Contains(got, "descriptions-near-duplicate /description") {
		t.Errorf("near-duplicate descriptions: %v", got)
	}
	twice := Lint(surf(t, tool("echo", "Return the text unchanged."), tool("echo", "Return the text unchanged.")), Config{})
	if got := rules(twice); !slices.Contains(got, "tool-name-invalid /name") {
		t.Errorf("a name listed twice: %v", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		max  int
		want int
	}{
		{"kitten", "sitting", 5, 3}, {"", "abc", 5, 3}, {"abc", "abc", 1, 0}, {"abcdef", "a", 2, 3}, {"flaw", "lawn", 3, 2}, {"héllo", "hello", 2, 1},
	} {
		if got := distance(tc.a, tc.b, tc.max); got != tc.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.max, got, tc.want)
		}
	}
}

func TestConfig(t *testing.T) {
	s := surf(t, seedSearch)
	cfg, err := ParseConfig([]byte(`{"disable": ["description-missing"], "severity": {"date-bare-string": "error"},
	  "ignore": [{"rule": "matching-undocumented", "item": "tool search_orders", "path": "/inputSchema/properties/customer", "reason": "exact match is obvious here"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := Lint(s, cfg)
	want := []string{"date-bare-string /inputSchema/properties/since", "limit-without-maximum /inputSchema/properties/limit", "truncation-undocumented /outputSchema/properties/truncated"}
	if !slices.Equal(rules(got), want) {
		t.Errorf("findings: %v, want %v", rules(got), want)
	}
	if got[0].Severity != Error || Worst(got) != Error {
		t.Errorf("severity override: %v", got[0].Severity)
	}
	for _, bad := range []struct{ file, want string }{
		{`{"disable": ["date-bare-strings"]}`, `unknown rule "date-bare-strings" (did you mean date-bare-string?)`},
		{`{"disabled": []}`, `unknown field "disabled"`},
		{`{"ignore": [{"rule": "date-bare-string"}]}`, `give the item`},
		{`{"severity": {"date-bare-string": "fatal"}}`, `unknown severity "fatal"`},
	} {
		if _, err := ParseConfig([]byte(bad.file)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.file, err, bad.want)
		}
	}
}

// Every rule is documented: an id, a why and a fix, and ids are unique.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if r.ID == "" || r.Why == "" || r.Fix == "" || r.Severity == 0 || seen[r.ID] {
			t.Errorf("rule %+v", r)
		}
		seen[r.ID] = true
	}
}

// The SARIF output validates against the SARIF 2.1.0 schema (go-sarif's
// copy of it), and the library reads back every member jig wrote, so the
// validation covered the whole document.
func TestSARIFValidates(t *testing.T) {
	s := surf(t, seedSearch, cleanSearch, `{"name": "bad name", "inputSchema": {"type": "object"}}`)
	fs := Lint(s, Config{})
	var b bytes.Buffer
	if err := WriteSARIF(&b, Report{Server: "test", Findings: fs, Counts: Count(fs)}, SARIFOptions{URI: "server.js", ToolVersion: "0.0.0-test"}); err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{"findings": b.Bytes(), "none": sarifOf(t, nil)} {
		rep, err := sarif.FromBytes(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := rep.Validate(); err != nil {
			t.Errorf("%s: SARIF does not validate: %v\n%s", name, err, doc)
		}
		var back bytes.Buffer
		if err := rep.Write(&back); err != nil {
			t.Fatal(err)
		}
		var ours, theirs any
		json.Unmarshal(doc, &ours)
		json.Unmarshal(back.Bytes(), &theirs)
		if p := missingFrom(ours, theirs, ""); p != "" {
			t.Errorf("%s: the SARIF library dropped %s, so the schema never saw it", name, p)
		}
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
			} `json:"results"`
			Tool struct {
				Driver struct {
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	json.Unmarshal(b.Bytes(), &log)
	run := log.Runs[0]
	if len(run.Results) != len(fs) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(fs))
	}
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d", r.RuleID, r.RuleIndex)
		}
	}
}

func sarifOf(t *testing.T, fs []Finding) []byte {
	var b bytes.Buffer
	if err := WriteSARIF(&b, Report{Server: "test", Findings: fs}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// missingFrom returns the path of the first leaf of a that b lacks or has
// otherwise.
func missingFrom(a, b any, path string) string {
	switch a := a.(type) {
	case map[string]any:
		bm, _ := b.(map[string]any)
		for k, v := range a {
			if p := missingFrom(v, bm[k], path+"/"+k); p != "" {
				return p
			}
		}
	case []any:
		bl, _ := b.([]any)
		if len(bl) != len(a) {
			return path
		}
		for i := range a {
			if p := missingFrom(a[i], bl[i], fmt.Sprintf("%s/%d", path, i)); p != "" {
				return p
			}
		}
	default:
		if !reflect.DeepEqual(a, b) {
			return path
		}
	}
	return ""
}

func TestJUnit(t *testing.T) {
	s := surf(t, seedSearch, cleanSearch)
	fs := Lint(s, Config{})
	var b bytes.Buffer
	if err := WriteJUnit(&b, Report{Server: "test", Findings: fs}, Items(s)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<testsuite name="jig lint test" tests="2" failures="1">`, `<testcase name="tool find_invoices" classname="jig-lint.test"></testcase>`, `<failure type="date-bare-string"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JUnit lacks %s:\n%s", want, b.String())
		}
	}
}

// 500 tools, each with a few arguments and descriptions like a real
// server's, linted after listing.
func BenchmarkLint500(b *testing.B) {
	s := manyTools(b, 500)
	b.ReportAllocs()
	for b.Loop() {
		Lint(s, Config{})
	}
}

func manyTools(tb testing.TB, n int) *surface.Surface {
	verbs := []string{"get", "list", "search", "create", "update", "delete", "archive", "export"}
	nouns := []string{"order", "invoice", "customer", "ticket", "report", "shipment", "payment", "account", "project", "label"}
	var tools []string
	for i := range n {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		name := fmt.Sprintf("%s_%s_%d", v, o, i/(len(verbs)*len(nouns)))
		tools = append(tools, fmt.Sprintf(`{"name": %q, "description": "%s one %s of the account %d by its id, with the fields a support agent needs; at most 50 come back.",
		  "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "The %s id, e.g. \"%s-1042\"."}, "since": {"type": "string", "description": "Earliest date."},
		    "limit": {"type": "integer", "description": "How many to return."}, "status": {"type": "string", "description": "One of \"open\", \"closed\"."}}, "required": ["id"]},
		  "outputSchema": {"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}, "has_more": {"type": "boolean"}}, "$defs": {"item": {"type": "object"}}},
		  "annotations": {"readOnlyHint": %v}}`, name, v, o, i, o, o, v == "get" || v == "list" || v == "search"))
	}
	return surf(tb, tools...)
}

// The 500-tool surface raises what its faults should, per tool.
func TestManyTools(t *testing.T) {
	fs := Lint(manyTools(t, 500), Config{})
	per := map[string]int{}
	for _, f := range fs {
		per[f.Rule]++
	}
	for _, rule := range []string{"date-bare-string", "limit-without-maximum", "enum-in-description", "truncation-undocumented"} {
		if per[rule] != 500 {
			t.Errorf("%s: %d findings over 500 tools", rule, per[rule])
		}
	}
}
