package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"
)

// A fixture pinned on an unchanged server stays green on the next replays,
// whatever else the probe saw differ: a real
// TypeScript-SDK server whose answer holds a Date.toString() or ISO time, a
// UUID, epoch seconds and milliseconds, a duration, a random ticket and a
// counter (fresh8 F27: the probe's rules replaced the time's, and epoch
// seconds got none, so the fixture was red a second later).
func TestProbedFixtureStaysGreen(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	volatile := volatileServer(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string // server's
		flags []string // pin's
	}{
		{"probe 2", []string{"date"}, []string{"--probe", "2"}},
		{"read-only", []string{"date", "readonly"}, nil},
		{"iso, probe 1", []string{"iso"}, []string{"--probe", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			cmd := slices.Concat(volatile, tc.args)
			// Start at the top of a second, so that the pin's calls most
			// likely fall in the same one, as they do on a fast machine.
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
			args := append(append([]string{"call", "now", "--no-record", "--pin", file}, tc.flags...), "--")
			code, out, errOut := jig(t, "", append(args, cmd...)...)
			if code != exitOK {
				t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
			}
			b, _ := os.ReadFile(file)
			for _, p := range []string{`"/structuredContent/epoch"`, `"/structuredContent/ms"`, `"/content/0/text"`} {
				if !strings.Contains(string(b), `"path": `+p) {
					t.Errorf("no rule for %s:\n%s", p, b)
				}
			}
			for i := range 2 {
				time.Sleep(1100 * time.Millisecond) // another second: the clock moved on
				code, out, errOut := jig(t, "", "replay", file, "--no-record")
				if code != exitOK {
					t.Fatalf("replay %d of the unchanged server: exit %d\n%s\n%s\npin said:\n%s\nfixture:\n%s", i+1, code, out, errOut, errOut, b)
				}
			}
		})
	}
}

// Unprobed, a pin still gives what it knows by shape a rule: the time in
// the text and the epoch seconds and milliseconds beside it (a random
// duration needs a probe to be seen).
func TestUnprobedPinRulesEpochs(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	volatile := volatileServer(t)
	file := filepath.Join(t.TempDir(), "now.json")
	code, out, errOut := jig(t, "", slices.Concat([]string{"call", "now", "--no-record", "--pin", file, "--"}, volatile, []string{"date"})...)
	if code != exitOK {
		t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
	}
	b, _ := os.ReadFile(file)
	for _, want := range []string{`"path": "/structuredContent/epoch"`, `"path": "/structuredContent/ms"`, "Date.toString()", "Unix time near now (seconds)"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the fixture has no %s:\n%s", want, b)
		}
	}
}

// volatileServer is the command of testdata/volatile.mjs, a TypeScript-SDK
// server over stdio; its mode follows as an argument.
func volatileServer(t *testing.T) []string {
	t.Helper()
	server, err := filepath.Abs("testdata/volatile.mjs")
	if err != nil {
		t.Fatal(err)
	}
	return []string{peers.Node(t, peers.TSSDK, "")[0], server, peers.Path(t, peers.TSSDK)}
}
