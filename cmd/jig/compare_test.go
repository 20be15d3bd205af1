package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// recordDemo records a session against the demo server's release with one
// tools/call per argument set, as jig --record would, and returns the file.
func recordDemo(t *testing.T, release int, tool string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	target := session.Target{Transport: session.TransportDemo, Release: release}
	tw, err := frames.CreateTranscript(path, frames.Header{Jig: session.Version, Started: time.Now(), Target: target.JSON(), Mode: "session"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	log := frames.NewLog(nil)
	log.AddSink(tw)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: target, Log: log})
	if err != nil {
		t.Fatalf("demo release %d: %v", release, err)
	}
	defer s.Close()
	if _, _, err := s.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	for _, a := range args {
		if _, err := s.CallTool(ctx, tool, json.RawMessage(a)); err != nil {
			t.Fatalf("%s %s: %v", tool, a, err)
		}
	}
	return path
}

// callSeqs are the sequence numbers of a transcript's tools/call requests.
func callSeqs(t *testing.T, path string) []string {
	t.Helper()
	x, err := frames.OpenIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var out []string
	for i := 0; i < x.Len(); i++ {
		if f := x.Frame(i); f.Kind == frames.KindRequest && f.Method == "tools/call" {
			out = append(out, path+"#"+strconv.FormatInt(f.Seq, 10))
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	one := recordDemo(t, 1, "search_orders",
		`{"customer":"Acme Corp","since":"2026-01-01"}`,
		`{"customer":"Acme Corp","since":"2026-03-01"}`,
		`{"customer":"Acme Corp","since":"2026-01-01"}`)
	two := recordDemo(t, 2, "search_orders", `{"since":"2026-01-01","customer":"Acme Corp"}`)
	calls := callSeqs(t, one)
	if len(calls) != 3 {
		t.Fatalf("the recording has %d tools/call requests, want 3", len(calls))
	}
	// The first call's response is the frame after its request.
	seq, _ := strconv.Atoi(calls[0][strings.LastIndex(calls[0], "#")+1:])
	respOfFirst := one + "#" + strconv.Itoa(seq+1)

	tests := []struct {
		name      string
		a, b      string
		code      int
		stdout    []string
		notStdout []string
		stderr    string
	}{
		{name: "same call twice in one file", a: calls[0], b: calls[2], code: exitOK,
			stdout: []string{"same arguments", "✓ no drift"}},
		// Two calls that differ in one argument: what differs is a
		// difference that argument made, not drift, and nothing says to
		// change one input at a time (only one moved).
		{name: "one argument moved", a: calls[0], b: calls[1], code: exitServerError,
			stdout:    []string{"1 argument differs: since", "result.structuredContent.count", "≠ the responses differ", "    A ", "    B "},
			notStdout: []string{"drift", "expected", "actual", "Several inputs", "one at a time", "breaking"}},
		{name: "across files: release 2 renamed customer_name", a: one, b: two, code: exitServerError,
			stdout: []string{"same arguments", "orders[0].customer_name", "BREAKING drift"}},
		// The sides are labelled with the addresses the user gave, and
		// the request a response answers is named beside it.
		{name: "a response frame names its call", a: respOfFirst, b: two + "#8", code: exitServerError,
			stdout: []string{"customer_name", "A: " + respOfFirst + " (the response to request #" + strconv.Itoa(seq) + ") tools/call", "B: " + two + "#8 "}},
		{name: "missing file", a: filepath.Join(t.TempDir(), "none.jsonl"), b: one, code: exitUsage, stderr: "none.jsonl: open"},
		{name: "not a tools/call", a: one + "#1", b: one, code: exitUsage, stderr: "frame #1 is a server/discover request, not a tools/call request or response (list the calls with: jig open"},
		{name: "no such frame", a: one + "#9999", b: one, code: exitUsage, stderr: "there is no frame #9999"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jig(t, "", "compare", tt.a, tt.b)
			if code != tt.code {
				t.Errorf("jig compare %s %s: exit %d, want %d\n%s%s", tt.a, tt.b, code, tt.code, out, errOut)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notStdout {
				if strings.Contains(out, w) {
					t.Errorf("stdout says %q, which contradicts the comparison:\n%s", w, out)
				}
			}
			if tt.stderr != "" && !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
		})
	}
}
