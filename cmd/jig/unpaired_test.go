package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatsAndCheckCountUnpairedCalls: a client that reuses an id while its
// call is in flight, a server that answers a call twice and answers one
// nobody made, recorded through the proxy. jig stats and jig check pair no
// response with the calls that shared an id (the first answer went to the
// later call, and the earlier call vanished from every count) and count the
// answers to no call in flight (dropped without a word); the one call that
// pairs cleanly is the only one in the statistics.
func TestStatsAndCheckCountUnpairedCalls(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	client := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"a":2}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"a":3}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{"a":4}}}`,
	}, "\n") + "\n"
	answers := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":1}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"n":2}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"n":3}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"n":-3}}}`,
		`{"jsonrpc":"2.0","id":9,"result":{"content":[],"structuredContent":{"n":9}}}`,
	}
	script := "for i in 1 2 3 4 5; do read line; done; printf '%s\\n' '" + strings.Join(answers, "' '") + "'"
	if code, _, errOut := runCmd(t, "proxy", client, "--record", rec, "--", "sh", "-c", script); code != 0 {
		t.Fatalf("proxy: exit %d\n%s", code, errOut)
	}
	code, out, errOut := jig(t, "", "stats", "--json", rec)
	var st struct {
		Read  loaded `json:"read"`
		Tools []struct {
			Tool  string `json:"tool"`
			Calls int64  `json:"calls"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("stats --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if r := st.Read; r.Reused != 2 || r.Stray != 2 || r.Unanswered != 1 || len(st.Tools) != 1 || st.Tools[0].Calls != 1 {
		t.Errorf("stats: reused %d, stray %d, unanswered %d, tools %+v; want 2 calls sharing an id, 2 stray answers, 1 unanswered and 1 call counted\n%s",
			r.Reused, r.Stray, r.Unanswered, st.Tools, out)
	}
	_, _, errOut = jig(t, "", "stats", rec)
	for _, w := range []string{"2 tool calls shared an id with another call still in flight", "2 responses answered no call in flight", "1 tool call got no response"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stats does not say %q:\n%s", w, errOut)
		}
	}
	contracts := tempFile(t, "c.json", `{"tools":{"t":{"rules":[{"rule":"range","path":"/structuredContent/n","value":{"min":0}}]}}}`)
	code, out, errOut = jig(t, "", "check", "--json", contracts, rec)
	var ck checkReport
	if err := json.Unmarshal([]byte(out), &ck); err != nil {
		t.Fatalf("check --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if n := ck.Counts; code != 0 || n.Calls != 1 || n.Reused != 2 || n.Stray != 2 || n.Violations != 0 {
		t.Errorf("check: exit %d, counts %+v; want the one paired call held (n=3 holds), 2 reused, 2 stray, no violation (n=-3 answered call 3 a second time)", code, n)
	}
	_, _, errOut = jig(t, "", "check", contracts, rec)
	if !strings.Contains(errOut, "2 calls shared an id with another still in flight, not checked") || !strings.Contains(errOut, "2 responses answered no call in flight, not checked") {
		t.Errorf("check's summary does not count them:\n%s", errOut)
	}
}
