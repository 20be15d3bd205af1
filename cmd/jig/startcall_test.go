package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectStartCallBadInput: jig connect --tool T --args JSON refuses
// bad arguments before the TUI takes the terminal, naming the input and
// where it breaks.
func TestConnectStartCallBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "args.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"connect", "--demo", "--args", `{"customer":}`}, "--args needs --tool NAME"},
		{[]string{"connect", "--demo", "--tool", "search_orders", "--args", `{"customer":}`}, "--args: invalid JSON at line 1, column 13"},
		{[]string{"demo", "--tool", "search_orders", "--args", `["Acme"]`}, "--args: arguments must be a JSON object, got an array"},
		{[]string{"connect", "--demo", "--tool", "search_orders", "--args", "@" + missing}, "--args @" + missing},
		{[]string{"connect", "--demo", "--tool", "search_orders", "--args", "-"}, "the TUI reads its keys from stdin"},
		{[]string{"connect", "--demo", "--tol", "search_orders"}, `did you mean --tool?`},
	} {
		code, _, errOut := jig(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
}
