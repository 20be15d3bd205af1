package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the sessions directory at a temporary one: every CLI
// session records by default, and tests must not fill the user's. With
// JIG_HOSTILE set the binary is one of the hostile suite's servers instead.
func TestMain(m *testing.M) {
	if mode := os.Getenv(hostileEnv); mode != "" {
		serveHostile(mode)
	}
	dir, err := os.MkdirTemp("", "jig-state")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
