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

func TestMain(m *testing.M) {
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
