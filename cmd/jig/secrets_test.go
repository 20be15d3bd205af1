package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/session/demo"
)

// mustNotContain fails for each named text that holds the secret.
func mustNotContain(t *testing.T, secret string, named map[string]string) {
	t.Helper()
	for name, content := range named {
		if strings.Contains(content, secret) {
			t.Errorf("%s holds the planted secret %q", name, secret)
		}
	}
}

// readAll reads the files a session wrote, by path.
func readAll(t *testing.T, paths ...string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%s was not written: %v", p, err)
		}
		out[p] = string(b)
	}
	return out
}

// A bearer token given as $VAR reaches the server but none of what jig
// writes: the transcript, the fixture, the --frames file, stdout or stderr.
func TestPlantedHeaderSecretReachesNoFile(t *testing.T) {
	const secret = "planted-0123456789-token"
	t.Setenv("JIG_PLANTED_TOKEN", secret)
	srv, _ := demo.New(1)
	var sawToken bool
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawToken = sawToken || r.Header.Get("Authorization") == "Bearer "+secret
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	dir := t.TempDir()
	rec, fix, fr := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "echo.json"), filepath.Join(dir, "frames.txt")
	code, out, errOut := jig(t, "", "call", "echo", "--args", `{"text":"hello"}`, "--url", ts.URL,
		"--header", "Authorization: Bearer $JIG_PLANTED_TOKEN", "--record", rec, "--pin", fix, "--frames="+fr, "--protocol-version", "2025-11-25")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !sawToken {
		t.Fatalf("the server never saw the expanded token")
	}
	files := readAll(t, rec, fix, fr)
	files["stdout"], files["stderr"] = out, errOut
	mustNotContain(t, secret, files)
	if !strings.Contains(files[fix], "$JIG_PLANTED_TOKEN") {
		t.Errorf("the fixture does not keep the header as an environment reference:\n%s", files[fix])
	}
}

// server-everything's get-env dumps the server's environment: a secret given
// with --env must not survive into the transcript or a fixture.
func TestPlantedEnvSecretFromGetEnvReachesNoFile(t *testing.T) {
	const secret = "planted-env-secret-9876543210"
	t.Setenv("JIG_PLANTED_SECRET", secret)
	dir := t.TempDir()
	rec, fix := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "env.json")
	args := append([]string{"call", "get-env", "--record", rec, "--pin", fix, "--secret-env", "JIG_PLANTED_SECRET",
		"--env", "DATABASE_PASSWORD=$JIG_PLANTED_SECRET"}, serverEverything(t)...)
	code, out, errOut := jig(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	files := readAll(t, rec, fix)
	if !strings.Contains(out, "DATABASE_PASSWORD") {
		t.Fatalf("get-env did not return the planted variable; the test proves nothing:\n%s", out)
	}
	mustNotContain(t, secret, files)
}

// A database password in the environment the server inherits, under the
// names database clients read it from (DB_PASS, MYSQL_PWD, not only
// *PASSWORD*), is a secret: server-everything's get-env dumped DB_PASS
// into the pinned fixture in plain text.
func TestInheritedPasswordVariablesReachNoFile(t *testing.T) {
	secrets := map[string]string{"DB_PASS": "plainpass123-db", "MYSQL_PWD": "mysqlpwd456-db", "SSH_PASSPHRASE": "phrase789-db"}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	rec, fix := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "env.json")
	code, out, errOut := jig(t, "", append([]string{"call", "get-env", "--record", rec, "--pin", fix}, serverEverything(t)...)...)
	if code != exitOK || !strings.Contains(out, "DB_PASS") {
		t.Fatalf("exit %d (get-env must list DB_PASS, or the test proves nothing)\n%s\n%s", code, out, errOut)
	}
	files := readAll(t, rec, fix)
	files["stdout"], files["stderr"] = out, errOut
	for _, v := range secrets {
		mustNotContain(t, v, files)
	}
}

