package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// A secret-named variable whose value is a JSON literal (REQUIRE_PASSWORD=false,
// API_TOKEN=true) is not a secret jig can redact: --json stays JSON, the
// recording keeps its session record and its file name, and stderr says
// once, by name, that the value is not redacted.
func TestBooleanSecretValueCorruptsNothing(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("REQUIRE_PASSWORD", "false")
	t.Setenv("API_TOKEN", "true")
	code, out, errOut := jig(t, "", append([]string{"tools", "--json", "--no-record"}, serverEverything(t)...)...)
	if code != exitOK || !json.Valid([]byte(out)) {
		t.Fatalf("exit %d; --json is not JSON:\n%s\n%s", code, out, errOut)
	}
	if strings.Count(errOut, "$API_TOKEN") != 1 || !strings.Contains(errOut, "$REQUIRE_PASSWORD") || !strings.Contains(errOut, "never redacted") {
		t.Errorf("stderr does not say once which variables are not redacted:\n%s", errOut)
	}
	rec := filepath.Join(t.TempDir(), "rt-true.jsonl")
	code, _, errOut = jig(t, "", append([]string{"call", "get-structured-content", "--args", `{"location":"Chicago"}`, "--record", rec}, serverEverything(t)...)...)
	if code != exitOK || strings.Contains(errOut, "REDACTED") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"key":"session"`) || strings.Contains(string(b), "[REDACTED:value]") {
		t.Errorf("the recording lost its session record or was rewritten:\n%s", b)
	}
}

// A short or common value (MY_API_KEY=test, API_TOKEN=humidity) is redacted
// only where it stands as a word in longer text: "testing" stays, the key
// "humidity" and the tool schema's required "humidity" stay, and a fixture
// pinned with it is not red on a machine where the variable differs.
func TestShortSecretValueRewritesNoOtherWord(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MY_API_KEY", "test")
	code, out, errOut := jig(t, "", append([]string{"call", "echo", "--args", `{"message":"this is a test of testing"}`, "--no-record"}, serverEverything(t)...)...)
	if code != exitOK || !strings.Contains(out, "this is a [REDACTED:value] of testing") {
		t.Errorf("exit %d; want the word redacted and testing kept:\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "$MY_API_KEY") || strings.Contains(errOut, "test ") {
		t.Errorf("stderr does not name the weak variable (without its value):\n%s", errOut)
	}
	os.Unsetenv("MY_API_KEY")
	t.Setenv("API_TOKEN", "humidity")
	fix := filepath.Join(t.TempDir(), "s.json")
	code, out, errOut = jig(t, "", append([]string{"call", "get-structured-content", "--args", `{"location":"Chicago"}`, "--pin", fix}, serverEverything(t)...)...)
	if code != exitOK || !strings.Contains(out, `"humidity": 82`) {
		t.Fatalf("exit %d; the result lost its key:\n%s\n%s", code, out, errOut)
	}
	b, _ := os.ReadFile(fix)
	if strings.Contains(string(b), "REDACTED") {
		t.Errorf("the fixture was rewritten:\n%s", b)
	}
	t.Setenv("API_TOKEN", "Zq9plainNOTshaped7731")
	if code, out, errOut = jig(t, "", "replay", fix); code != exitOK {
		t.Errorf("replay with another API_TOKEN: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A replay whose header names a variable that is not set says the
// variable's NAME: it is what to export, and no secret.
func TestUnsetHeaderVariableIsNamed(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	t.Setenv("HDR_TOKEN", "Zq9plainNOTshaped7731")
	fix := filepath.Join(t.TempDir(), "hdr.json")
	code, out, errOut := jig(t, "", "call", "echo", "--args", `{"message":"hdr"}`, "--url", fmt.Sprintf("http://127.0.0.1:%d/mcp", port),
		"--header", "Authorization: Bearer $HDR_TOKEN", "--header", "X-Api-Key: $HDR_TOKEN", "--pin", fix)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	os.Unsetenv("HDR_TOKEN")
	code, out, errOut = jig(t, "", "replay", fix)
	if code == exitOK || !strings.Contains(out+errOut, "environment variable $HDR_TOKEN is not set") || strings.Contains(out+errOut, "REDACTED") {
		t.Errorf("exit %d; want the variable named:\n%s\n%s", code, out, errOut)
	}
}
