package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/mcpjig/jig/session/oauth/oauthtest"
)

// TestMain points the sessions directory at a temporary one: every CLI
// session records by default, and tests must not fill the user's; so does
// the OAuth credentials store, kept out of the OS keyring. With JIG_HOSTILE
// set the binary is one of the hostile suite's servers instead; started as
// oauthtest's browser, it follows a login's redirect.
func TestMain(m *testing.M) {
	if mode := os.Getenv(hostileEnv); mode != "" {
		serveHostile(mode)
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
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
