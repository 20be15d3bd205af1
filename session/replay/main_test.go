package replay

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/mcpjig/jig/session/peers"

	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/demo"
)

// TestMain lets the test binary act as the demo server over stdio when
// re-executed with JIG_TEST_SERVER=demo (as 'jig serve-demo' does), so the
// replay runs against a real child process and real pipes.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("JIG_TEST_SERVER"); mode {
	case "":
		os.Exit(m.Run())
	case "demo":
		release, _ := strconv.Atoi(os.Getenv("JIG_TEST_RELEASE"))
		if err := demo.ServeStdio(context.Background(), max(release, 1)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		fmt.Fprintf(os.Stderr, "unknown JIG_TEST_SERVER %q\n", mode)
		os.Exit(2)
	}
}

// stdioDemo is the demo server of a release as a stdio child process.
func stdioDemo(tb testing.TB, release int) session.Target {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	return session.Target{Transport: session.TransportStdio, Command: []string{exe},
		Env: map[string]string{"JIG_TEST_SERVER": "demo", "JIG_TEST_RELEASE": strconv.Itoa(release)}}
}

// serverEverything returns the stdio target of the server-everything peer.
func serverEverything(t *testing.T) session.Target {
	return session.Target{Transport: session.TransportStdio, Command: peers.Node(t, peers.Everything, "stdio")}
}
