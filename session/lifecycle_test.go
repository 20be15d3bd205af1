package session

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
)

// Ending a session that went well is not an error: quitting the TUI printed
// "closing the session: close |1: file already closed" because the SDK
// closes the stdio tap as both reader and writer.
func TestCloseAfterACleanSessionIsNil(t *testing.T) {
	targets := map[string]func(t *testing.T) Target{
		"demo in process": func(t *testing.T) Target { return Target{Transport: TransportDemo} },
		"demo over stdio": func(t *testing.T) Target { return selfTarget(t, "demo") },
		"server-everything over stdio": func(t *testing.T) Target {
			return nodeTarget(t, "stdio")
		},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			s, err := Open(ctx(t), Options{Target: target(t)})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.ListTools(ctx(t)); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Errorf("Close() = %v, want nil: the session ended as it should", err)
			}
			if err := s.Close(); err != nil {
				t.Errorf("a second Close() = %v, want nil", err)
			}
		})
	}
}

// liveGroupMembers lists the processes of process group pgid that are not
// zombies (this machine's init does not reap orphans, so zombies stay).
func liveGroupMembers(t *testing.T, pgid int) []string {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var live []string
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // it exited while we looked
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so cut at the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid, pgrp int
		if _, err := fmt.Sscanf(s[i+2:], "%s %d %d", &state, &ppid, &pgrp); err != nil {
			continue
		}
		if pgrp == pgid && state != "Z" && state != "X" {
			live = append(live, strings.TrimSpace(s[:i+1]))
		}
	}
	return live
}

// Close ends the server's whole process group, not only the process jig
// started: a helper the server left behind (here a sleep with no pipes, so
// nothing waits on it) is jig's to end too.
func TestCloseEndsTheServersProcessGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to see process groups")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	target := Target{Transport: TransportStdio, Env: map[string]string{"JIG_TEST_SERVER": "demo"},
		Command: []string{"sh", "-c", `sleep 300 </dev/null >/dev/null 2>&1 & exec "$0"`, exe}}
	s, err := Open(ctx(t), Options{Target: target, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pgid := s.proc.cmd.Process.Pid
	if live := liveGroupMembers(t, pgid); len(live) < 2 {
		t.Fatalf("the server's group %d holds %q; want the server and its helper", pgid, live)
	}
	s.Close()
	if live := liveGroupMembers(t, pgid); len(live) > 0 {
		t.Errorf("after Close the server's process group %d still holds %q", pgid, live)
	}
}

// lateSink counts the frames appended after the session was closed: a frame
// that arrives after Close is one the recording has already lost.
type lateSink struct {
	closed atomic.Bool
	late   atomic.Int64
	last   atomic.Value // the note or method of the last late frame
}

func (s *lateSink) WriteFrame(f *frames.Frame) error {
	if s.closed.Load() {
		s.late.Add(1)
		s.last.Store(fmt.Sprintf("%s %s %s", f.Dir, f.Method, f.Note))
	}
	return nil
}

// httpSessions opens n sessions against url one after another; each lists
// the tools and closes. When Close returns, every event stream the session
// opened must be closed in its Log, and nothing may be appended later.
func httpSessions(t *testing.T, url string, n int) {
	t.Helper()
	var sinks []*lateSink
	for i := range n {
		log := frames.NewLog(nil)
		sink := &lateSink{}
		log.AddSink(sink)
		sinks = append(sinks, sink)
		s, err := Open(ctx(t), Options{Target: Target{Transport: TransportStreamable, URL: url}, Log: log})
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if _, _, err := s.ListTools(ctx(t)); err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("session %d: Close() = %v", i, err)
		}
		sink.closed.Store(true)
		opened, closed := 0, 0
		for _, f := range log.Frames() {
			opened += strings.Count(f.Note, "event stream opened")
			closed += strings.Count(f.Note, "event stream closed")
		}
		if opened != closed {
			var b strings.Builder
			frames.WriteText(&b, log)
			t.Fatalf("session %d: Close returned with %d event streams opened and %d closed in the Log: the rest would be lost from the recording\n%s", i, opened, closed, b.String())
		}
	}
	for i, s := range sinks {
		if n := s.late.Load(); n > 0 {
			t.Errorf("session %d: %d frame(s) appended after Close returned (the last: %v)", i, n, s.last.Load())
		}
	}
}

func TestHTTPCloseLosesNoFrame(t *testing.T) {
	t.Run("go-sdk streamable handler", func(t *testing.T) {
		srv, err := demo.New(1)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
		t.Cleanup(ts.Close)
		httpSessions(t, ts.URL, 200)
	})
	t.Run("server-everything streamableHttp", func(t *testing.T) {
		port := startHTTPPeer(t, "streamableHttp")
		httpSessions(t, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), 200)
	})
}

// A session whose server went away on its own says so, and how; one that
// ends because jig closed it does not (the TUI stops saying "connected"
// about a server that exited, and only then).
func TestWaitGoneSaysTheServerExited(t *testing.T) {
	target := nodeTarget(t, "stdio")
	target.Command = append([]string{"timeout", "3"}, target.Command...)
	s, err := Open(ctx(t), Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gone := make(chan string, 1)
	go func() { gone <- s.WaitGone() }()
	select {
	case why := <-gone:
		if why != "the server exited (exit status 124)" {
			t.Errorf("WaitGone() = %q, want the exit named", why)
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitGone did not return a minute after the server was killed")
	}

	s2, err := Open(ctx(t), Options{Target: nodeTarget(t, "stdio")})
	if err != nil {
		t.Fatal(err)
	}
	go func() { gone <- s2.WaitGone() }()
	s2.Close()
	select {
	case why := <-gone:
		if why != "" {
			t.Errorf("after Close, WaitGone() = %q, want \"\": jig ended it", why)
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitGone did not return a minute after Close")
	}
}
