package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session/peers"
)

// A recording of a server whose URL held a secret keeps it redacted; jig
// open must not reproduce on that URL with the placeholder as the key (the
// fixture side, replay, refuses it the same way).
func TestOpenDoesNotReproduceOnAPlaceholder(t *testing.T) {
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp?api_key=sekrit123456", port)
	if code, _, errOut := jig(t, "", "call", "echo", "--args", `{"message":"hi"}`, "--record", rec, "--url", url); code != 0 {
		t.Fatalf("call: exit %d\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(rec); strings.Contains(string(b), "sekrit123456") || !strings.Contains(string(b), "[REDACTED") {
		t.Fatalf("the recording does not keep the URL's secret redacted (the test proves nothing):\n%.600s", b)
	}
	f, err := importer.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := &openOptions{}
	repro, err := o.reproduceOptions(f.Header.Target)
	if err != nil || repro == nil {
		t.Fatalf("the recording's target: %v, %v", repro, err)
	}
	if why := placeholderTarget(repro.Target); !strings.Contains(why, "the recording's url has a redacted secret") || !strings.Contains(why, "--url URL") {
		t.Errorf("placeholderTarget = %q, want it to refuse the URL and say how to give it", why)
	}
	o.target.url = url
	if !o.targetGiven() {
		t.Errorf("a --url given is the server to reproduce on")
	}
}
