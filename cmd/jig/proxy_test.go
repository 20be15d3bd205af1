package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// runCmd runs one jig command (proxy, sessions) through the run seam.
func runCmd(t *testing.T, name, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return jig(t, stdin, append([]string{name}, args...)...)
}

func TestProxyCommandStdio(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	script := `read line; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; echo oops >&2; exit 3`
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	code, out, errOut := runCmd(t, "proxy", req, "--record", rec, "--", "sh", "-c", script)
	if code != 3 {
		t.Errorf("exit code = %d, want the server's 3 (stderr: %s)", code, errOut)
	}
	if out != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("stdout = %q: only the server's bytes may reach the client", out)
	}
	if !strings.HasPrefix(errOut, "oops\n") || !strings.Contains(errOut, "recorded 4 frames to "+rec) {
		t.Errorf("stderr = %q, want the server's stderr, then where the recording went", errOut)
	}
	f, _ := os.Open(rec)
	defer f.Close()
	tr, err := frames.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 4 || tr.Partner(0) != 1 && tr.Partner(0) != 2 || tr.Header.Mode != "proxy" {
		t.Errorf("recording: %d frames, ping partner %d, mode %q", tr.Len(), tr.Partner(0), tr.Header.Mode)
	}
	var target struct{ Command []string }
	json.Unmarshal(tr.Header.Target, &target)
	if len(target.Command) != 3 || target.Command[0] != "sh" {
		t.Errorf("header target = %s", tr.Header.Target)
	}
}

func TestProxyCommandUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--listen", "127.0.0.1:0"},
		{"--listen", "127.0.0.1:0", "--target", "http://x", "--", "node"},
		{"--record", "x", "--no-record", "--", "node"},
		{"--listen", "127.0.0.1:0", "--target", "ftp://x"},
	} {
		if code, _, errOut := runCmd(t, "proxy", "", args...); code != exitUsage {
			t.Errorf("jig proxy %q: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
}

func TestSessionsCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	for range 3 {
		if code, _, errOut := runCmd(t, "proxy", "", "--", "sh", "-c", "echo '{\"jsonrpc\":\"2.0\",\"method\":\"hi\"}'"); code != 0 {
			t.Fatalf("proxy: exit %d: %s", code, errOut)
		}
	}
	code, out, errOut := runCmd(t, "sessions", "")
	if code != 0 || strings.Count(out, "\n") != 4 || !strings.Contains(out, "sh -c") || !strings.Contains(out, filepath.Join(dir, "jig", "sessions")) {
		t.Errorf("jig sessions: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "sessions", "", "prune", "--keep", "1")
	if code != 0 || strings.Count(out, "deleted ") != 2 {
		t.Errorf("jig sessions prune --keep 1: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "sessions", "", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || len(list) != 1 || list[0]["frames"].(float64) != 2 {
		t.Errorf("jig sessions --json after pruning: %v\n%s", err, out)
	}
	if code, _, _ := runCmd(t, "sessions", "", "prune"); code != exitUsage {
		t.Errorf("prune with no limit: exit %d, want %d", code, exitUsage)
	}
}

// The proxied server runs with the signal dispositions it would have without
// jig: the proxy ignored SIGPIPE, and a server inherits what is ignored.
func TestProxiedServerKeepsDefaultSignals(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	code, _, errOut := runCmd(t, "proxy", "", "--no-record", "--", "sh", "-c", "grep SigIgn /proc/self/status >&2")
	if code != 0 || !strings.Contains(errOut, "SigIgn:") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var mask uint64
	fmt.Sscanf(strings.TrimSpace(errOut[strings.Index(errOut, "SigIgn:")+len("SigIgn:"):]), "%x", &mask)
	if mask&(1<<(13-1)) != 0 {
		t.Errorf("the proxied server runs with SIGPIPE ignored (SigIgn %016x): it would not die of a closed pipe as it does without jig", mask)
	}
}

// TestProxyStartedAgainRecordsBeside starts the stdio proxy twice with the
// same --record FILE, as a client's MCP config does once per session: the
// second start used to refuse ("already exists"), which took the client's
// server away; now the earlier recording is kept untouched and the new
// session goes to FILE-2, and it says so.
func TestProxyStartedAgainRecordsBeside(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl")
	script := `read line; echo '{"jsonrpc":"2.0","id":1,"result":{}}'`
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	if code, _, errOut := runCmd(t, "proxy", req, "--record", rec, "--", "sh", "-c", script); code != 0 {
		t.Fatalf("first start: exit %d\n%s", code, errOut)
	}
	first, _ := os.ReadFile(rec)
	for n := 2; n <= 3; n++ {
		code, out, errOut := runCmd(t, "proxy", req, "--record", rec, "--", "sh", "-c", script)
		next := filepath.Join(dir, fmt.Sprintf("run-%d.jsonl", n))
		if code != 0 || out != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" ||
			!strings.Contains(errOut, rec+" holds an earlier session (kept); recording this one to "+next) {
			t.Fatalf("start %d: exit %d, stdout %q, stderr:\n%s", n, code, out, errOut)
		}
		b, err := os.ReadFile(next)
		if err != nil || !strings.Contains(string(b), `"method":"ping"`) {
			t.Fatalf("start %d: %s: %v\n%s", n, next, err, b)
		}
	}
	if after, _ := os.ReadFile(rec); string(after) != string(first) {
		t.Errorf("the first recording changed:\n%s\n%s", first, after)
	}
}

// TestMockStartedAgainRecordsBeside: jig mock in a client's config is
// started once per session too.
func TestMockStartedAgainRecordsBeside(t *testing.T) {
	dir := t.TempDir()
	fx := filepath.Join(dir, "fx", "echo.json")
	if code, _, errOut := jig(t, "", "call", "echo", "--demo", "--args", `{"text":"x"}`, "--pin", fx, "--no-record"); code != exitOK {
		t.Fatalf("pin: exit %d\n%s", code, errOut)
	}
	rec := filepath.Join(dir, "mock.jsonl")
	for n := 1; n <= 2; n++ {
		code, _, errOut := jig(t, "", "mock", filepath.Dir(fx), "--record", rec)
		if code != exitOK {
			t.Fatalf("start %d: exit %d\n%s", n, code, errOut)
		}
		if n == 2 && !strings.Contains(errOut, rec+" holds an earlier session (kept); recording this one to "+filepath.Join(dir, "mock-2.jsonl")) {
			t.Errorf("start 2 does not say where it records:\n%s", errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mock-2.jsonl")); err != nil {
		t.Error(err)
	}
}

// TestProxyRecordsToANamedPipe: --record names a file that is no
// recording — a named pipe a reader streams the recording from, /dev/null —
// and the proxy writes there. It said "holds an earlier session (kept)" and
// recorded to FILE-2 beside it (/dev/null-2 in /dev), leaving the pipe's
// reader waiting for ever.
func TestProxyRecordsToANamedPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "rec")
	start := make(chan struct{})
	close(start)
	got := slowDisk(t, pipe, start)
	script := `read line; echo '{"jsonrpc":"2.0","id":1,"result":{}}'`
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	code, out, errOut := runCmd(t, "proxy", req, "--record", pipe, "--", "sh", "-c", script)
	if w, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close() // the reader is still waiting for a writer: let it go
	}
	b := <-got
	if code != 0 || out != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" || strings.Contains(errOut, "earlier session") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if _, err := os.Lstat(pipe + "-2"); err == nil {
		t.Errorf("the proxy recorded beside the pipe, to %s-2", pipe)
	}
	tr, err := frames.ReadTranscript(strings.NewReader(string(b)))
	if err != nil || tr.Len() != 3 || !strings.Contains(string(b), `"method":"ping"`) {
		t.Fatalf("the pipe's reader got %d bytes (%v):\n%s", len(b), err, b)
	}
}

// TestProxyRecordingToAPipeNobodyReads: --record names a named pipe nobody
// reads. open(2) waited for a reader for ever, deaf to SIGTERM, before the
// server was started; jig now waits record.PipeWait and exits 2 saying so,
// and starts no server.
func TestProxyRecordingToAPipeNobodyReads(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "rec")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	started := filepath.Join(dir, "started")
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	code, out, errOut := runCmd(t, "proxy", req, "--record", pipe, "--", "sh", "-c", "touch "+started+"; cat")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "rec: nothing reads this named pipe") || !strings.Contains(errOut, "start its reader first") {
		t.Errorf("exit %d, stdout %q, want 2 and why:\n%s", code, out, errOut)
	}
	if _, err := os.Stat(started); err == nil {
		t.Errorf("the server was started with nowhere to record")
	}
}
