package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

// asJigEnv makes the test binary run as jig.
const asJigEnv = "JIG_TEST_AS_JIG"

// TestMain points the sessions directory at a temporary one: every CLI
// session records by default, and tests must not fill the user's; so does
// the OAuth credentials store, kept out of the OS keyring. With JIG_HOSTILE
// set the binary is one of the hostile suite's servers instead; started as
// oauthtest's browser, it follows a login's redirect.
func TestMain(m *testing.M) {
	if os.Getenv(asJigEnv) == "1" {
		// The test binary as jig itself, for tests that need jig as a
		// command (jig replay ... -- jig mock ...).
		ctx, cancel, stop := withSignals(context.Background())
		code := run(ctx, os.Args[1:], os.Stdin, guardPipe(os.Stdout, cancel), guardPipe(os.Stderr, cancel))
		stop()
		os.Exit(code)
	}
	if mode := os.Getenv(hostileEnv); mode != "" {
		serveHostile(mode)
	}
	if after := os.Getenv(release3Env); after != "" {
		serveRelease3(after)
	}
	oauthtest.MaybeBrowse()
	dir, err := os.MkdirTemp("", "jig-state")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("JIG_KEYRING", "off")
	binDir = filepath.Join(dir, "bin")
	os.MkdirAll(binDir, 0o700)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
