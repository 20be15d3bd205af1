package mock

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"
)

// tsResult is what testdata/tsclient.mjs prints.
type tsResult struct {
	Server struct {
		Name, Version string
	}
	Protocol     *string
	Tools        []string
	Echo         string
	Miss         string
	Slow         string
	Progress     []float64
	Elicitations []string
	Changed      bool
	Cursors      []string
	URIs         []string
}

func runTSClient(t *testing.T, args ...string) tsResult {
	t.Helper()
	sdk := peers.Path(t, peers.TSSDK)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"testdata/tsclient.mjs", sdk}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, stderr.String())
	}
	var r tsResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("the TypeScript client printed %q: %v\n%s", out, err, stderr.String())
	}
	return r
}

// The official TypeScript SDK's client (legacy era only) against the mock
// of fixtures pinned in the 2026-07-28 era and of a recording with progress
// and an elicitation, over stdio and Streamable HTTP.
func TestTypeScriptClient(t *testing.T) {
	// The fixtures come first, so theirs is the server the mock is.
	rec := recording(t, flowRecording()...)
	// A list_changed the recorded server sent outside any request: over
	// HTTP it comes on the standalone GET stream the client opens.
	changed := recording(t, append(legacyHandshake(), [2]string{s2c, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`})...)
	abs, _ := filepath.Abs(demoFixtures)
	t.Setenv(serveEnv, strings.Join([]string{abs, rec, changed}, string(filepath.ListSeparator)))
	ts := httptest.NewServer(newServer(t, load(t, abs, rec, changed), Options{Speed: 10}).HTTPHandler())
	defer ts.Close()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"stdio", "list,echo,miss,slow,changed", "--", os.Args[0]}},
		{"http", []string{"http", "list,echo,miss,slow,changed", ts.URL + "/mcp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runTSClient(t, c.args...)
			if r.Server.Name != "jig-demo" {
				t.Errorf("server = %+v, want the pinned jig-demo", r.Server)
			}
			if strings.Join(r.Tools, ",") != "echo,search_order,get_report,search_orders" {
				t.Errorf("tools = %v", r.Tools)
			}
			if !r.Changed {
				t.Errorf("the recorded tools/list_changed never reached the TypeScript client")
			}
			if r.Echo != "hi" {
				t.Errorf("echo = %q, want the pinned hi", r.Echo)
			}
			if !strings.Contains(r.Miss, "echo.json") || !strings.Contains(r.Miss, `/arguments/text: recorded "hi", sent "bye"`) {
				t.Errorf("the near miss the client saw: %q", r.Miss)
			}
			// The TypeScript client handles a notification a tick after a
			// response read in the same chunk, and has dropped the
			// progress handler by then: the progress sent just before the
			// answer may not reach its callback (it did cross: the go-sdk
			// client's test counts both). The one before the elicitation
			// must.
			if r.Slow != "done" || len(r.Progress) == 0 || r.Progress[0] != 1 || len(r.Elicitations) != 1 || r.Elicitations[0] != "sure?" {
				t.Errorf("slow = %q, progress %v, elicitations %v; want done after progress 1 and the recorded elicitation", r.Slow, r.Progress, r.Elicitations)
			}
		})
	}
}

// The TypeScript SDK's client against the mock of a fixture whose pinned
// flow held progress and an elicitation, over stdio and Streamable HTTP:
// the progress reaches its callback, the elicitation its handler, and the
// pinned answer comes after them.
func TestTypeScriptClientPinnedFlow(t *testing.T) {
	dir := flowFixture(t)
	t.Setenv(serveEnv, dir)
	ts := httptest.NewServer(newServer(t, load(t, dir), Options{Speed: 10}).HTTPHandler())
	defer ts.Close()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"stdio", "pinnedflow", "--", os.Args[0]}},
		{"http", []string{"http", "pinnedflow", ts.URL + "/mcp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runTSClient(t, c.args...)
			// As in TestTypeScriptClient, the progress sent just before the
			// answer may miss the callback; the one before the elicitation
			// must not.
			if r.Slow != "done" || len(r.Progress) == 0 || r.Progress[0] != 1 || len(r.Elicitations) != 1 || r.Elicitations[0] != "sure?" {
				t.Errorf("echo slow = %q, progress %v, elicitations %v; want done after progress 1 and the pinned elicitation", r.Slow, r.Progress, r.Elicitations)
			}
		})
	}
}

// The official Inspector's CLI against the mock of the demo fixtures, over
// stdio, Streamable HTTP and HTTP+SSE: the pinned tools, the pinned answer,
// and the near-miss error it prints for a call nothing matches.
func TestInspectorCLI(t *testing.T) {
	cli := peers.Path(t, peers.InspectorCLI)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
	abs, _ := filepath.Abs(demoFixtures)
	t.Setenv(serveEnv, abs)
	s := newServer(t, load(t, abs), Options{})
	streamable := httptest.NewServer(s.HTTPHandler())
	defer streamable.Close()
	sse := httptest.NewServer(s.SSEHandler())
	defer sse.Close()
	inspect := func(target []string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", append(append([]string{cli}, target...), args...)...)
		cmd.Dir = filepath.Dir(cli)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, c := range []struct {
		name   string
		target []string
	}{
		{"stdio", []string{os.Args[0]}},
		{"http", []string{streamable.URL + "/mcp", "--transport", "http"}},
		{"sse", []string{sse.URL + "/sse", "--transport", "sse"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := inspect(c.target, "--method", "tools/list")
			if err != nil || !strings.Contains(out, `"name": "search_orders"`) || !strings.Contains(out, `"name": "get_report"`) {
				t.Errorf("tools/list: %v\n%s", err, out)
			}
			out, err = inspect(c.target, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi")
			if err != nil || !strings.Contains(out, `"text": "hi"`) {
				t.Errorf("tools/call echo hi: %v\n%s", err, out)
			}
			out, err = inspect(c.target, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=bye")
			if err == nil || !strings.Contains(out, `closest: `+filepath.Join(abs, "echo.json")+` (/arguments/text: recorded "hi", sent "bye")`) {
				t.Errorf("tools/call echo bye: want the near miss, got %v\n%s", err, out)
			}
		})
	}
}

// The TypeScript SDK's client pages through the resources of a fixture
// pinned from server-everything 2025.11.25 (jig resources --pin): each page
// as the server paginated it, cursor by cursor, over stdio and Streamable
// HTTP.
func TestTypeScriptClientPinnedPages(t *testing.T) {
	abs, _ := filepath.Abs(pagesFixture)
	t.Setenv(serveEnv, abs)
	ts := httptest.NewServer(newServer(t, load(t, abs), Options{}).HTTPHandler())
	defer ts.Close()
	want := pinnedPages(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"stdio", "pages", "--", os.Args[0]}},
		{"http", []string{"http", "pages", ts.URL + "/mcp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runTSClient(t, c.args...)
			if strings.Join(r.Cursors, " ") != strings.Join(want.cursors, " ") || strings.Join(r.URIs, " ") != strings.Join(want.uris, " ") {
				t.Errorf("the TypeScript client paged through cursors %v and %d resources; pinned: %v and %d", r.Cursors, len(r.URIs), want.cursors, len(want.uris))
			}
		})
	}
}
