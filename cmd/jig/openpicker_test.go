package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenWithoutFile: jig open with no FILE picks from the recorded
// sessions; without a terminal it names the newest and how to open one,
// and with none recorded it says where it looked and how to record one.
func TestOpenWithoutFile(t *testing.T) {
	empty := t.TempDir()
	code, _, errOut := jig(t, "", "open", "--dir", empty)
	if code != exitUsage || !strings.Contains(errOut, "no recorded sessions in "+empty) || !strings.Contains(errOut, "jig open FILE") {
		t.Errorf("jig open on an empty directory: exit %d, %q", code, errOut)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "echo.jsonl")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--record", path); code != exitOK {
		t.Fatalf("jig call --record: exit %d\n%s", code, errOut)
	}
	code, _, errOut = jig(t, "", "open", "--dir", dir)
	if code != exitUsage || !strings.Contains(errOut, "on a terminal jig open shows a picker") || !strings.Contains(errOut, path+"   (newest)") {
		t.Errorf("jig open without a terminal: exit %d, %q", code, errOut)
	}
	if strings.Contains(errOut, "requires at least 1 arg") {
		t.Errorf("jig open without FILE is cobra's complaint: %q", errOut)
	}
}
