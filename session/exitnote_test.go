package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

// exitNotes are the notes of a log's transport frames from the server.
func exitNotes(log *frames.Log) (exited string, all []string) {
	for _, f := range log.Frames() {
		if f.Kind == frames.KindTransport && f.Dir == frames.ServerToClient {
			all = append(all, f.Note)
			if strings.HasPrefix(f.Note, frames.ServerExitedNote) {
				exited = f.Note
			}
		}
	}
	return exited, all
}

// The frame that says a stdio server exited says who ended it, and never
// contradicts the frames before it: jig closing stdin (server-memory exits
// on EOF), jig's SIGTERM after the grace (server-everything lingers), jig's
// SIGKILL (a server that ignores SIGTERM), and another process killing it
// while the session was open. Every one begins with frames.ServerExitedNote.
func TestExitFrameSaysWhoEndedTheServer(t *testing.T) {
	memory := Target{Transport: TransportStdio, Command: peers.Node(t, peers.MemoryNew, "stdio"),
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.json")}}
	pidfile := filepath.Join(t.TempDir(), "pid")
	killed := Target{Transport: TransportStdio,
		Command: append([]string{"sh", "-c", `echo $$ > "$0"; exec "$@"`, pidfile}, peers.Node(t, peers.Everything, "stdio")...)}
	for _, tt := range []struct {
		name   string
		target Target
		grace  time.Duration
		kill   bool // another process kills the server while the session is open
		want   string
		prefix bool // want begins the note
	}{
		{name: "stdin closed", target: memory, grace: 20 * time.Second, want: "server exited: exit status 0 (jig closed its stdin)"},
		{name: "SIGTERM after the grace", target: Target{Transport: TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")},
			// On a loaded machine node may take longer than the grace to
			// die of it: then jig sent SIGKILL too, and the note says so.
			grace: 200 * time.Millisecond, want: "server exited: signal: terminated (jig sent SIGTERM after the 200ms grace", prefix: true},
		{name: "SIGKILL", target: selfTarget(t, "linger"), grace: 50 * time.Millisecond,
			want: "server exited: signal: killed (jig sent SIGKILL: it was still running 50ms after SIGTERM)"},
		{name: "killed by another process", target: killed, grace: DefaultGrace, kill: true,
			want: "server exited: signal: killed (jig sent no signal: the server was ended by another process, or ended itself)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(ctx(t), Options{Target: tt.target, Grace: tt.grace})
			if err != nil {
				t.Fatal(err)
			}
			if tt.kill {
				b, err := os.ReadFile(pidfile)
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil || pid <= 0 {
					t.Fatalf("no server pid: %v", err)
				}
				syscall.Kill(pid, syscall.SIGKILL)
				if why := s.WaitGone(); !strings.Contains(why, "signal: killed") {
					t.Fatalf("WaitGone = %q", why)
				}
			}
			s.Close()
			exited, all := exitNotes(s.Log)
			if exited != tt.want && !(tt.prefix && strings.HasPrefix(exited, tt.want)) {
				t.Errorf("the exit frame says %q, want %q; every transport note:\n%s", exited, tt.want, strings.Join(all, "\n"))
			}
			for _, n := range all {
				if strings.Contains(n, "jig sent SIGKILL") && !strings.Contains(exited, "SIGKILL") {
					t.Errorf("%q, then %q: the exit frame contradicts the frame before it", n, exited)
				}
			}
		})
	}
}
