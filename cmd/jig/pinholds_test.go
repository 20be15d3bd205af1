package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"
)

// pinThenReplay pins one call of server with --pin and replays the fixture
// against the unchanged server once the wall clock has moved to another
// second (a clock time the server writes is then another one), and returns
// the fixture, pin's stderr and replay's output.
func pinThenReplay(t *testing.T, server []string, tool, args string) (fixture map[string]any, pinErr, replayOut string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "f.json")
	code, _, stderr := jig(t, "", append([]string{"call", tool, "--args", args, "--no-record", "--pin", file, "--"}, server...)...)
	if code != exitOK {
		t.Fatalf("pin %s: exit %d\n%s", tool, code, stderr)
	}
	pinned := time.Now()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fixture); err != nil {
		t.Fatal(err)
	}
	// Not a timed wait for an event: the replay must come in another
	// second of the clock than the pin, which is what the test is about.
	for time.Now().Truncate(time.Second).Equal(pinned.Truncate(time.Second)) {
		time.Sleep(50 * time.Millisecond)
	}
	code, stdout, rerr := jig(t, "", append([]string{"replay", file, "--no-record", "--"}, server...)...)
	if code != exitOK {
		t.Errorf("replay of %s on the unchanged server, just pinned: exit %d\npin said:\n%s\nreplay said:\n%s%s\nfixture:\n%s", tool, code, stderr, stdout, rerr, b)
	}
	return fixture, stderr, stdout + rerr
}

// F1: a read-only tool whose answer says what time it is pins to a fixture
// that stays green on the unchanged server — the time as text
// (toLocaleTimeString's "8:25:58 PM") and the same inside a base64 blob of
// text — whether or not the pin's two calls fell in the same second.
func TestAPinnedClockReadingStaysGreen(t *testing.T) {
	server := peers.Node(t, peers.Everything, "stdio")
	for _, args := range []string{`{"resourceId":2,"resourceType":"Text"}`, `{"resourceId":3,"resourceType":"Blob"}`} {
		t.Run(args, func(t *testing.T) {
			f, stderr, _ := pinThenReplay(t, server, "get-resource-reference", args)
			if rules, _ := f["rules"].([]any); len(rules) == 0 {
				t.Errorf("no rule proposed for the clock time:\n%s", stderr)
			}
		})
	}
}

// F2: what pin proposes holds on the response it was proposed from, as
// replay evaluates it. The go-sdk server's results carry the protocol's own
// _meta (io.modelcontextprotocol/serverInfo, icons and all), which replay
// does not compare; pin proposed "min-length 1" on its icons, and the first
// replay of the unchanged server was red.
func TestPinProposesOnlyWhatReplayCanHold(t *testing.T) {
	server := []string{peers.Path(t, peers.GoSDKEverything)}
	for _, tc := range []struct{ tool, args string }{{"greet", `{"name":"Ada"}`}, {"greet (structured)", `{"name":"Ada"}`}} {
		t.Run(tc.tool, func(t *testing.T) {
			f, stderr, _ := pinThenReplay(t, server, tc.tool, tc.args)
			b, _ := json.Marshal(f["assertions"])
			if strings.Contains(string(b), "_meta") {
				t.Errorf("pin proposed assertions on the protocol's _meta: %s\n%s", b, stderr)
			}
		})
	}
}
