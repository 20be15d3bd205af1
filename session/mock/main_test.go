package mock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// serveEnv makes the test binary a stdio mock server of the paths it
// lists, for clients that start their server as a command (the SDK's own
// trick).
const serveEnv = "JIG_MOCK_TEST_SERVE"

// serveHTTPEnv makes the test binary a Streamable HTTP mock server of the
// fixtures in the directory it names, on a loopback port it prints, with
// its own costs at /cost (see serveCost): the benchmarks that tell the
// mock's cost per call from the client's run it as a process of its own.
const serveHTTPEnv = "JIG_MOCK_TEST_SERVE_HTTP"

func TestMain(m *testing.M) {
	if dir := os.Getenv(serveHTTPEnv); dir != "" {
		if err := serveHTTP(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if paths := os.Getenv(serveEnv); paths != "" {
		b, err := Load(filepath.SplitList(paths)...)
		if err == nil {
			var s *Server
			if s, err = New(b, Options{Speed: 10}); err == nil {
				err = s.ServeStdio(context.Background(), os.Stdin, os.Stdout)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
