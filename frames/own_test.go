package frames

import "testing"

// What a server does on its own is told from what it does for an open
// request, over each transport.
func TestOwnAccount(t *testing.T) {
	type step struct {
		dir  Direction
		on   string // the HTTP method the frame crossed with, "" for stdio
		raw  string
		want bool
	}
	c, s := ClientToServer, ServerToClient
	initialize := []step{
		{c, "POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, false},
		{s, "POST", `{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{c, "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false},
	}
	call := step{c, "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`, false}
	roots := step{s, "", `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`, true}
	answer := step{c, "", `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`, false}
	logged := step{s, "", `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"Roots updated"}}`, true}
	progress := step{s, "", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`, false}
	with := func(st step, on string, want bool) step { st.on, st.want = on, want; return st }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"stdio: the roots/list the handshake called for, and its log", append(initialize[2:], call, roots, answer, logged, progress)},
		{"stdio: a second roots/list is the call's", append(initialize[2:], roots, answer, call, with(roots, "", false),
			with(answer, "", false), with(logged, "", false))},
		{"stdio: list_changed calls for another", append(initialize[2:], roots, answer,
			step{c, "", `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, false}, call, roots)},
		{"stdio: the log is the answer's only right after it", append(initialize[2:], call, roots, answer, progress, with(logged, "", false))},
		{"stdio: list_changed is the handshake's until the server's next answer", append(initialize[2:],
			step{c, "", `{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{}}`, false},
			step{s, "", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, true},
			step{s, "", `{"jsonrpc":"2.0","id":2,"result":{"resources":[]}}`, false}, call,
			step{s, "", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, false})},
		{"a ping is never a call's", []step{call, {s, "", `{"jsonrpc":"2.0","id":9,"method":"ping"}`, true}}},
		{"an elicitation is the call's", append(initialize[2:], call, step{s, "", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}`, false})},
		{"Streamable HTTP: the GET stream's are the server's own", append(initialize, with(call, "POST", false),
			step{s, "GET", `{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}`, true},
			with(progress, "POST", false), step{s, "GET", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, true})},
		{"HTTP+SSE: everything comes on the GET stream", []step{
			with(initialize[0], "POST", false), with(initialize[1], "GET", false), with(initialize[2], "POST", false),
			with(call, "POST", false), {s, "GET", `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{}}`, false},
			with(progress, "GET", false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o OwnAccount
			for i, st := range tc.steps {
				f := Frame{Dir: st.dir, Raw: []byte(st.raw)}
				if st.on != "" {
					f.HTTP = &HTTP{Method: st.on}
				}
				f.Classify()
				if got := o.See(&f); got != st.want {
					t.Errorf("frame %d %s: own %v, want %v", i, st.raw, got, st.want)
				}
			}
		})
	}
}
