package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/record"
)

// The first client session takes --record FILE, the next ones FILE-2, FILE-3.
func TestProxySessionFiles(t *testing.T) {
	dir := t.TempDir()
	first := frames.NewLog(nil)
	opts := record.Options{Path: filepath.Join(dir, "run.jsonl"), Target: []byte(`{"transport":"http"}`), Mode: "proxy"}
	path, closer, err := record.ForLog(first, opts)
	if err != nil {
		t.Fatal(err)
	}
	files := &sessionFiles{first: recorded{log: first, path: path, closer: closer}, opts: opts}
	a, b, c := files.logFor("sess-a"), files.logFor("sess-b"), files.logFor("")
	if a != first || files.logFor("sess-a") != a || b == a || c == a || c == b {
		t.Fatalf("logFor gave the same Log to different sessions, or a new one to the same")
	}
	for i, l := range []*frames.Log{a, b, c} {
		l.Append(frames.Frame{Dir: frames.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
		_ = i
	}
	var errb bytes.Buffer
	files.close(&streams{err: &errb})
	for _, name := range []string{"run.jsonl", "run-2.jsonl", "run-3.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, want := range []string{"run.jsonl (client session sess-a)", "run-2.jsonl (client session sess-b)", "run-3.jsonl (traffic of no client session)"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
