package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"
)

// serverEverything is the tail of a jig command line that starts
// server-everything over stdio (PEERS.md).
func serverEverything(t *testing.T) []string {
	return append([]string{"--"}, peers.Node(t, peers.Everything, "stdio")...)
}

func TestCallProgressOnStderr(t *testing.T) {
	args := append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":1,"steps":4}`, "--progress", "--no-record"}, serverEverything(t)...)
	code, out, errOut := jig(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	for i := 1; i <= 4; i++ {
		if want := "jig: progress " + string(rune('0'+i)) + "/4 (after "; !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(out, "progress") || !strings.Contains(out, "Long running operation completed") {
		t.Errorf("stdout should hold the result only:\n%s", out)
	}
}

func TestCallWithoutProgressSendsNoToken(t *testing.T) {
	args := append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":0.2,"steps":2}`, "--frames", "--no-record"}, serverEverything(t)...)
	code, _, errOut := jig(t, "", args...)
	if code != 0 || strings.Contains(errOut, "progressToken") || strings.Contains(errOut, "jig: progress") {
		t.Errorf("without --progress: exit %d and the frames mention a progress token or progress:\n%s", code, errOut)
	}
}

func TestCallCancelAfter(t *testing.T) {
	args := append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":5,"steps":5}`, "--progress", "--cancel-after", "300ms", "--frames", "--no-record"}, serverEverything(t)...)
	code, out, errOut := jig(t, "", args...)
	if code != exitCancelled {
		t.Errorf("exit %d, want %d (cancelled by --cancel-after, not a timeout)", code, exitCancelled)
	}
	// --frames shows the cancellation on the wire, naming the call's request.
	// The elapsed time counts from when the timer was armed, so it is at
	// least what was asked; how much more depends on the machine's load, and
	// that it is less than the call's 5 s is what exit 4 (not a result) says.
	m := regexp.MustCompile(`cancelled after (\S+) as --cancel-after asked`).FindStringSubmatch(errOut)
	if m == nil {
		t.Errorf("stderr lacks the time the call was cancelled after:\n%s", errOut)
	} else if d, err := time.ParseDuration(m[1]); err != nil || d < 300*time.Millisecond {
		t.Errorf("cancelled after %q: want a duration of at least the 300ms asked (%v)", m[1], err)
	}
	for _, want := range []string{"as --cancel-after asked", "notifications/cancelled for request id=", `"method":"notifications/cancelled"`, `"requestId":`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out != "" {
		t.Errorf("a cancelled call prints no result on stdout, got:\n%s", out)
	}
}

func TestCallCancelAfterUsage(t *testing.T) {
	code, _, errOut := jig(t, "", "call", "echo", "--cancel-after", "1s", "--pin", "x.json", "--demo")
	if code != exitUsage || !strings.Contains(errOut, "a cancelled call has no response to pin") {
		t.Errorf("--cancel-after with --pin: exit %d, stderr %s; want a usage error", code, errOut)
	}
}

// server-everything's resource templates, listed by resources --templates:
// readable, and with --json the raw array as the server sent it.
func TestResourcesTemplates(t *testing.T) {
	se := serverEverything(t)
	code, out, errOut := jig(t, "", append([]string{"resources", "--templates", "--no-record"}, se...)...)
	if code != exitOK || !strings.Contains(out, "2 resource templates\n  demo://resource/dynamic/text/{resourceId}  ") {
		t.Errorf("resources --templates: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, errOut = jig(t, "", append([]string{"resources", "--templates", "--json", "--no-record"}, se...)...)
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); code != exitOK || err != nil {
		t.Fatalf("resources --templates --json: exit %d, %v; stdout:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
	if len(raw) != 2 || raw[1]["uriTemplate"] != "demo://resource/dynamic/blob/{resourceId}" || raw[1]["name"] != "Dynamic Blob Resource" {
		t.Errorf("resources --templates --json printed %v, want server-everything's 2 templates as sent", raw)
	}
	if code, _, errOut := jig(t, "", "prompts", "--templates", "--demo"); code != exitUsage {
		t.Errorf("prompts --templates: exit %d, want %d (only resources has templates); stderr:\n%s", code, exitUsage, errOut)
	}
}

// --timeout is the call's own time: a server slow to start (3s here, before
// it execs) is bounded by the connection's clock, not charged to the call.
func TestCallTimeoutExcludesStartup(t *testing.T) {
	ev := peers.Node(t, peers.Everything, "stdio")
	// The start-up (7 s and node's own) and the call (7 s) each fit the
	// timeout (12 s) with 5 s of room for a loaded machine; together they
	// do not.
	slow := []string{"--", "sh", "-c", `sleep 7; exec "$@"`, "sh"}
	args := append([]string{"call", "trigger-long-running-operation", "--args", `{"duration":7,"steps":2}`, "--timeout", "12s", "--no-record"}, append(slow, ev...)...)
	code, out, errOut := jig(t, "", args...)
	if code != 0 || !strings.Contains(out, "Long running operation completed") {
		t.Errorf("a 7s call with --timeout 12s on a server that starts in 7s: exit %d\n%s%s", code, out, errOut)
	}
}
