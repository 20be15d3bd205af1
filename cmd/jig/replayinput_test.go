package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --input at replay without --config would change nothing (the fixture
// keeps no config file): it is refused, saying how to give the value, not
// silently ignored (fresh8 F30).
func TestReplayInputWithoutConfigIsRefused(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "e.json")
	if code, out, errOut := jig(t, "", "call", "echo", "--args", `{"text":"c"}`, "--demo", "--no-record", "--probe", "0", "--pin", file); code != exitOK {
		t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := jig(t, "", "replay", file, "--input", "tok=xyzzyTOKEN998877")
	if code != exitUsage || !strings.Contains(errOut, "--input only applies with --config FILE --server NAME") || strings.Contains(out+errOut, "xyzzyTOKEN998877") {
		t.Errorf("replay --input: exit %d, want 2 saying it only applies with --config:\n%s\n%s", code, out, errOut)
	}
}
