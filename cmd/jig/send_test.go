package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSendFlags(t *testing.T) {
	checkFlags(t, newSendCmd, nil, nil, []flagCase[sendOptions]{
		{name: "raw twice, wait, json", args: []string{"--raw", `{"a":1}`, "--raw", "@m.json", "--wait", "2s", "--json", "--demo"}, want: func(o *sendOptions) {
			o.raw, o.wait, o.json, o.target.demo = []string{`{"a":1}`, "@m.json"}, 2e9, true, true
		}},
		{name: "server after --", args: []string{"--raw", "x", "--", "node", "s.js"}, want: func(o *sendOptions) {
			o.raw, o.command = []string{"x"}, []string{"node", "s.js"}
		}},
	})
}

// jig send: the answer on stdout exactly as sent (--json) or indented, what
// crossed on stderr, and an exit code for what the server did.
func TestSend(t *testing.T) {
	se := serverEverything(t)
	file := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(file, []byte("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": \"raw-9\",\n  \"method\": \"ping\"\n}\n"), 0o600)
	record := filepath.Join(t.TempDir(), "send.jsonl")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr []string
	}{
		{"an unknown method", []string{"--raw", `{"jsonrpc":"2.0","id":"raw-1","method":"tools/frobnicate"}`, "--json", "--demo"}, exitServerError,
			`{"jsonrpc":"2.0","id":"raw-1","error":{"code":-32601,"message":"method not found: \"tools/frobnicate\""}}`,
			[]string{`→ request      tools/frobnicate id="raw-1"`, `← error        tools/frobnicate id="raw-1" code=-32601`}},
		{"a file, compacted for stdio", append([]string{"--raw", "@" + file, "--record", record, "--"}, se[1:]...), exitOK,
			"", []string{`→ request      ping id="raw-9" 46 B`, `← result       ping id="raw-9"`}},
		{"bytes that are not JSON, then a notification", append([]string{"--raw", "not json at all", "--raw", `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, "--wait", "300ms", "--no-record", "--"}, se[1:]...), exitOK,
			"", []string{"→ invalid      15 B ! not JSON: a line of text", "waited 300ms (a message without an id gets no answer)", "→ notification notifications/roots/list_changed"}},
		{"a request left unanswered", append([]string{"--raw", `{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"trigger-long-running-operation","arguments":{"duration":5,"steps":5}}}`, "--wait", "300ms", "--no-record", "--"}, se[1:]...), exitUnreachable,
			"", []string{"no answer within 300ms"}},
		{"no message", []string{"--demo"}, exitUsage, "", []string{"jig send needs --raw MESSAGE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := jig(t, "", append([]string{"send"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) {
				t.Errorf("exit %d (want %d), stdout:\n%s\nwant %s\nstderr:\n%s", code, tc.code, stdout, tc.stdout, stderr)
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
	// The raw message is in the recording like any other frame.
	data, _ := os.ReadFile(record)
	var found bool
	for _, line := range strings.Split(string(data), "\n") {
		var rec struct{ Raw string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Raw == `{"jsonrpc":"2.0","id":"raw-9","method":"ping"}` {
			found = true
		}
	}
	if !found {
		t.Errorf("the recording lacks the raw message:\n%s", data)
	}
}

// A batch is answered when each of its requests is, matched by id, and the
// answers are printed; bytes that are not JSON are told as such, not as
// "a message without an id".
func TestSendRawBatchAndNotJSON(t *testing.T) {
	code, out, errOut := jig(t, "", "send", "--raw", `[{"jsonrpc":"2.0","id":"a","method":"tools/list"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`, "--demo", "--no-record")
	if code != exitOK || !strings.Contains(out, `"id": "a"`) || !strings.Contains(out, `"id": "b"`) {
		t.Errorf("batch: exit %d, stdout lacks the answers to a and b:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "without an id") || strings.Contains(errOut, "waited") {
		t.Errorf("batch: the answered batch was waited on as a message without an id:\n%s", errOut)
	}
	code, out, errOut = jig(t, "", "send", "--raw", "not json at all", "--demo", "--wait", "300ms", "--no-record")
	if strings.Contains(errOut, "without an id") || !strings.Contains(errOut, "not JSON") || !strings.Contains(errOut, "the server sent no error for it within 300ms") {
		t.Errorf("not JSON: exit %d\n%s\n%s", code, out, errOut)
	}
}
