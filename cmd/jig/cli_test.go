package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpjig/jig/session"
)

// jig runs the CLI in-process through the run seam.
func jig(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTargetFlagsToOptions(t *testing.T) {
	tests := []struct {
		name    string
		flags   targetFlags
		command []string
		want    session.Target
		err     string
	}{
		{name: "demo", flags: targetFlags{demo: true, release: 2}, want: session.Target{Transport: session.TransportDemo, Release: 2}},
		{name: "stdio", command: []string{"node", "server.js"}, flags: targetFlags{release: 1, env: []string{"K=V"}, cwd: "/tmp"},
			want: session.Target{Transport: session.TransportStdio, Command: []string{"node", "server.js"}, Env: map[string]string{"K": "V"}, Dir: "/tmp"}},
		{name: "http with header", flags: targetFlags{url: "http://127.0.0.1:1/mcp", headers: []string{"Authorization: Bearer $TOKEN"}},
			want: session.Target{Transport: session.TransportStreamable, URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer $TOKEN"}}},
		{name: "sse", flags: targetFlags{url: "http://127.0.0.1:1/sse", transport: "sse"},
			want: session.Target{Transport: session.TransportSSE, URL: "http://127.0.0.1:1/sse"}},
		{name: "nothing", err: "no server given"},
		{name: "two targets", flags: targetFlags{demo: true, url: "http://x"}, err: "exactly one server"},
		{name: "bad release", flags: targetFlags{demo: true, release: 4}, err: "releases 1, 2 and 3"},
		{name: "bad transport", flags: targetFlags{url: "http://x", transport: "ws"}, err: `--transport "ws"`},
		{name: "bad header", flags: targetFlags{url: "http://x", headers: []string{"NoColon"}}, err: "'Name: value'"},
		{name: "header on stdio", flags: targetFlags{headers: []string{"A: b"}}, command: []string{"x"}, err: "only applies to --url"},
		{name: "bad capability", flags: targetFlags{demo: true, release: 1, capabilities: []string{"telepathy"}}, err: "telepathy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := tt.flags.options(tt.command)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("options() error = %v, want it to mention %q", err, tt.err)
				}
				if exitCode(err) != exitUsage {
					t.Errorf("exit code %d, want %d (usage)", exitCode(err), exitUsage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(opts.Target)
			wantJSON, _ := json.Marshal(tt.want)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("target = %s\nwant     %s", gotJSON, wantJSON)
			}
		})
	}
}

func TestArgsAreCheckedOnlyForJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "args.json")
	os.WriteFile(file, []byte(`{"text": "from a file"}`+"\n"), 0o600)
	tests := []struct {
		flag, stdin, want, err string
	}{
		{flag: `{"customer": 1}`, want: `{"customer": 1}`},
		{flag: "@" + file, want: `{"text": "from a file"}`},
		{flag: "-", stdin: `{"a":"x"}`, want: `{"a":"x"}`},
		{flag: "{\n  \"a\": 1,\n  \"b\": ]\n}", err: "line 3, column 8"},
		{flag: `{"a":1} {"b":2}`, err: "trailing data"},
		{flag: `[1,2]`, err: "must be a JSON object"},
		{flag: "@" + filepath.Join(dir, "missing.json"), err: "missing.json"},
	}
	for _, tt := range tests {
		got, err := readArgs(tt.flag, strings.NewReader(tt.stdin))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("readArgs(%q) error = %v, want %q", tt.flag, err, tt.err)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("readArgs(%q) = %q, %v; want %q exactly", tt.flag, got, err, tt.want)
		}
	}
}

func TestToolsJSONIsOnlyTheServersArray(t *testing.T) {
	code, out, errOut := jig(t, "", "tools", "--demo", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(out), &tools); err != nil {
		t.Fatalf("stdout is not just a JSON array (%v):\n%s", err, out)
	}
	if len(tools) != 6 || tools[len(tools)-1].Name != "search_orders" {
		t.Errorf("tools = %+v, want the demo server's 6 tools", tools)
	}
}

