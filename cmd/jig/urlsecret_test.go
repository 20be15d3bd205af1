package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// A fixture whose URL held a secret (a secret-named query parameter, a
// password) holds it redacted, and jig never sends the placeholder as the
// value: replay, replay --reuse-session and --append refuse with exit 2,
// naming the file, the part of the URL and how to give it. The same URL
// written with a ${NAME} reference keeps the reference and replays.
func TestURLSecretPlaceholderIsNeverSent(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	port := peers.FreePort(t)
	peers.Serve(t, peers.NodeHTTP(t, peers.Everything, "streamableHttp"), port)
	base := fmt.Sprintf("127.0.0.1:%d/mcp", port)
	dir := t.TempDir()
	for _, tc := range []struct{ name, url, part string }{
		{"query", "http://" + base + "?api_key=sekritQueryKey123", `query parameter "api_key"`},
		{"password", "http://user:pAssw0rdXyz99@" + base, "password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".json")
			code, out, errOut := jig(t, "", "call", "echo", "--args", `{"message":"q"}`, "--url", tc.url, "--no-record", "--pin", file)
			if code != exitOK {
				t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
			}
			if b, _ := os.ReadFile(file); strings.Contains(string(b), "sekritQueryKey123") || strings.Contains(string(b), "pAssw0rdXyz99") {
				t.Fatalf("%s holds the secret:\n%s", file, b)
			}
			for _, args := range [][]string{
				{"replay", file},
				{"replay", "--reuse-session", file},
				{"call", "echo", "--args", `{"message":"r"}`, "--no-record", "--pin", file, "--append", "--probe", "0"},
			} {
				code, out, errOut := jig(t, "", args...)
				msg := out + errOut
				if code != exitUsage || !strings.Contains(msg, tc.name+".json") || !strings.Contains(msg, "target.url") ||
					!strings.Contains(msg, tc.part) || !strings.Contains(msg, "--url") {
					t.Errorf("jig %s: exit %d, want 2 naming the file, target.url, its %s and --url:\n%s", strings.Join(args, " "), code, tc.part, msg)
				}
			}
			if code, out, errOut := jig(t, "", "replay", file, "--url", tc.url); code != exitOK {
				t.Errorf("replay --url: exit %d\n%s\n%s", code, out, errOut)
			}
		})
	}
	for _, tc := range []struct{ name, url string }{
		{"query reference", "http://" + base + "?api_key=${JIG_TEST_URL_VALUE}"},
		{"second parameter reference", "http://" + base + "?v=1&key=${JIG_TEST_URL_VALUE}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("JIG_TEST_URL_VALUE", "sekritRefValue123") // a name that says no secret: the place does
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			code, out, errOut := jig(t, "", "call", "echo", "--args", `{"message":"q"}`, "--url", tc.url, "--pin", file)
			if code != exitOK {
				t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
			}
			b, _ := os.ReadFile(file)
			if strings.Contains(string(b), "sekritRefValue123") || !strings.Contains(string(b), "${JIG_TEST_URL_VALUE}") {
				t.Fatalf("%s does not keep the reference (or holds the secret):\n%s", file, b)
			}
			if strings.Contains(out+errOut, "sekritRefValue123") || strings.Contains(errOut, "--url URL") {
				t.Errorf("the pin shows the value, or asks for --url though the URL is a reference:\n%s\n%s", out, errOut)
			}
			code, out, errOut = jig(t, "", "replay", file)
			if code != exitOK || strings.Contains(out+errOut, "sekritRefValue123") {
				t.Errorf("replay: exit %d\n%s\n%s", code, out, errOut)
			}
			assertNoSecretInState(t, "sekritRefValue123")
		})
	}
}

// assertNoSecretInState fails when a file under $XDG_STATE_HOME holds secret.
func assertNoSecretInState(t *testing.T, secret string) {
	t.Helper()
	_ = filepath.WalkDir(os.Getenv("XDG_STATE_HOME"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})
}
