package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// jig sessions shows who spoke (the server, from the handshake frames) and
// shortens a long TARGET in the middle, keeping the command and the file it
// runs; prune --dry-run says when nothing matches instead of printing nothing.
func TestSessionsListAndDryRun(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	long := filepath.Join(t.TempDir(), "a-rather-long-directory-name", "server")
	code, _, stderr := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--record", filepath.Join(dir, "echo.jsonl"),
		"--", "sh", "-c", `exec "$0" serve-demo`, bin, long)
	if code != exitOK {
		t.Fatalf("jig call: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := jig(t, "", "sessions", "--dir", dir)
	if code != exitOK {
		t.Fatalf("jig sessions: exit %d\n%s", code, stderr)
	}
	row := strings.Split(strings.TrimSpace(stdout), "\n")[1]
	if !strings.Contains(stdout, "SERVER") || !strings.Contains(row, "jig-demo 1.0.0") {
		t.Errorf("jig sessions does not name the server:\n%s", stdout)
	}
	if !strings.Contains(row, "sh -c exec") || !strings.Contains(row, "…") || !strings.Contains(row, "name/server") {
		t.Errorf("TARGET is not shortened in the middle (the command and its end kept):\n%s", stdout)
	}
	code, stdout, stderr = jig(t, "", "sessions", "prune", "--dir", dir, "--older-than", "720h", "--dry-run")
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "no session matches (started more than 720h0m0s ago) (of 1 in "+dir+"); nothing was deleted") {
		t.Errorf("prune --dry-run with nothing to delete: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = jig(t, "", "sessions", "prune", "--dir", dir, "--keep", "0", "--older-than", "1ns", "--dry-run")
	if code != exitOK || !strings.Contains(stdout, "would delete "+filepath.Join(dir, "echo.jsonl")) || !strings.Contains(stderr, "1 session would be deleted") {
		t.Errorf("prune --dry-run: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}
