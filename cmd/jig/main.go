package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpjig/jig/session"
)

func main() {
	if versionOnly(os.Args[1:]) {
		// Scripts ask this in loops: answered before the signal handling
		// (two threads the runtime starts) and the command tree. A reader
		// that went away is an EPIPE to ignore, as the other commands do.
		signal.Ignore(syscall.SIGPIPE)
		os.Stdout.WriteString(versionLine())
		os.Exit(exitOK)
	}
	ctx, cancel, stop := withSignals(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, guardPipe(os.Stdout, cancel), guardPipe(os.Stderr, cancel))
	// A session still opening when the command ended (the TUI quit during a
	// handshake) is closed by no one else: end every server jig started.
	session.EndAll()
	stop()
	os.Exit(code)
}
