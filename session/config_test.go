package session

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/peers"
)

func writeConfig(t *testing.T, rel, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Each client's file shape, with its type field and variable syntax, reads
// to the target that client would connect to.
func TestConfigShapes(t *testing.T) {
	t.Setenv("JIG_TEST_TOKEN", "s3cret")
	t.Setenv("JIG_TEST_EMPTY", "")
	tests := []struct {
		name, rel, body, server string
		transport               Transport
		want                    func(t *testing.T, e Target)
	}{
		{"Claude Desktop", "claude_desktop_config.json",
			`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server-fs", "/tmp"], "env": {"KEY": "${JIG_TEST_TOKEN}"}}}}`,
			"fs", TransportStdio, func(t *testing.T, e Target) {
				if strings.Join(e.Command, " ") != "npx -y server-fs /tmp" || e.Env["KEY"] != "s3cret" {
					t.Errorf("%+v", e)
				}
			}},
		{"Claude Code .mcp.json", ".mcp.json",
			`{"mcpServers": {"api": {"type": "http", "url": "${JIG_TEST_BASE:-http://127.0.0.1:9/mcp}", "headers": {"Authorization": "Bearer ${JIG_TEST_TOKEN}"}},
			  "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}, "empty": {"command": "srv", "args": ["${JIG_TEST_EMPTY:-fallback}"]}}}`,
			"api", TransportStreamable, func(t *testing.T, e Target) {
				if e.URL != "http://127.0.0.1:9/mcp" || e.Headers["Authorization"] != "Bearer s3cret" || e.DetectSSE {
					t.Errorf("%+v", e)
				}
			}},
		{"Claude Code sse type", ".mcp.json", `{"mcpServers": {"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}`,
			"old", TransportSSE, func(t *testing.T, e Target) {}},
		{"Claude Code default when empty", ".mcp.json", `{"mcpServers": {"e": {"command": "srv", "args": ["${JIG_TEST_EMPTY:-fallback}"]}}}`,
			"e", TransportStdio, func(t *testing.T, e Target) {
				if e.Command[1] != "fallback" {
					t.Errorf("args %q, want the default for an empty variable", e.Command)
				}
			}},
		{"Cursor", ".cursor/mcp.json",
			`{"mcpServers": {"remote": {"url": "http://127.0.0.1:9/sse", "headers": {"Authorization": "Bearer ${env:JIG_TEST_TOKEN}"}}}}`,
			"remote", TransportStreamable, func(t *testing.T, e Target) {
				if !e.DetectSSE || e.Headers["Authorization"] != "Bearer s3cret" {
					t.Errorf("a url without type must fall back to SSE, and ${env:} expand: %+v", e)
				}
			}},
		{"VS Code .vscode/mcp.json (JSONC, inputs, workspaceFolder)", ".vscode/mcp.json", `{
			// comments and trailing commas, as VS Code writes them
			"inputs": [{"type": "promptString", "id": "api-key", "description": "API key", "password": true}],
			"servers": {
				"local": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/server.js"], "env": {"KEY": "${input:api-key}",},},
			},
		}`, "local", TransportStdio, func(t *testing.T, e Target) {
			if !strings.HasSuffix(e.Command[1], "/server.js") || filepath.Base(filepath.Dir(e.Command[1])) == ".vscode" || e.Env["KEY"] != "typed-in" {
				t.Errorf("%+v", e)
			}
		}},
		{"VS Code settings.json", "settings.json",
			`{"editor.tabSize": 2, "mcp": {"servers": {"gh": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}}`,
			"gh", TransportStreamable, func(t *testing.T, e Target) {}},
		{"Windsurf", "mcp_config.json",
			`{"mcpServers": {"w": {"serverUrl": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "$JIG_TEST_TOKEN"}}}}`,
			"w", TransportStreamable, func(t *testing.T, e Target) {
				if e.URL != "http://127.0.0.1:9/mcp" || e.Headers["X-Key"] != "s3cret" {
					t.Errorf("%+v", e)
				}
			}},
		{"streamable-http type", "mcp.json", `{"mcpServers": {"s": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"}}}`,
			"s", TransportStreamable, func(t *testing.T, e Target) {}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.rel, tc.body)
			tgt, err := LoadConfigTarget(path, tc.server)
			if err != nil {
				t.Fatalf("LoadConfigTarget: %v", err)
			}
			if tgt.Transport != tc.transport {
				t.Errorf("transport %q, want %q", tgt.Transport, tc.transport)
			}
			tgt.Inputs = map[string]string{"api-key": "typed-in"}
			e, err := tgt.Expanded(nil)
			if err != nil {
				t.Fatalf("Expanded: %v", err)
			}
			tc.want(t, e)
			// What is written to disk keeps the references, never the values.
			if js := string(tgt.JSON()); strings.Contains(js, "s3cret") || strings.Contains(js, "typed-in") {
				t.Errorf("the target as recorded holds a secret: %s", js)
			}
			for _, secret := range []string{"s3cret", "typed-in"} {
				if strings.Contains(strings.Join(append(e.Command, e.URL, e.Env["KEY"], e.Headers["Authorization"], e.Headers["X-Key"]), " "), secret) &&
					!containsString(tgt.Secrets(), secret) {
					t.Errorf("%q reached the target but is not among its Secrets() %q", secret, tgt.Secrets())
				}
			}
		})
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// A malformed entry is reported by name and field; the other entries of the
// file stay usable.
func TestConfigMalformedEntryLeavesOthersUsable(t *testing.T) {
	path := writeConfig(t, "mcp.json", `{"mcpServers": {
		"good": {"command": "srv"},
		"bad": {"command": "srv", "args": "--port 3"},
		"worse": {"type": "websocket", "url": "ws://x"},
		"empty": {}
	}}`)
	if _, err := LoadConfigTarget(path, "good"); err != nil {
		t.Errorf("the good entry: %v", err)
	}
	for server, want := range map[string]string{
		"bad":   `server "bad": args: expected an array of strings, got a string`,
		"worse": `server "worse": type "websocket"`,
		"empty": `server "empty": has neither "command" nor "url"`,
	} {
		_, err := LoadConfigTarget(path, server)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "not valid JSON") {
			t.Errorf("%s: %v, want %q", server, err, want)
		}
	}
	// Without --server, the error lists every server, the broken ones with why.
	_, err := LoadConfigTarget(path, "")
	for _, want := range []string{"pick one with --server", "good", "stdio", "bad", "unusable: args"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no --server: %v, want it to contain %q", err, want)
		}
	}
	// Invalid JSON says where.
	broken := writeConfig(t, "broken.json", "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"\n}")
	if _, err := LoadConfigTarget(broken, "a"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("broken JSON: %v, want the line", err)
	}
}