// Secrets planted everywhere a real run puts them — a header and a URL
// query string given as references, the environment jig and the server
// share (token-shaped and not), an argument, and results that echo all of
// it — reach none of what a replay writes: fixtures (also after --update),
// the JSON and JUnit reports, the text report with --show-cosmetic, the
// recorded sessions, stdout and stderr. Every file under the run's
// directory is read.
func TestPlantedSecretsReachNoReplayOutput(t *testing.T) {
	secrets := map[string]string{
		"GITHUB_TOKEN":       "ghp_" + strings.Repeat("A1b2", 9),
		"OPENAI_API_KEY":     "sk-" + strings.Repeat("z9Y8", 8),
		"JIG_DB_PASSWORD":    "correct-horse-battery-staple",
		"JIG_HEADER_TOKEN":   "hdr-7a7a7a7a7a7a7a7a",
		"JIG_QUERY_TOKEN":    "qry-5b5b5b5b5b5b5b5b",
		"JIG_ARGUMENT_VALUE": "arg-3c3c3c3c3c3c3c3c",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	root := t.TempDir()
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("CI", "")
	fixtures, reports, records := filepath.Join(root, "fixtures"), filepath.Join(root, "reports"), filepath.Join(root, "records")
	os.MkdirAll(reports, 0o755)

	// The environment dump: get-env echoes what the server inherited.
	env := append([]string{"call", "get-env", "--pin", filepath.Join(fixtures, "env.json"), "--secret-env", "JIG_DB_PASSWORD", "--secret-env", "JIG_ARGUMENT_VALUE",
		"--env", "DATABASE_PASSWORD=$JIG_DB_PASSWORD"}, serverEverything(t)...)
	code, out, errOut := jig(t, "", env...)
	if code != exitOK || !strings.Contains(out, "DATABASE_PASSWORD") {
		t.Fatalf("pin get-env: exit %d\n%s\n%s", code, out, errOut)
	}
	outputs := map[string]string{"pin get-env stdout": out, "pin get-env stderr": errOut}
	// An argument that holds a secret, echoed back.
	echo := append([]string{"call", "echo", "--args", `{"message":"` + secrets["JIG_ARGUMENT_VALUE"] + ` and ` + secrets["GITHUB_TOKEN"] + `"}`,
		"--pin", filepath.Join(fixtures, "echo.json"), "--secret-env", "JIG_ARGUMENT_VALUE"}, serverEverything(t)...)
	code, out, errOut = jig(t, "", echo...)
	if code != exitOK {
		t.Fatalf("pin echo: exit %d\n%s", code, errOut)
	}
	outputs["pin echo stdout"], outputs["pin echo stderr"] = out, errOut
	// A header and a URL query string, as references, to an HTTP server
	// that echoes what it is sent.
	srv, _ := demo.New(1)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var sawHeader, sawQuery bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawHeader = sawHeader || r.Header.Get("X-Api-Key") == secrets["JIG_HEADER_TOKEN"]
		sawQuery = sawQuery || r.URL.Query().Get("token") == secrets["JIG_QUERY_TOKEN"]
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	code, _, errOut = jig(t, "", "call", "echo", "--args", `{"text":"`+secrets["JIG_HEADER_TOKEN"]+`"}`, "--url", ts.URL+"/?token=${JIG_QUERY_TOKEN}",
		"--header", "X-Api-Key: $JIG_HEADER_TOKEN", "--pin", filepath.Join(fixtures, "http.json"), "--secret-env", "JIG_HEADER_TOKEN", "--protocol-version", "2025-11-25")
	if code != exitOK || !sawHeader || !sawQuery {
		t.Fatalf("pin over HTTP: exit %d, header seen %v, query seen %v\n%s", code, sawHeader, sawQuery, errOut)
	}
	outputs["pin http stderr"] = errOut

	// A green replay with every report, then a drifted one (the pinned
	// environment dump tampered with), then --update.
	replayArgs := []string{"replay", fixtures, "--report", "json=" + filepath.Join(reports, "r.json"), "--report", "junit=" + filepath.Join(reports, "r.xml"),
		"--show-cosmetic", "--record", records}
	code, out, errOut = jig(t, "", replayArgs...)
	if code != exitOK {
		t.Fatalf("replay: exit %d\n%s\n%s", code, out, errOut)
	}
	outputs["replay stdout"], outputs["replay stderr"] = out, errOut
	b, _ := os.ReadFile(filepath.Join(fixtures, "env.json"))
	tampered := strings.NewReplacer(`\"PATH\": \"`, `\"PATH\": \"/tampered:`, `\"PATH\":\"`, `\"PATH\":\"/tampered:`).Replace(string(b))
	if tampered == string(b) {
		t.Fatalf("no PATH in the pinned environment dump to tamper with:\n%s", b)
	}
	os.WriteFile(filepath.Join(fixtures, "env.json"), []byte(tampered), 0o644)
	drift := append([]string{}, replayArgs...)
	drift[3] = "json=" + filepath.Join(reports, "drift.json")
	code, out, errOut = jig(t, "", drift...)
	if code != exitServerError || !strings.Contains(out, "PATH") {
		t.Fatalf("the tampered replay: exit %d, want drift in PATH\n%s\n%s", code, out, errOut)
	}
	outputs["drifted replay stdout"], outputs["drifted replay stderr"] = out, errOut
	code, out, errOut = jig(t, "", "replay", fixtures, "--update", "--reason", "tampered")
	if code != exitOK {
		t.Fatalf("--update: exit %d\n%s\n%s", code, out, errOut)
	}
	outputs["update stdout"], outputs["update stderr"] = out, errOut

	written := 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		outputs[path] = string(b)
		written++
		return nil
	})
	if written < 8 {
		t.Fatalf("only %d files were written under the run's directory; the test reads too little", written)
	}
	for name, v := range secrets {
		mustNotContain(t, v, outputs)
		_ = name
	}
	if !strings.Contains(outputs[filepath.Join(fixtures, "echo.json")], "[REDACTED:$JIG_ARGUMENT_VALUE]") {
		t.Errorf("the echoed argument is not a reversible reference:\n%s", outputs[filepath.Join(fixtures, "echo.json")])
	}
}

