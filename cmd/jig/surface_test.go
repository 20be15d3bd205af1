package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// Save, diff against the same server and a drifted one, accept, and pin a
// replay with it: the whole rug-pull loop on the demo server.
func TestSurfaceSaveDiffAccept(t *testing.T) {
	dir := t.TempDir()
	pin := filepath.Join(dir, "surface.json")
	code, out, errOut := jig(t, "", "surface", "save", "--demo", "--no-record", "--output", pin)
	if code != exitOK || out != "" {
		t.Fatalf("surface save: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if code, out, _ := jig(t, "", "surface", "diff", pin, "--demo", "--no-record"); code != exitOK || !strings.Contains(out, "no changes, 10 items unchanged") {
		t.Errorf("the same server: exit %d\n%s", code, out)
	}
	code, out, _ = jig(t, "", "surface", "diff", pin, "--demo", "--release", "2", "--no-record")
	for _, want := range []string{`tool "search_orders" changed (breaking)`, `(format of "since" added: "date": calls valid before may now be rejected)`,
		`(allowed values of "orders[].status": "shipped" removed; "dispatched" added)`, `note: server version "1.0.0" → "2.0.0"`} {
		if !strings.Contains(out, want) {
			t.Errorf("release 2: the diff lacks %q:\n%s", want, out)
		}
	}
	if code != exitServerError {
		t.Errorf("release 2: exit %d, want %d", code, exitServerError)
	}
	if code, _, _ := jig(t, "", "surface", "diff", pin, "--demo", "--release", "2", "--no-record", "--fail-on", "breaking"); code != exitServerError {
		t.Errorf("--fail-on breaking with a breaking change: exit %d", code)
	}

	// jig replay --surface fails on the unaccepted change and says how to accept it.
	fx := filepath.Join(dir, "fixtures")
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--no-record", "--pin", filepath.Join(fx, "echo.json")); code != exitOK {
		t.Fatalf("pin: exit %d: %s", code, errOut)
	}
	code, out, errOut = jig(t, "", "replay", fx, "--surface", pin, "--demo", "--release", "2")
	if code != exitServerError || !strings.Contains(out, "Surface ("+pin+"): 1 change (1 breaking)") ||
		!strings.Contains(out, "jig surface diff "+pin+" --demo --release 2 --update --reason") {
		t.Errorf("replay --surface against release 2: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := jig(t, "", "replay", fx, "--surface", pin); code != exitOK || !strings.Contains(out, "no changes") {
		t.Errorf("replay --surface against the fixtures' own target: exit %d\n%s", code, out)
	}

	t.Setenv("CI", "")
	if code, out, errOut := jig(t, "", "surface", "diff", pin, "--demo", "--release", "2", "--no-record", "--update", "--reason", "v2 documents dates"); code != exitOK || !strings.Contains(out, "accepted tool search_orders") {
		t.Fatalf("--update: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := jig(t, "", "replay", fx, "--surface", pin, "--demo", "--release", "2"); code != exitOK {
		t.Errorf("replay --surface after accepting: exit %d\n%s", code, out)
	}
	b, _ := os.ReadFile(pin)
	if !strings.Contains(string(b), `"reason": "v2 documents dates"`) {
		t.Errorf("the accepted file has no history entry:\n%s", b)
	}
}

func TestSurfaceDiffBadInput(t *testing.T) {
	t.Setenv("CI", "") // the usage errors first; CI's refusal is checked below
	dir := t.TempDir()
	notSurface := filepath.Join(dir, "tools.json")
	os.WriteFile(notSurface, []byte(`{"tools":[]}`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"surface", "diff", notSurface, "--demo"}, "tools.json: not a surface file"},
		{[]string{"surface", "diff", filepath.Join(dir, "missing.json"), "--demo"}, "missing.json"},
		{[]string{"surface", "diff", notSurface, notSurface, "--update", "--reason", "x"}, "give a target, not a second file"},
		{[]string{"surface", "diff", notSurface, "--demo", "--reason", "x"}, "only with --update"},
		{[]string{"surface", "diff", notSurface, "--demo", "--fail-on", "never"}, `--fail-on "never"`},
	} {
		code, _, errOut := jig(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
	t.Setenv("CI", "true")
	pin := filepath.Join(dir, "s.json")
	jig(t, "", "surface", "save", "--demo", "--no-record", "--output", pin)
	if code, _, errOut := jig(t, "", "surface", "diff", pin, "--demo", "--update", "--reason", "x"); code != exitUsage || !strings.Contains(errOut, "CI=true") {
		t.Errorf("--update under CI: exit %d, %s", code, errOut)
	}
}

// surface save counts resources as jig resources does, and templates
// apart: server-everything's 7 resources and 2 templates read "9 resources".
func TestSurfaceSaveCountsTemplatesApart(t *testing.T) {
	pin := filepath.Join(t.TempDir(), "surface.json")
	args := append([]string{"surface", "save", "--no-record", "--output", pin, "--"}, peers.Node(t, peers.Everything, "stdio")...)
	code, _, errOut := jig(t, "", args...)
	if code != exitOK || !strings.Contains(errOut, "(16 tools, 7 resources, 2 resource templates, 4 prompts)") {
		t.Errorf("surface save: exit %d, stderr %s", code, errOut)
	}
}

// A bare URL is the server at it in surface diff too, as in every other
// command (it was read as a second surface file: "stat http://…: no such
// file"); and the command save suggests names the server it saved.
func TestSurfaceDiffTakesABareURL(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	pin := filepath.Join(t.TempDir(), "surface.json")
	code, _, errOut := jig(t, "", "surface", "save", url, "--no-record", "--output", pin)
	if code != exitOK || !strings.Contains(errOut, "compare it later with: jig surface diff "+pin+" "+url+"\n") {
		t.Fatalf("surface save URL: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := jig(t, "", "surface", "diff", pin, url, "--no-record"); code != exitOK || !strings.Contains(out, "no changes") {
		t.Errorf("surface diff FILE URL: exit %d\n%s%s", code, out, errOut)
	}
	demo := filepath.Join(t.TempDir(), "demo.json")
	if code, _, errOut := jig(t, "", "surface", "save", "--demo", "--release", "2", "--no-record", "--output", demo); code != exitOK ||
		!strings.Contains(errOut, "jig surface diff "+demo+" --demo --release 2\n") {
		t.Errorf("surface save --demo --release 2: exit %d\n%s", code, errOut)
	}
}