func TestCallExitCodesAndWarnings(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   string
		noStdout bool
	}{
		{name: "seed: last month returns nothing, no error",
			args: []string{"call", "search_orders", "--args", `{"customer":"Acme Corp","since":"last month"}`, "--demo"},
			code: exitOK, stdout: `"count": 0`},
		{name: "truncated result is flagged",
			args: []string{"call", "search_orders", "--args", `{"customer":"Acme Corp","since":"2026-01-01","limit":500}`, "--demo"},
			code: exitOK, stdout: "PARTIAL RESULT: structuredContent.truncated: true, content[0].truncated: true"},
		{name: "tool error is exit 1",
			args: []string{"call", "search_order", "--args", `{"order_id":"ord-0"}`, "--demo"},
			code: exitServerError, stdout: "TOOL ERROR"},
		{name: "schema violation warns and is sent",
			args: []string{"call", "search_orders", "--args", `{"customer":42}`, "--demo", "--protocol-version", "2025-11-25"},
			code: exitServerError, stderr: "/customer"},
		{name: "invalid JSON is a usage error",
			args: []string{"call", "echo", "--args", `{"text":`, "--demo"},
			code: exitUsage, stderr: "invalid JSON", noStdout: true},
		{name: "unreachable server is exit 3",
			args: []string{"call", "echo", "--", "no-such-mcp-server-xyz"},
			code: exitUnreachable, stderr: "no-such-mcp-server-xyz", noStdout: true},
		{name: "--json prints the raw result only",
			args: []string{"call", "echo", "--args", `{"text":"hi"}`, "--demo", "--json"},
			code: exitOK, stdout: `"text":"hi"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := jig(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdout, out)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, errOut)
			}
			if tt.noStdout && out != "" {
				t.Errorf("stdout should be empty, got %q", out)
			}
		})
	}
}

func TestFramesFileHoldsTheHandshake(t *testing.T) {
	path := filepath.Join(t.TempDir(), "frames.txt")
	code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hi"}`, "--demo", "--protocol-version", "2025-11-25", "--frames="+path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"protocol 2025-11-25 (legacy era)", "→ request      initialize id=", "notifications/initialized", `"arguments":{"text":"hi"}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("frames file lacks %q:\n%s", want, b)
		}
	}
}

var buildOnce sync.Once
var builtJig string

// binDir is where binary builds jig: a directory of TestMain's, removed when
// the tests end (a 19 MB binary per run was left in the temp directory).
var binDir string

// binary builds jig once per test run, for tests that need a real process.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		out := filepath.Join(binDir, "jig")
		if b, err := exec.Command("go", "build", "-o", out, ".").CombinedOutput(); err != nil {
			t.Logf("go build: %v\n%s", err, b)
			return
		}
		builtJig = out
	})
	if builtJig == "" {
		t.Fatal("could not build jig")
	}
	return builtJig
}

// A config file in the mcpServers shape that launches `jig serve-demo`: the
// config path, the stdio path and serve-demo all end to end.
func TestConfigTargetRunsServeDemo(t *testing.T) {
	bin := binary(t)
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(cfg, []byte(`{"mcpServers":{"orders":{"command":"`+bin+`","args":["serve-demo","--release","2"]},"other":{"url":"http://127.0.0.1:1/mcp"}}}`), 0o600)
	out, err := exec.Command(bin, "tools", "--config", cfg, "--server", "orders").CombinedOutput()
	if err != nil {
		t.Fatalf("jig tools --config: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "jig-demo 2.0.0") || !strings.Contains(string(out), "6 tools") {
		t.Errorf("output does not show the release-2 demo server's tools:\n%s", out)
	}
	cmd := exec.Command(bin, "tools", "--config", cfg, "--server", "nope")
	out, _ = cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitUsage || !strings.Contains(string(out), "it has: orders, other") {
		t.Errorf("unknown server: exit %d, output %s; want exit 2 listing the servers", cmd.ProcessState.ExitCode(), out)
	}
}

func TestResourcesAndPrompts(t *testing.T) {
	code, out, _ := jig(t, "", "resources", "--demo", "--json")
	if code != exitOK || !strings.Contains(out, `"uri": "demo://readme"`) {
		t.Errorf("resources --json: exit %d\n%s", code, out)
	}
	code, out, _ = jig(t, "", "read", "demo://nope", "--demo")
	if code != exitServerError || !strings.Contains(out, `"code":-32602`) {
		t.Errorf("read of an unknown URI: exit %d, stdout %s; want exit 1 and the JSON-RPC error object", code, out)
	}
	code, out, _ = jig(t, "", "prompt", "triage_report", "--args", `{"customer":"Acme Corp"}`, "--demo")
	if code != exitOK || !strings.Contains(out, "Acme Corp") {
		t.Errorf("prompt: exit %d\n%s", code, out)
	}
}

// A CLI session is recorded as it happens, secrets redacted, and `jig open`
// reads the recording back.
func TestCallIsRecordedAndOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	secret := "sk-planted0123456789abcdefXYZ"
	code, _, errOut := jig(t, "", "call", "echo", "--args", `{"text":"`+secret+`"}`, "--demo", "--record", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) {
		t.Errorf("the recording holds the planted secret:\n%s", b)
	}
	for _, want := range []string{`"type":"header"`, `"key":"session"`, `"method":"tools/call"`, "[REDACTED:api-key]"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the recording lacks %s:\n%s", want, b)
		}
	}
	code, out, errOut := jig(t, "", "open", path, "--text")
	if code != exitOK || !strings.Contains(out, "→ request      tools/call id=") || !strings.Contains(out, "← result       tools/call") {
		t.Errorf("open --text: exit %d\n%s\n%s", code, out, errOut)
	}
	none := filepath.Join(t.TempDir(), "none.jsonl")
	code, _, _ = jig(t, "", "call", "echo", "--args", `{"text":"x"}`, "--demo", "--no-record", "--record", none)
	if _, err := os.Stat(none); code != exitOK || err == nil {
		t.Errorf("--no-record: exit %d, file written: %v; want exit 0 and no file", code, err == nil)
	}
}

// Bare `jig` is the README's first command: it must carry the same flags and
// defaults as `jig demo`, or it fails before the TUI starts.
func TestBareJigIsTheDemoWithDefaults(t *testing.T) {
	root := newRoot(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard})
	for flag, def := range map[string]string{"release": "1", "timeout": "30s", "grace": "200ms", "protocol-version": "auto"} {
		f := root.Flags().Lookup(flag)
		if f == nil || f.DefValue != def {
			t.Errorf("jig --%s: %v, want a flag defaulting to %s", flag, f, def)
		}
	}
	// Validation happens before the TUI starts, so a bad value is a usage error.
	code, _, errOut := jig(t, "", "--release", "4")
	if code != exitUsage || !strings.Contains(errOut, "releases 1, 2 and 3") {
		t.Errorf("jig --release 4: exit %d, %s; want a usage error", code, errOut)
	}
}