// The TUI's commands take --secret-env: a variable that is not set is a
// usage error before the TUI takes the terminal, and jig open --text (the
// same redactor as the screen) redacts a value a recording did not know
// was secret.
func TestTUISecretEnv(t *testing.T) {
	for _, args := range [][]string{{"--secret-env", "JIG_TUI_UNSET"}, {"demo", "--secret-env", "JIG_TUI_UNSET"},
		{"connect", "--secret-env", "JIG_TUI_UNSET", "--", "node", "s.js"}, {"open", "run.jsonl", "--secret-env", "JIG_TUI_UNSET"}} {
		code, _, errOut := jig(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "--secret-env JIG_TUI_UNSET: the environment variable is not set") {
			t.Errorf("jig %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, errOut)
		}
	}
	const value = "unmarked-value-0f1e2d3c4b5a"
	rec := filepath.Join(t.TempDir(), "run.jsonl")
	if code, _, errOut := jig(t, "", "call", "echo", "--demo", "--args", `{"text":"`+value+`"}`, "--record", rec); code != exitOK {
		t.Fatalf("call: exit %d\n%s", code, errOut)
	}
	if code, out, _ := jig(t, "", "open", rec, "--text"); code != exitOK || !strings.Contains(out, value) {
		t.Fatalf("the recording does not hold the value unredacted: the test proves nothing (exit %d)\n%s", code, out)
	}
	t.Setenv("JIG_TUI_MARKED", value)
	code, out, errOut := jig(t, "", "open", rec, "--text", "--secret-env", "JIG_TUI_MARKED")
	if code != exitOK || strings.Contains(out+errOut, value) || !strings.Contains(out, "[REDACTED:") {
		t.Errorf("open --text --secret-env: exit %d, the value is still there or no placeholder:\n%s\n%s", code, out, errOut)
	}
}