// A reference with no value names the entry, the field and how to give it.
func TestConfigUnsetVariables(t *testing.T) {
	path := writeConfig(t, ".vscode/mcp.json", `{"servers": {"s": {"type": "http", "url": "http://127.0.0.1:9/mcp",
		"headers": {"Authorization": "Bearer ${env:JIG_TEST_UNSET}", "X-Key": "${input:key}"}}}}`)
	tgt, err := LoadConfigTarget(path, "s")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tgt.Expanded(nil)
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("Expanded: %v, want a UsageError", err)
	}
	for _, want := range []string{`server "s": headers.Authorization: environment variable $JIG_TEST_UNSET is not set`, `headers.X-Key: ${input:key} has no value (give it with --input key=VALUE)`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// An Authorization header built from ${env:VAR} reaches the server expanded,
// and the recording holds the reference's place redacted.
func TestConfigHeaderReachesServerRedacted(t *testing.T) {
	t.Setenv("JIG_TEST_TOKEN", "tok-5e3f9a")
	srv, err := demo.New(1)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		return srv
	}, &mcp.StreamableHTTPOptions{Stateless: true})
	url := serveLoopback(t, h) + "/mcp"
	path := writeConfig(t, ".cursor/mcp.json", `{"mcpServers": {"demo": {"url": "`+url+`", "headers": {"Authorization": "Bearer ${env:JIG_TEST_TOKEN}"}}}}`)
	tgt, err := LoadConfigTarget(path, "demo")
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Options{Target: tgt})
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[0] != "Bearer tok-5e3f9a" {
		t.Errorf("the server saw Authorization %q, want the expanded token", got)
	}
	for _, f := range s.Log.Frames() {
		if f.HTTP != nil && strings.Contains(strings.Join(f.HTTP.Headers["Authorization"], ""), "tok-5e3f9a") {
			t.Errorf("frame #%d records the token: %v", f.Seq, f.HTTP.Headers)
		}
	}
}

