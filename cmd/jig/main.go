package main

import (
	"context"
	"os"

	"github.com/mcpjig/jig/session"
)

func main() {
	ctx, cancel, stop := withSignals(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, guardPipe(os.Stdout, cancel), guardPipe(os.Stderr, cancel))
	// A session still opening when the command ended (the TUI quit during a
	// handshake) is closed by no one else: end every server jig started.
	session.EndAll()
	stop()
	os.Exit(code)
}
