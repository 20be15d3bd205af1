package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// demoTraffic records seeded traffic against a demo release once per test
// binary: recordings of real sessions, shared by the check, stats and
// drift tests.
var demoTraffic = struct {
	sync.Mutex
	dir   string
	files map[string]string
}{files: map[string]string{}}

func recordTraffic(t *testing.T, release, seed, calls int) string {
	t.Helper()
	demoTraffic.Lock()
	defer demoTraffic.Unlock()
	key := strings.Join([]string{itoaT(release), itoaT(seed), itoaT(calls)}, "-")
	if p, ok := demoTraffic.files[key]; ok {
		return p
	}
	if demoTraffic.dir == "" {
		d, err := os.MkdirTemp("", "jig-traffic-")
		if err != nil {
			t.Fatal(err)
		}
		demoTraffic.dir = d
	}
	p := filepath.Join(demoTraffic.dir, "r"+key+".jsonl")
	code, _, errOut := jig(t, "", "traffic", "--release", itoaT(release), "--seed", itoaT(seed), "--calls", itoaT(calls), "--record", p)
	if code != 0 || !strings.Contains(errOut, itoaT(calls)+" calls (seed "+itoaT(seed)) {
		t.Fatalf("jig traffic: exit %d\n%s", code, errOut)
	}
	demoTraffic.files[key] = p
	return p
}

func itoaT(n int) string { b, _ := json.Marshal(n); return string(b) }

const seedContracts = `{
  // the seed article's three failure modes
  "tools": {
    "search_orders": {
      "rules": [
        {"rule": "iso8601", "path": "/structuredContent/orders/*/placed_at"},
        {"rule": "max-age", "path": "/structuredContent/generated_at", "value": "1h"},
        {"rule": "range", "path": "/structuredContent/orders/*/total", "value": {"min": 0.01}}
      ]
    }
  }
}`

func tempFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckCatchesRelease3: against real recordings of the demo server,
// release 3's epoch placed_at and stale cache are violations naming the
// recording, frame, call, path, rule and value; release 3's first calls,
// before it goes wrong, hold.
func TestCheckCatchesRelease3(t *testing.T) {
	cur := recordTraffic(t, 3, 2, 200)
	contracts := tempFile(t, "contracts.json", seedContracts)
	code, out, errOut := jig(t, "", "check", contracts, cur)
	if code != exitServerError {
		t.Fatalf("jig check on release 3: exit %d, want 1\n%s", code, errOut)
	}
	for _, want := range []string{
		"/structuredContent/orders/0/placed_at: iso8601: got the number",
		"possible epoch regression",
		": output-schema: got number, want string",
		"/structuredContent/generated_at: max-age: got \"",
		"possibly served from a stale cache",
		"search_orders call ",
		filepath.Base(cur) + "#",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("jig check output does not say %q:\n%.2000s", want, out)
		}
	}
	if !strings.Contains(errOut, "200 tool calls in 1 recording(s)") {
		t.Errorf("summary: %s", errOut)
	}
	// The calls before release 3 goes wrong hold the contract.
	var rep checkReport
	code, js, _ := jig(t, "", "check", "--json", contracts, cur)
	if err := json.Unmarshal([]byte(js), &rep); err != nil || code != exitServerError {
		t.Fatalf("--json: exit %d, %v\n%.500s", code, err, js)
	}
	// Its keys are snake_case, as every other --json of jig's ("Calls" was
	// Go's field name).
	var counts struct {
		Counts map[string]int `json:"counts"`
	}
	json.Unmarshal([]byte(js), &counts)
	if counts.Counts["calls"] != 200 || counts.Counts["violations"] == 0 || counts.Counts["Calls"] != 0 {
		t.Errorf("--json counts: %v", counts.Counts)
	}
	for _, v := range rep.Violations {
		if v.Request <= 2*30+2 { // 30 good calls, two frames each, after tools/list
			t.Errorf("violation on a call before the regressions: %v", v)
		}
	}
}

func TestCheckBadInput(t *testing.T) {
	cur := recordTraffic(t, 3, 2, 200)
	unknown := tempFile(t, "c.json", `{"tools":{"search_orders":{"rules":[{"rule":"isodate","path":"/x"}]}}}`)
	code, _, errOut := jig(t, "", "check", unknown, cur)
	if code != exitUsage || !strings.Contains(errOut, "c.json: tools.search_orders.rules[0] (rule isodate)") {
		t.Errorf("unknown rule: exit %d, %s; want 2 naming the file, tool and rule", code, errOut)
	}
	schema := tempFile(t, "s.yaml", "tools:\n  search_orders:\n    structured_content: {type: 7}\n")
	code, _, errOut = jig(t, "", "check", schema, cur)
	if code != exitUsage || !strings.Contains(errOut, "s.yaml: tools.search_orders.structured_content: invalid JSON Schema") {
		t.Errorf("invalid schema: exit %d, %s; want 2 naming the file and tool", code, errOut)
	}
	contracts := tempFile(t, "contracts.json", seedContracts)
	code, _, errOut = jig(t, "", "check", contracts, filepath.Join(t.TempDir(), "nope-*.jsonl"))
	if code != exitUsage || !strings.Contains(errOut, "no recording matches") {
		t.Errorf("a pattern matching nothing: exit %d, %s", code, errOut)
	}
	// A cut-off recording is checked as far as it goes, and says so.
	data, _ := os.ReadFile(cur)
	cut := tempFile(t, "cut.jsonl", string(data[:len(data)/2]))
	code, _, errOut = jig(t, "", "check", contracts, cut)
	if code != exitServerError || !strings.Contains(errOut, "cut off") {
		t.Errorf("a cut-off recording: exit %d, %s; want its violations and a warning", code, errOut)
	}
	// A directory with a file that is no recording beside them.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)
	os.WriteFile(filepath.Join(dir, "a.jsonl"), data, 0o600)
	code, _, errOut = jig(t, "", "check", contracts, dir)
	if code != exitServerError || !strings.Contains(errOut, "notes.txt: not a format jig can import") {
		t.Errorf("a directory: exit %d, %s; want notes.txt skipped with a reason", code, errOut)
	}
}

// TestCheckRelease1Holds: the seed contract without the freshness rule
// holds on release 1 (release 1 has no generated_at).
func TestCheckRelease1Holds(t *testing.T) {
	base := recordTraffic(t, 1, 1, 200)
	c := tempFile(t, "c.json", strings.Replace(seedContracts, `{"rule": "max-age", "path": "/structuredContent/generated_at", "value": "1h"},`, "", 1))
	code, out, errOut := jig(t, "", "check", c, base)
	if code != 0 || out != "" {
		t.Errorf("release 1: exit %d\n%s\n%s", code, out, errOut)
	}
}