// Cursor's {"url": "http://host/sse"} is a legacy SSE server: Streamable
// HTTP is refused, and jig falls back as the spec tells clients to.
func TestConfigURLFallsBackToSSE(t *testing.T) {
	mcpgo := peers.Path(t, peers.MCPGo)
	addr := startPeer(t, func(addr string) []string { return []string{mcpgo, "serve", "sse", addr} })
	path := writeConfig(t, ".cursor/mcp.json", `{"mcpServers": {"legacy": {"url": "http://`+addr+`/sse"}}}`)
	tgt, err := LoadConfigTarget(path, "legacy")
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Options{Target: tgt})
	if s.Info().Transport != TransportSSE {
		t.Errorf("transport %q, want sse", s.Info().Transport)
	}
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatalf("ListTools over the SSE fallback: %v\n%s", err, frameText(s.Log))
	}
	var noted bool
	for _, f := range s.Log.Frames() {
		noted = noted || f.Kind == frames.KindTransport && strings.Contains(f.Note, "trying the legacy HTTP+SSE transport")
	}
	if !noted {
		t.Errorf("the fallback is not in the frames")
	}
}

// serveLoopback serves h on a free loopback port until the test ends and
// returns its base URL.
func serveLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := &http.Server{Handler: h}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

func TestMissingInputs(t *testing.T) {
	tgt := Target{Command: []string{"srv", "--token", "${input:tok}"}, Headers: map[string]string{"X": "${input:hdr} ${input:tok}"},
		Env: map[string]string{"K": "${input:env}"}, Inputs: map[string]string{"env": "given"}}
	if got := strings.Join(tgt.MissingInputs(), " "); got != "tok hdr" {
		t.Errorf("MissingInputs = %q, want \"tok hdr\" (each once, in order; given ones left out)", got)
	}
}

// envRefs and expandWith answer a value without '$' without the regexp:
// every reference syntax starts with '$'. If a syntax without one is added
// to envRef (%NAME%, say), this fails.
func TestEnvRefsIsTheRegexp(t *testing.T) {
	texts := []string{"", "plain", "${env:A}", "${input:id}", "${workspaceFolder}", "${userHome}", "${A}",
		"${A:-x}", "$A", "a$", "$", "${", "%A%", "{env:A}", "env:A", "input:x}", "--token=${env:T}x$B"}
	alphabet := []byte("$${}:-_aZ9%envinput ")
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rnd.IntN(16))
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	lookup := func(k string) (string, bool) { return "v-" + k, k != "B" }
	tgt := Target{Inputs: map[string]string{"id": "in"}, Workspace: "/w"}
	for _, s := range texts {
		if got, want := envRefs(s), envRef().FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("envRefs(%q) = %q, the regexp finds %q", s, got, want)
		}
		if strings.IndexByte(s, '$') < 0 {
			if envRef().MatchString(s) {
				t.Fatalf("envRef matches %q, which has no '$': envRefs and expandWith would miss it", s)
			}
			for _, bare := range []bool{false, true} {
				if got, missing := tgt.expandWith(s, lookup, bare); got != s || missing != nil {
					t.Fatalf("expandWith(%q, bare=%v) = %q, %q", s, bare, got, missing)
				}
			}
		}
	}
}
