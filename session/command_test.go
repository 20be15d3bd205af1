package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A server command that names a directory, a file without execute
// permission or a script the kernel cannot run is told as what it is, with
// the next step; only a name found nowhere is "not on PATH".
func TestServerCommandThatCannotRunSaysWhy(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "server.sh")
	noShebang := filepath.Join(dir, "noshebang")
	if err := os.WriteFile(plain, []byte("echo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noShebang, []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		command string
		want    string
	}{
		{dir, "is a directory, not a program: give the server's command after --"},
		{plain, "is not executable (its mode is -rw-r--r--): make it executable (chmod +x " + plain},
		{noShebang, "the system cannot execute it (a script without a #! line"},
		{filepath.Join(dir, "none"), "there is no such file (check the path)"},
		{"jig-no-such-program", `cannot find "jig-no-such-program" on PATH (is it installed?`},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := Open(ctx, Options{Target: Target{Transport: TransportStdio, Command: []string{c.command}}})
		cancel()
		if err == nil {
			s.Close()
			t.Errorf("%s: the session opened", c.command)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant it to say %q", c.command, err, c.want)
		}
		if c.command == dir && strings.Contains(err.Error(), "installed") {
			t.Errorf("%s: a directory was found, yet: %v", c.command, err)
		}
	}
}
