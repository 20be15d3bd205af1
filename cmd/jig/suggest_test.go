package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

func TestSimilar(t *testing.T) {
	commands := []string{"tools", "call", "resources", "read", "prompts", "prompt", "replay", "proxy", "open", "compare", "sessions", "connect", "demo"}
	tests := []struct {
		word       string
		candidates []string
		want       []string
	}{
		{"tols", commands, []string{"tools"}},
		{"dmeo", []string{"demo", "release", "url"}, []string{"demo"}}, // a swap is one edit
		{"arg", []string{"args", "url", "json"}, []string{"args"}},     // not "url": two edits in a short word
		{"search_ordrs", []string{"search_orders", "search_order", "get_report"}, []string{"search_orders"}},
		{"Search-Orders", []string{"search_orders", "echo"}, []string{"search_orders"}},
		{"conect", commands, []string{"connect"}},
		{"frobnicate", commands, nil},
		{"x", []string{"demo", "url"}, nil},
		{"tools", commands, nil}, // a name that exists needs no suggestion
		{"promt", commands, []string{"prompt"}},
	}
	for _, tc := range tests {
		if got := similar(tc.word, tc.candidates); !slices.Equal(got, tc.want) {
			t.Errorf("similar(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// Did you mean, for commands, subcommands and flags (exit 2), and for the
// server's tools, prompts and resources once they are known.
func TestDidYouMean(t *testing.T) {
	se := peers.Node(t, peers.Everything, "stdio")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tols"}, exitUsage, `unknown command "tols" for "jig"; did you mean "tools"?`},
		{[]string{"sessions", "prnue"}, exitUsage, `unknown command "prnue" for "jig sessions"; did you mean "prune"?`},
		{[]string{"auth", "lgin"}, exitUsage, `unknown command "lgin" for "jig auth"; did you mean "login"?`},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate" for "jig"; run 'jig --help' for the commands`},
		{[]string{"sh", "server.sh"}, exitUsage, `unknown command "sh" for "jig"; to open the TUI on it as the server: jig -- sh server.sh`},
		{[]string{"tools", "--dmeo"}, exitUsage, "unknown flag: --dmeo; did you mean --demo?"},
		{[]string{"call", "echo", "--arg", "{}", "--demo"}, exitUsage, "unknown flag: --arg; did you mean --args?"},
		{[]string{"call", "search_ordrs", "--demo", "--no-record"}, exitServerError,
			`the server did not list a tool named "search_ordrs" (did you mean "search_orders"?); sending the call anyway`},
		{append([]string{"prompt", "simple-promt", "--no-record", "--"}, se...), exitServerError,
			`the server did not list a prompt "simple-promt"; did you mean "simple-prompt"?`},
		{append([]string{"read", "demo://resource/static/document/features.mdx", "--no-record", "--"}, se...), exitServerError,
			`did you mean "demo://resource/static/document/features.md"?`},
	}
	for _, tc := range tests {
		code, _, stderr := jig(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("jig %s: exit %d, stderr:\n%s\nwant exit %d and %q", strings.Join(tc.args[:2], " "), code, stderr, tc.code, tc.want)
		}
	}
}

// Bare jig takes a server as jig connect does (after --, or its URL), as
// other inspectors do; anything else before -- is still an unknown command.
func TestRootTakesAServerAfterDashOrAURL(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{nil, true},
		{[]string{"--", "node", "server.js"}, true},
		{[]string{"http://127.0.0.1:3001/mcp"}, true},
		{[]string{"--timeout", "5s", "https://mcp.example.com/mcp"}, true},
		{[]string{"node", "server.js"}, false},
		{[]string{"http://127.0.0.1:3001/mcp", "extra"}, false},
		{[]string{"tols"}, false},
	} {
		root := newRoot(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard})
		if err := root.ParseFlags(tc.args); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		err := noArgsOrCommand(root, root.Flags().Args())
		if (err == nil) != tc.ok {
			t.Errorf("jig %q: noArgsOrCommand = %v, want accepted %v", tc.args, err, tc.ok)
		}
	}
}

// jig read and jig prompt print a JSON-RPC error's object as received on
// stdout, and say on stderr that it is the server's error, not a result
// (stdout alone read like one; jig call labels it).
func TestReadAndPromptSayAnErrorIsNoResult(t *testing.T) {
	for _, args := range [][]string{{"read", "nope://x", "--demo", "--no-record"}, {"prompt", "nosuch", "--demo", "--no-record"}} {
		code, out, errOut := jig(t, "", args...)
		if code != exitServerError || !strings.HasPrefix(out, `{"code":-32602`) || !strings.Contains(errOut, "the server answered with an error, not a result: JSON-RPC error -32602") {
			t.Errorf("jig %s: exit %d\nstdout %s\nstderr %s", args[0], code, out, errOut)
		}
	}
}
