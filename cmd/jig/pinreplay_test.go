package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpjig/jig/session/peers"
)

// replayLine is the replay command a pin's last line advises, or "".
func replayLine(stderr string) string {
	m := regexp.MustCompile(`replay it with: (jig replay [^\n(]*?)(?: \(|\n|$)`).FindStringSubmatch(stderr)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// A pin never says "replay it with" a command that will not run the fixture
// it saved: a literal secret given with --env is used by the probe (the
// call was made with it) and kept out of the file, and the advice says to
// give it again (or to pin a reference); a request holding a redacted
// secret no variable re-fills is saved with "it cannot be replayed as
// saved" and what to do instead (and its probe does not take the secret,
// redacted in one answer only, for a value that varies). Each advised
// command is run to prove it.
func TestPinAdvisesOnlyAReplayThatRuns(t *testing.T) {
	const secret = "literal123secretvalue"
	server := peers.Node(t, peers.Everything, "stdio")
	dir := t.TempDir()
	pin := func(t *testing.T, file, args string, extra ...string) string {
		t.Helper()
		cmd := append([]string{"call", "echo", "--args", args, "--no-record", "--pin", file}, extra...)
		code, _, stderr := jig(t, "", append(append(cmd, "--"), server...)...)
		if code != exitOK {
			t.Fatalf("pin %s: exit %d\n%s", filepath.Base(file), code, stderr)
		}
		if b, _ := os.ReadFile(file); strings.Contains(string(b), secret) || strings.Contains(string(b), "abcdefghijkl") {
			t.Fatalf("%s holds the secret:\n%s", file, b)
		}
		return stderr
	}
	replay := func(t *testing.T, line string) (int, string) {
		t.Helper()
		args := strings.Fields(strings.NewReplacer("'", "", "…", secret).Replace(line))[1:] // "jig" off
		code, stdout, stderr := jig(t, "", append(append(args, "--no-record", "--"), server...)...)
		return code, stdout + stderr
	}

	for _, probe := range []string{"", "0"} {
		t.Run("literal env, probe "+probe, func(t *testing.T) {
			file := filepath.Join(dir, "e"+probe+".json")
			extra := []string{"--env", "FOO_TOKEN=" + secret}
			if probe != "" {
				extra = append(extra, "--probe", probe)
			}
			stderr := pin(t, file, `{"message":"x"}`, extra...)
			line := replayLine(stderr)
			if !strings.Contains(line, "--env 'FOO_TOKEN=…'") || !strings.Contains(stderr, `--env 'FOO_TOKEN=$FOO_TOKEN'`) {
				t.Fatalf("the pin does not say to give FOO_TOKEN again, or how to pin a reference:\n%s", stderr)
			}
			if code, out := replay(t, "jig replay "+file); code != exitUsage {
				t.Errorf("jig replay %s without FOO_TOKEN: exit %d, want 2 (the advice would be needless)\n%s", file, code, out)
			}
			if code, out := replay(t, line); code != exitOK {
				t.Errorf("the advised %q: exit %d\n%s", line, code, out)
			}
		})
	}

	// jig call --pin F --append with no server runs F's own target: a
	// value F holds redacted comes from --env, and without it jig says so
	// rather than start the server with the placeholder.
	t.Run("append", func(t *testing.T) {
		file := filepath.Join(dir, "e0.json")
		code, _, stderr := jig(t, "", "call", "echo", "--args", `{"message":"y"}`, "--no-record", "--pin", file, "--append", "--probe", "0")
		if code != exitUsage || !strings.Contains(stderr, "target.env.FOO_TOKEN was redacted when pinned: give it with --env 'FOO_TOKEN=…'") {
			t.Errorf("--append without FOO_TOKEN: exit %d, want 2 naming --env\n%s", code, stderr)
		}
		code, _, stderr = jig(t, "", "call", "echo", "--args", `{"message":"y"}`, "--no-record", "--pin", file, "--append", "--env", "FOO_TOKEN="+secret)
		if code != exitOK {
			t.Fatalf("--append --env FOO_TOKEN=…: exit %d\n%s", code, stderr)
		}
		if b, _ := os.ReadFile(file); strings.Contains(string(b), secret) {
			t.Fatalf("%s holds the secret:\n%s", file, b)
		}
		line := replayLine(stderr)
		if !strings.Contains(line, "--env 'FOO_TOKEN=…'") {
			t.Fatalf("the append does not say to give FOO_TOKEN again:\n%s", stderr)
		}
		if code, out := replay(t, line); code != exitOK {
			t.Errorf("the advised %q: exit %d\n%s", line, code, out)
		}
	})

	t.Run("env reference", func(t *testing.T) {
		t.Setenv("FOO_TOKEN", secret)
		file := filepath.Join(dir, "ref.json")
		stderr := pin(t, file, `{"message":"x"}`, "--env", "FOO_TOKEN=$FOO_TOKEN")
		line := replayLine(stderr)
		if line != "jig replay "+file || strings.Contains(stderr, "literal value") {
			t.Fatalf("a reference needs nothing more, got %q:\n%s", line, stderr)
		}
		if code, out := replay(t, line); code != exitOK {
			t.Errorf("%q: exit %d\n%s", line, code, out)
		}
	})

	t.Run("redacted shape in the request", func(t *testing.T) {
		file := filepath.Join(dir, "shape.json")
		stderr := pin(t, file, `{"message":"tok xoxb-123456789012-abcdefghijkl"}`) // echo is read-only: probed once
		if strings.Contains(stderr, "differed between") {
			t.Errorf("the probe took the echoed secret, redacted in one answer and not in the other, for a value that differs:\n%s", stderr)
		}
		if line := replayLine(stderr); line != "" {
			t.Errorf("the pin promises %q for a fixture replay refuses:\n%s", line, stderr)
		}
		if !strings.Contains(stderr, "cannot be replayed as saved") || !strings.Contains(stderr, "request.params.arguments.message holds [REDACTED:slack-token]") ||
			!strings.Contains(stderr, "--secret-env NAME") {
			t.Errorf("the pin does not say why the fixture cannot be replayed, or what to do:\n%s", stderr)
		}
		if code, out := replay(t, "jig replay "+file); code != exitUsage || !strings.Contains(out, "cannot re-fill") {
			t.Errorf("replay of the shape fixture: exit %d, want 2 (the pin's warning must be true)\n%s", code, out)
		}
	})
}
