package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/oauth"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
	"github.com/mcpjig/jig/session/peers"
)

// oauthServers starts an authorization server and an MCP server behind it,
// points the browser at the test binary and the credentials store at a
// fresh directory.
func oauthServers(t *testing.T) (*oauthtest.AuthServer, *oauthtest.ResourceServer) {
	t.Helper()
	as := oauthtest.NewAuthServer(t)
	rs := oauthtest.NewResourceServer(t, as)
	t.Setenv("BROWSER", strings.Join(oauthtest.Browser(), " "))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	return as, rs
}

func assertNoSecretsIn(t *testing.T, what, text string, as *oauthtest.AuthServer) {
	t.Helper()
	for _, s := range as.Secrets() {
		if strings.Contains(text, s) {
			t.Errorf("%s holds the secret %q", what, s)
		}
	}
}

// The whole life of a login from the command line: nothing stored, login,
// status (never a token), a CI command with --auth-stored-only, logout,
// and the same CI command failing with exit 3 and the login command.
func TestAuthLoginStatusLogout(t *testing.T) {
	as, rs := oauthServers(t)
	if code, out, _ := jig(t, "", "auth", "status"); code != 0 || !strings.Contains(out, "no stored credentials") {
		t.Fatalf("status before login: exit %d, %q", code, out)
	}
	code, out, errOut := jig(t, "", "auth", "login", "--url", rs.URL(), "--no-record")
	if code != 0 {
		t.Fatalf("auth login: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	for _, want := range []string{"logged in to " + oauth.CanonicalServer(rs.URL()), "issuer   " + as.URL(), "scopes   read write"} {
		if !strings.Contains(out, want) {
			t.Errorf("auth login's output lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"needs OAuth", "open this URL in a browser to log in", "/authorize?", "authorized by " + as.URL()} {
		if !strings.Contains(errOut, want) {
			t.Errorf("auth login's stderr lacks %q:\n%s", want, errOut)
		}
	}
	assertNoSecretsIn(t, "auth login's output", out+errOut, as)

	code, out, _ = jig(t, "", "auth", "status")
	if code != 0 || !strings.Contains(out, as.URL()) || !strings.Contains(out, "read write") || !strings.Contains(out, "yes") {
		t.Errorf("auth status: exit %d\n%s", code, out)
	}
	assertNoSecretsIn(t, "auth status", out, as)
	_, out, _ = jig(t, "", "auth", "status", "--json")
	var entries []map[string]any
	if err := json.Unmarshal([]byte(out), &entries); err != nil || len(entries) != 1 || entries[0]["secrets"] != nil {
		t.Errorf("auth status --json = %s (%v)", out, err)
	}
	assertNoSecretsIn(t, "auth status --json", out, as)

	if code, out, errOut := jig(t, "", "tools", "--url", rs.URL(), "--auth-stored-only", "--no-record"); code != 0 || !strings.Contains(out, "echo") {
		t.Errorf("tools --auth-stored-only with a stored token: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := jig(t, "", "auth", "logout", "--url", rs.URL()); code != 0 || !strings.Contains(out, "logged out of") {
		t.Errorf("auth logout: exit %d, %q", code, out)
	}
	record := filepath.Join(t.TempDir(), "ci.jsonl")
	code, _, errOut = jig(t, "", "tools", "--url", rs.URL(), "--auth-stored-only", "--record", record)
	if code != exitUnreachable || !strings.Contains(errOut, "jig auth login --url "+rs.URL()) {
		t.Errorf("tools --auth-stored-only after logout: exit %d, want %d with the login command\n%s", code, exitUnreachable, errOut)
	}
	if data, err := os.ReadFile(record); err != nil || !strings.Contains(string(data), `"status":401`) {
		t.Errorf("the failed session's recording does not keep the 401 (%v):\n%s", err, data)
	}
}

// A session that logs in is recorded and printed with every step, and no
// token, code or secret in either.
func TestLoginFramesAndRecordingAreRedacted(t *testing.T) {
	as, rs := oauthServers(t)
	dir := t.TempDir()
	record, framesFile := filepath.Join(dir, "call.jsonl"), filepath.Join(dir, "frames.txt")
	code, out, errOut := jig(t, "", "call", "echo", "--args", "{}", "--url", rs.URL(), "--record", record, "--frames="+framesFile)
	if code != 0 {
		t.Fatalf("call with login: exit %d\n%s%s", code, out, errOut)
	}
	for name, path := range map[string]string{"recording": record, "--frames file": framesFile} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []string{oauth.StepResourceMetadata, oauth.StepServerMetadata, oauth.StepRegistration, oauth.StepAuthorization, oauth.StepRedirect, oauth.StepTokenExchange} {
			if !strings.Contains(string(data), "OAuth "+step+":") {
				t.Errorf("the %s has no %s frame", name, step)
			}
		}
		assertNoSecretsIn(t, "the "+name, string(data), as)
	}
	assertNoSecretsIn(t, "the command's output", out+errOut, as)
}

// A refused login and a redirect that never comes are exit 3, naming the
// step; the timeout repeats the URL.
func TestLoginFailuresExitThree(t *testing.T) {
	as, rs := oauthServers(t)
	as.Set(func(k *oauthtest.Knobs) { k.Authorize = "deny" })
	code, _, errOut := jig(t, "", "tools", "--url", rs.URL(), "--no-record")
	if code != exitUnreachable || !strings.Contains(errOut, "OAuth redirect") || !strings.Contains(errOut, "access_denied") {
		t.Errorf("denied login: exit %d\n%s", code, errOut)
	}
	as.Set(func(k *oauthtest.Knobs) { k.Authorize = "" })
	t.Setenv("BROWSER", "true") // a browser that never comes back
	code, _, errOut = jig(t, "", "tools", "--url", rs.URL(), "--no-record", "--auth-timeout", "300ms", "--timeout", "200ms")
	if code != exitUnreachable || !strings.Contains(errOut, "no redirect came back within 300ms") || strings.Count(errOut, "/authorize?") < 2 {
		t.Errorf("no redirect: exit %d; want 3, the wait named (longer than --timeout) and the URL printed and repeated\n%s", code, errOut)
	}
}

// --client-credentials: a service account, no browser, no login stored.
func TestClientCredentialsFlag(t *testing.T) {
	as, rs := oauthServers(t)
	as.Set(func(k *oauthtest.Knobs) { k.ClientID, k.ClientSecret = "svc", "svc-secret-0123456789" })
	t.Setenv("BROWSER", "false")
	t.Setenv("SVC_SECRET", "svc-secret-0123456789")
	as.Remember("svc-secret-0123456789")
	record := filepath.Join(t.TempDir(), "cc.jsonl")
	code, out, errOut := jig(t, "", "tools", "--url", rs.URL(), "--client-credentials", "--client-id", "svc", "--client-secret-env", "SVC_SECRET", "--record", record)
	if code != 0 || as.Authorizations() != 0 {
		t.Fatalf("client credentials: exit %d, %d authorizations\n%s%s", code, as.Authorizations(), out, errOut)
	}
	data, _ := os.ReadFile(record)
	if !strings.Contains(string(data), "OAuth client credentials:") {
		t.Errorf("the recording has no client credentials frame")
	}
	assertNoSecretsIn(t, "the recording", string(data), as)
	if _, out, _ := jig(t, "", "auth", "status"); !strings.Contains(out, "no stored credentials") {
		t.Errorf("client credentials were stored:\n%s", out)
	}
}

func TestAuthFlagsToOptions(t *testing.T) {
	t.Setenv("JIG_SECRET_SET", "s3cret-value")
	cases := []struct {
		args []string
		err  string
		mode oauth.Mode
	}{
		{args: []string{"--url", "http://127.0.0.1:1/mcp"}, mode: oauth.Interactive},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--auth-stored-only"}, mode: oauth.StoredOnly},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--client-credentials", "--client-id", "c", "--client-secret-env", "JIG_SECRET_SET"}, mode: oauth.ClientCredentials},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--client-credentials"}, err: "needs --client-id ID and --client-secret-env VAR"},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--client-id", "c", "--client-secret-env", "JIG_SECRET_UNSET"}, err: "JIG_SECRET_UNSET: the environment variable is not set"},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--client-id", "c", "--client-secret-env", "$JIG_SECRET_SET"}, err: "without $"},
		{args: []string{"--url", "http://127.0.0.1:1/mcp", "--client-secret-env", "JIG_SECRET_SET"}, err: "needs --client-id"},
		{args: []string{"--demo", "--auth-stored-only"}, err: "apply to HTTP servers"},
		{args: []string{"--url", "http://127.0.0.1:1/sse", "--transport", "sse", "--scope", "a"}, err: "need Streamable HTTP"},
	}
	for _, c := range cases {
		o, err := parseFlags(newToolsCmd, c.args...)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		opts, err := o.target.options(nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || exitCode(err) != exitUsage {
				t.Errorf("%q: error %v, want a usage error saying %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if opts.Auth == nil || opts.Auth.Mode != c.mode || opts.Auth.Store == nil {
			t.Errorf("%q: auth options %+v, want mode %d with a store", c.args, opts.Auth, c.mode)
		}
		if c.mode == oauth.ClientCredentials && opts.Auth.ClientSecret != "s3cret-value" {
			t.Errorf("%q: the client secret was not read from the environment", c.args)
		}
	}
	o, _ := parseFlags(newToolsCmd, "--demo")
	if opts, err := o.target.options(nil); err != nil || opts.Auth != nil {
		t.Errorf("--demo: auth options %+v, %v; want none", opts.Auth, err)
	}
}

// A server nobody here wrote: the TypeScript SDK's example server behind
// its own demo authorization server (dynamic registration, PKCE, a code it
// hands out at once). jig logs in, calls, stores the token, uses it again
// with --auth-stored-only; the token is in no output and no recording.
func TestLoginToTheTypeScriptSDKsOAuthExample(t *testing.T) {
	command := peers.Node(t, peers.TSSDKOAuthServer, "--oauth")
	mcpPort, authPort := freePort(t), freePort(t)
	srv := exec.Command(command[0], command[1:]...)
	srv.Env = append(os.Environ(), "MCP_PORT="+mcpPort, "MCP_AUTH_PORT="+authPort)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	lines := bufio.NewScanner(out)
	for ready := 0; ready < 2 && lines.Scan(); {
		if strings.Contains(lines.Text(), "listening on port") {
			ready++
		}
	}
	go io.Copy(io.Discard, out)
	t.Setenv("BROWSER", strings.Join(oauthtest.Browser(), " "))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	url := "http://localhost:" + mcpPort + "/mcp"
	record := filepath.Join(t.TempDir(), "greet.jsonl")

	code, stdout, stderr := jig(t, "", "call", "greet", "--args", `{"name":"jig"}`, "--url", url, "--record", record)
	if code != 0 || !strings.Contains(stdout, "Hello, jig") {
		t.Fatalf("call behind the TypeScript SDK's OAuth: exit %d\n%s%s", code, stdout, stderr)
	}
	store, err := oauth.DefaultStore()
	if err != nil {
		t.Fatal(err)
	}
	e, sec, err := store.Lookup(url)
	if err != nil || e == nil || sec.AccessToken == "" {
		t.Fatalf("nothing stored after the login: %v, %v", e, err)
	}
	if e.Issuer != "http://localhost:"+authPort+"/" || e.Registration != "dynamic" {
		t.Errorf("stored entry = %+v", e)
	}
	data, _ := os.ReadFile(record)
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "the recording": string(data)} {
		if strings.Contains(text, sec.AccessToken) {
			t.Errorf("%s holds the access token", what)
		}
	}
	if !strings.Contains(string(data), "OAuth token exchange:") {
		t.Errorf("the recording has no token exchange frame")
	}
	if code, stdout, stderr := jig(t, "", "tools", "--url", url, "--auth-stored-only", "--no-record"); code != 0 || !strings.Contains(stdout, "greet") {
		t.Errorf("tools with the stored token: exit %d\n%s%s", code, stdout, stderr)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// A fixture pinned behind OAuth records that it was (issuer, scopes,
// grant) and no credential; replay uses the stored token, fails clearly
// (exit 3, the login command) when none is stored, never starts a login,
// and works with --client-credentials.
func TestFixtureBehindOAuth(t *testing.T) {
	as, rs := oauthServers(t)
	as.Set(func(k *oauthtest.Knobs) { k.ClientID, k.ClientSecret = "svc", "svc-secret-0123456789" })
	fixtureFile := filepath.Join(t.TempDir(), "echo.json")
	code, out, errOut := jig(t, "", "call", "echo", "--args", "{}", "--url", rs.URL(), "--no-record", "--pin", fixtureFile)
	if code != 0 {
		t.Fatalf("pin behind OAuth: exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(fixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Target struct {
			Auth *struct {
				Issuer string   `json:"issuer"`
				Scopes []string `json:"scopes"`
				Grant  string   `json:"grant"`
			} `json:"auth"`
		} `json:"target"`
	}
	json.Unmarshal(data, &f)
	if a := f.Target.Auth; a == nil || a.Issuer != as.URL() || a.Grant != "authorization_code" || strings.Join(a.Scopes, " ") != "read write" {
		t.Errorf("the fixture's target.auth = %+v, want issuer %s, read write, authorization_code\n%s", a, as.URL(), data)
	}
	assertNoSecretsIn(t, "the fixture", string(data), as)

	if code, out, errOut := jig(t, "", "replay", fixtureFile); code != 0 {
		t.Errorf("replay with the stored token: exit %d\n%s%s", code, out, errOut)
	}
	jig(t, "", "auth", "logout", "--all")
	before := as.Authorizations()
	code, out, errOut = jig(t, "", "replay", fixtureFile)
	if code != exitUnreachable || !strings.Contains(out+errOut, "jig auth login --url "+rs.URL()) {
		t.Errorf("replay without credentials: exit %d, want %d naming the login command\n%s%s", code, exitUnreachable, out, errOut)
	}
	t.Logf("replay without credentials:\n%s%s", out, errOut)
	if as.Authorizations() != before {
		t.Errorf("replay started a login")
	}
	t.Setenv("SVC_SECRET", "svc-secret-0123456789")
	if code, out, errOut := jig(t, "", "replay", fixtureFile, "--client-credentials", "--client-id", "svc", "--client-secret-env", "SVC_SECRET"); code != 0 {
		t.Errorf("replay with client credentials: exit %d\n%s%s", code, out, errOut)
	}
}
