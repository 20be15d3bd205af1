package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/demo"
	"github.com/mcpjig/jig/session/oauth/oauthtest"
	"github.com/mcpjig/jig/session/record"
)

// roleEnv makes the re-executed test binary play a part: the proxy itself
// (as `jig proxy` would run), the demo server, or a server that misbehaves.
const (
	roleEnv   = "JIG_PROXY_TEST_ROLE"
	argsEnv   = "JIG_PROXY_TEST_ARGS"   // the proxied command, as JSON
	recordEnv = "JIG_PROXY_TEST_RECORD" // the proxy's recording
	childEnv  = "JIG_PROXY_TEST_CHILD"  // the role the proxied child plays
)

func TestMain(m *testing.M) {
	oauthtest.MaybeBrowse()
	role := os.Getenv(roleEnv)
	if ok, code := loadRole(role); ok {
		os.Exit(code)
	}
	switch role {
	case "":
		os.Exit(m.Run())
	case "proxy":
		os.Exit(runProxyRole())
	case "demo":
		if err := demo.ServeStdio(context.Background(), 1); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "echo":
		io.Copy(os.Stdout, os.Stdin)
		os.Exit(0)
	case "exit7":
		fmt.Fprintln(os.Stderr, "fatal: no database")
		os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error"}}` + "\n")
		os.Exit(7)
	case "sigterm":
		// Says it is ready, then waits for SIGTERM and exits 42 on it.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGTERM)
		os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"notifications/ready"}` + "\n")
		<-c
		fmt.Fprintln(os.Stderr, "got SIGTERM, shutting down")
		os.Exit(42)
	default:
		fmt.Fprintf(os.Stderr, "unknown %s %q\n", roleEnv, role)
		os.Exit(2)
	}
}

// runProxyRole is `jig proxy --record $JIG_PROXY_TEST_RECORD -- ARGS...`.
func runProxyRole() int {
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv(argsEnv)), &args); err != nil {
		fmt.Fprintln(os.Stderr, "proxy role:", err)
		return 2
	}
	log := frames.NewLog(nil)
	target, _ := json.Marshal(record.Target{Transport: "stdio", Command: args})
	_, closer, err := record.ForLog(log, record.Options{Path: os.Getenv(recordEnv), Target: target, Mode: "proxy", Inline: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer closer()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	env := append(os.Environ(), roleEnv+"="+os.Getenv(childEnv))
	code, err := (&Stdio{Command: args, Env: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Log: log, Signals: sigs}).Run(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "jig:", err)
		return 3
	}
	return code
}

// proxyEnv is the environment that makes the test binary proxy itself in
// the child role, recording to a new file it returns.
func proxyEnv(t testing.TB, child string, args ...string) (env map[string]string, recording string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if len(args) == 0 {
		args = []string{self}
	}
	a, _ := json.Marshal(args)
	recording = filepath.Join(t.TempDir(), "proxy.jsonl")
	return map[string]string{roleEnv: "proxy", argsEnv: string(a), recordEnv: recording, childEnv: child}, recording
}

// readRecording reads a proxy's transcript back.
func readRecording(t testing.TB, path string) *frames.Transcript {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := frames.ReadTranscript(f)
	if err != nil {
		t.Fatalf("reading the recording %s: %v", path, err)
	}
	return tr
}

// waitFor polls cond, for things that happen in another process.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
