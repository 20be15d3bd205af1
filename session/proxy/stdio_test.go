package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/session/peers"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

func self(t testing.TB) string {
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func command(t testing.TB, env map[string]string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// wire returns the raw bytes of the message frames that went one way. The
// answer that closes the stateless era's subscription stream is left out: it
// races with the client closing, so whether it crossed depends on timing.
func wire(r frames.Reader, dir frames.Direction) []string {
	var out []string
	for i := range r.Len() {
		f := r.Frame(i)
		if f.IsResponse() && f.Method == "subscriptions/listen" {
			continue
		}
		if f.Dir == dir && (f.Kind.IsMessage() || f.Kind == frames.KindInvalid || f.Kind == frames.KindBatch) {
			b, _ := r.Body(i)
			out = append(out, string(b))
		}
	}
	return out
}

// sorted is a sorted copy of s.
func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// exercise runs the same scripted session a client would, and returns what
// the client's side of the pipe saw.
func exercise(t *testing.T, target session.Target, protocol string, call func(*session.Session)) *frames.Log {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := session.Open(ctx, session.Options{Target: target, ProtocolVersion: protocol, Capabilities: []string{"roots"}})
	if err != nil {
		t.Fatalf("connecting to %s: %v", target, err)
	}
	call(s)
	s.Close()
	return s.Log
}

func TestStdioProxyIsTransparent(t *testing.T) {
	script := func(s *session.Session) {
		ctx := context.Background()
		if _, _, err := s.ListTools(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallTool(ctx, "search_orders", json.RawMessage(`{"customer":"Acme Corp","since":"last month"}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallTool(ctx, "no_such_tool", json.RawMessage(`{}`)); err == nil {
			t.Error("calling an unknown tool succeeded")
		}
	}
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			direct := exercise(t, session.Target{Transport: session.TransportStdio, Command: []string{self(t)}, Env: map[string]string{roleEnv: "demo"}}, protocol, script)
			env, recording := proxyEnv(t, "demo")
			viaProxy := exercise(t, session.Target{Transport: session.TransportStdio, Command: []string{self(t)}, Env: env}, protocol, script)
			rec := readRecording(t, recording)
			for _, dir := range []frames.Direction{frames.ClientToServer, frames.ServerToClient} {
				// Two runs of the server may interleave its messages
				// differently (a notification and a response race): the
				// same bytes, in any order. The recording and the wire it
				// recorded must agree in order too.
				if d := cmp.Diff(sorted(wire(direct, dir)), sorted(wire(viaProxy, dir))); d != "" {
					t.Errorf("%s: the client saw different bytes through the proxy than on a direct pipe (-direct +proxy):\n%s", dir, d)
				}
				if d := cmp.Diff(wire(viaProxy, dir), wire(rec, dir)); d != "" {
					t.Errorf("%s: the recording differs from what crossed the client's pipe (-wire +recording):\n%s", dir, d)
				}
			}
			if len(wire(rec, frames.ClientToServer)) < 3 {
				t.Errorf("the recording holds only %d client frames", len(wire(rec, frames.ClientToServer)))
			}
			// Pairing works on the recording: every request the client sent was
			// answered (but the stateless era's subscription stream, open until close).
			for i := range rec.Len() {
				if f := rec.Frame(i); f.Kind == frames.KindRequest && f.Dir == frames.ClientToServer && rec.Partner(i) < 0 && f.Method != "subscriptions/listen" {
					t.Errorf("recorded request %s id %s has no paired response", f.Method, f.ID)
				}
			}
			if rec.Header.Mode != "proxy" || len(rec.Warnings) > 0 {
				t.Errorf("recording header mode %q, warnings %v", rec.Header.Mode, rec.Warnings)
			}
		})
	}
}

// TestStdioProxyWithSDKCommandTransport drives the proxy the way Claude
// Desktop or Cursor would: the go-sdk client launches it as the server.
func TestStdioProxyWithSDKCommandTransport(t *testing.T) {
	env, recording := proxyEnv(t, "demo")
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: command(t, env, self(t))}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_orders", Arguments: map[string]any{"customer": "acme", "limit": 500}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call through the proxy: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	rec := readRecording(t, recording)
	var methods []string
	for i := range rec.Len() {
		f := rec.Frame(i)
		if f.Dir == frames.ClientToServer && f.Kind == frames.KindRequest {
			methods = append(methods, f.Method)
			if j := rec.Partner(i); j < 0 || rec.Frame(j).Kind != frames.KindResult {
				t.Errorf("request %s has no recorded result", f.Method)
			}
		}
	}
	if d := cmp.Diff([]string{"initialize", "tools/call"}, methods); d != "" {
		t.Errorf("recorded requests differ (-want +got):\n%s", d)
	}
	last := rec.Frame(rec.Len() - 1)
	if last.Kind != frames.KindTransport || !strings.HasPrefix(last.Note, "server exited") {
		t.Errorf("last recorded frame = %s %q, want the server's exit", last.Kind, last.Note)
	}
}

func TestStdioProxyServerEverything(t *testing.T) {
	se := peer(t)
	script := func(s *session.Session) {
		if _, _, err := s.ListTools(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CallTool(context.Background(), "echo", json.RawMessage(`{"message":"through jig"}`)); err != nil {
			t.Fatal(err)
		}
	}
	direct := exercise(t, session.Target{Transport: session.TransportStdio, Command: []string{"node", se, "stdio"}}, "2025-11-25", script)
	env, recording := proxyEnv(t, "", "node", se, "stdio")
	viaProxy := exercise(t, session.Target{Transport: session.TransportStdio, Command: []string{self(t)}, Env: env}, "2025-11-25", script)
	rec := readRecording(t, recording)
	for _, dir := range []frames.Direction{frames.ClientToServer, frames.ServerToClient} {
		if d := cmp.Diff(wire(viaProxy, dir), wire(rec, dir)); d != "" {
			t.Errorf("%s: the recording differs from what crossed the client's pipe (-wire +recording):\n%s", dir, d)
		}
	}
	// server-everything's notifications depend on timing; its answers don't.
	if d := cmp.Diff(results(direct), results(viaProxy)); d != "" {
		t.Errorf("server-everything answered differently through the proxy (-direct +proxy):\n%s", d)
	}
}

// results are the server's responses to the client's requests, by method.
func results(l *frames.Log) map[string]string {
	out := map[string]string{}
	for i := range l.Len() {
		f := l.Frame(i)
		if f.Dir == frames.ServerToClient && f.IsResponse() {
			out[f.Method+" "+f.ID] = string(f.Raw)
		}
	}
	return out
}

func TestStdioProxyExitStatusAndStderr(t *testing.T) {
	env, recording := proxyEnv(t, "exit7")
	cmd := command(t, env, self(t))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("proxy exit = %v, want the server's exit status 7", err)
	}
	if want := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error"}}` + "\n"; stdout.String() != want {
		t.Errorf("stdout = %q, want exactly the server's output %q (the proxy must print nothing itself)", stdout.String(), want)
	}
	if stderr.String() != "fatal: no database\n" {
		t.Errorf("stderr = %q, want the server's stderr passed through", stderr.String())
	}
	rec := readRecording(t, recording)
	var kinds []string
	for _, f := range rec.Frames {
		// Who ended it depends on whether the client's empty stdin
		// ended first: TestStdioProxySaysWhoEndedTheServer holds that.
		note, _, _ := strings.Cut(f.Note, " (")
		kinds = append(kinds, string(f.Kind)+" "+string(f.Raw)+note)
	}
	want := []string{"stderr fatal: no database", `notification {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error"}}`, "transport server exited: exit status 7"}
	if d := cmp.Diff(want, kinds, cmpSorted()); d != "" {
		t.Errorf("recorded frames differ (-want +got):\n%s", d)
	}
}

func TestStdioProxyPassesSIGTERM(t *testing.T) {
	env, recording := proxyEnv(t, "sigterm")
	cmd := command(t, env, self(t))
	out, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(line, "ready") {
		t.Fatalf("waiting for the server: %q %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 42 {
		t.Fatalf("proxy exit = %v, want 42: the server exits 42 on SIGTERM, so it was not passed on (stderr: %s)", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "got SIGTERM") {
		t.Errorf("stderr = %q, want the server's goodbye", stderr.String())
	}
	rec := readRecording(t, recording)
	if last := rec.Frames[len(rec.Frames)-1]; last.Note != "server exited: exit status 42 (jig proxy passed on the SIGTERM it received)" {
		t.Errorf("last frame note = %q", last.Note)
	}
}

// The proxy's recording says who ended the server, worded as jig's own
// sessions say it: the client closing its stdin (server-memory exits on
// EOF), a signal the proxy received and passed on (server-everything dies
// of it: it said "killed by terminated"), or nobody the proxy knows of.
func TestStdioProxySaysWhoEndedTheServer(t *testing.T) {
	for _, tt := range []struct {
		name, peer string
		signal     bool
		want       string
	}{
		{name: "client closed stdin", peer: peers.MemoryNew, want: "server exited: exit status 0 (the client closed its stdin)"},
		{name: "SIGTERM passed on", peer: peers.Everything, signal: true, want: "server exited: signal: terminated (jig proxy passed on the SIGTERM it received)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			node := peers.Node(t, tt.peer, "stdio")
			env, recording := proxyEnv(t, "", node...)
			cmd := command(t, env, self(t))
			cmd.Env = append(cmd.Env, "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.json"))
			stdin, _ := cmd.StdinPipe()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// One answered ping: the server is up and reading.
			io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
			if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
				t.Fatalf("ping through the proxy: %q %v\n%s", line, err, stderr.String())
			}
			if tt.signal {
				cmd.Process.Signal(syscall.SIGTERM)
			} else {
				stdin.Close()
			}
			go io.Copy(io.Discard, out)
			cmd.Wait()
			rec := readRecording(t, recording)
			if last := rec.Frames[len(rec.Frames)-1]; last.Note != tt.want {
				t.Errorf("the last frame says %q, want %q", last.Note, tt.want)
			}
			if tt.signal && !strings.Contains(noteList(rec), "jig proxy received SIGTERM and passed it on to the server") {
				t.Errorf("the recording does not say the proxy passed SIGTERM on:\n%s", noteList(rec))
			}
		})
	}
}

func noteList(rec *frames.Transcript) string {
	var b strings.Builder
	for _, f := range rec.Frames {
		if f.Kind == frames.KindTransport {
			b.WriteString(f.Note + "\n")
		}
	}
	return b.String()
}

// TestSIGKILLLeavesAReadableRecording kills the proxy mid-stream: every
// record on disk is a complete frame, in order, equal to what crossed.
func TestSIGKILLLeavesAReadableRecording(t *testing.T) {
	env, recording := proxyEnv(t, "echo")
	cmd := command(t, env, self(t))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const n = 5000
	sent := make([]string, n)
	for i := range sent {
		sent[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"%s"}}`, i, strings.Repeat("p", i%300))
	}
	go func() {
		for _, s := range sent {
			if _, err := io.WriteString(stdin, s+"\n"); err != nil {
				return
			}
		}
	}()
	br := bufio.NewReader(stdout)
	for i := range n / 2 {
		line, err := br.ReadString('\n')
		if err != nil || line != sent[i]+"\n" {
			t.Fatalf("echo %d = %q, %v; want %q", i, line, err, sent[i])
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	rec := readRecording(t, recording)
	for _, w := range rec.Warnings {
		if !strings.Contains(w, "cut off") {
			t.Errorf("warning %q: only a cut-off last record is acceptable", w)
		}
	}
	var c2s, s2c int
	for i, f := range rec.Frames {
		if f.Seq != int64(i+1) {
			t.Fatalf("frame %d has seq %d: a record is missing or out of order", i, f.Seq)
		}
		switch f.Dir {
		case frames.ClientToServer:
			if string(f.Raw) != sent[c2s] {
				t.Fatalf("c2s frame %d = %q, want %q", c2s, f.Raw, sent[c2s])
			}
			c2s++
		case frames.ServerToClient:
			if f.Kind != frames.KindStderr && string(f.Raw) != sent[s2c] {
				t.Fatalf("s2c frame %d = %q, want %q", s2c, f.Raw, sent[s2c])
			}
			s2c++
		}
	}
	if c2s == 0 || s2c == 0 {
		t.Errorf("the recording holds %d c2s and %d s2c frames; the proxy was killed after %d round trips", c2s, s2c, n/2)
	}
	t.Logf("killed after %d round trips; %d c2s and %d s2c frames on disk", n/2, c2s, s2c)
}

func cmpSorted() cmp.Option {
	return cmp.Transformer("sort", func(in []string) []string {
		out := append([]string(nil), in...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j] < out[i] {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	})
}

// peer returns server-everything's entry point (PEERS.md).
func peer(t *testing.T) string { return peers.Path(t, peers.Everything) }

// A proxied command that is a directory is told as a directory (not as a
// program missing from PATH), before anything is started.
func TestStdioProxyDirectoryCommandSaysSo(t *testing.T) {
	dir := t.TempDir()
	p := &Stdio{Command: []string{dir}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Log: frames.NewLog(nil)}
	_, err := p.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "is a directory, not a program") || strings.Contains(err.Error(), "PATH") {
		t.Fatalf("Run with a directory: %v", err)
	}
}

// A server that exits on its own is said to have, even when the client
// closes its stdin afterwards while the proxy still drains the pipes (here
// a process the server started holds its stdout): who ended it is decided
// when it exited, not when the proxy finished.
func TestStdioProxySaysAServerEndedItself(t *testing.T) {
	server := []string{"sh", "-c", `read line; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; sleep 3 & exit 0`}
	env, recording := proxyEnv(t, "", server...)
	cmd := command(t, env, self(t))
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("ping through the proxy: %q %v", line, err)
	}
	// The server has exited by now or is about to; its sleep holds the pipe,
	// so the proxy waits its grace before it ends.
	time.Sleep(time.Second)
	stdin.Close()
	go io.Copy(io.Discard, out)
	cmd.Wait()
	rec := readRecording(t, recording)
	const want = "server exited: exit status 0 (on its own: the client had not closed its stdin)"
	if last := rec.Frames[len(rec.Frames)-1]; last.Note != want {
		t.Errorf("the last frame says %q, want %q\n%s", last.Note, want, noteList(rec))
	}
}
