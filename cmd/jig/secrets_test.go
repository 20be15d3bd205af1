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
