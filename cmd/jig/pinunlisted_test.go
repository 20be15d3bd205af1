package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// L6: pinning a call of a tool the server does not list pinned its
// "Unknown tool" error as a golden fixture. It pins nothing, exit 2, and
// names what the server does list.
func TestPinOfAnUnlistedToolPinsNothing(t *testing.T) {
	server := peers.Node(t, peers.EverythingOld, "stdio")
	file := filepath.Join(t.TempDir(), "s.json")
	for _, tc := range []struct{ tool, hint string }{{"get-sum", "it lists echo, add"}, {"ad", `did you mean "add"?`}} {
		code, _, stderr := jig(t, "", append([]string{"call", tc.tool, "--args", `{"a":1,"b":2}`, "--no-record", "--pin", file, "--"}, server...)...)
		if code != exitUsage || !strings.Contains(stderr, "nothing pinned to "+file) || !strings.Contains(stderr, tc.hint) {
			t.Errorf("pin of unlisted %s: exit %d, want 2, saying nothing was pinned and %q:\n%s", tc.tool, code, tc.hint, stderr)
		}
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Fatalf("a fixture of an unlisted tool was written (stat: %v)", err)
		}
	}
}

// The same for --append: a step of a tool the server does not list is not
// added to the scenario, and the file is left as it was.
func TestAppendOfAnUnlistedToolAppendsNothing(t *testing.T) {
	server := peers.Node(t, peers.EverythingOld, "stdio")
	file := filepath.Join(t.TempDir(), "s.json")
	if code, _, stderr := jig(t, "", append([]string{"call", "echo", "--args", `{"message":"hi"}`, "--no-record", "--pin", file, "--"}, server...)...); code != 0 {
		t.Fatalf("pin of echo: exit %d\n%s", code, stderr)
	}
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := jig(t, "", append([]string{"call", "get-sum", "--args", `{"a":1,"b":2}`, "--no-record", "--pin", file, "--append", "--"}, server...)...)
	if code != exitUsage || !strings.Contains(stderr, "nothing appended to "+file) || !strings.Contains(stderr, "it lists echo, add") {
		t.Errorf("append of unlisted get-sum: exit %d, want 2, saying nothing was appended and what the server lists:\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("the scenario changed:\n%s", after)
	}
}
