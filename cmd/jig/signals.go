package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// A signalError is why a command stopped when a signal ended it: SIGINT
// (ctrl+c), SIGTERM, SIGHUP (its terminal closed) or SIGPIPE (its stdout's
// reader went away). It exits 128+n, as a shell reports a process the signal
// killed, but jig ended its session first: the server's process group is
// gone and the recording is complete.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "interrupted by " + frames.SignalName(e.sig) }

// interruption is the signal that cancelled ctx, or nil.
func interruption(ctx context.Context) *signalError {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		return se
	}
	return nil
}

// withSignals returns a context that the first SIGINT, SIGTERM or SIGHUP
// cancels with a *signalError as its cause, so every command ends through
// its context and closes its session, instead of dying with the server
// still running. SIGPIPE is caught too, so a write to a closed stdout
// returns EPIPE instead of killing jig; stdout and stderr, wrapped by
// guardPipe, then cancel the context the same way. (A server's own pipes
// breaking raise SIGPIPE as well; that is the session's to report.)
func withSignals(parent context.Context) (ctx context.Context, cancel context.CancelCauseFunc, stop func()) {
	ctx, cancel = context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				if sig := s.(syscall.Signal); sig != syscall.SIGPIPE {
					// Before the cancel: the servers it ends record why.
					session.Interrupted("jig was interrupted (" + frames.SignalName(sig) + ")")
					cancel(&signalError{sig})
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, cancel, func() { signal.Stop(sigs); close(done); cancel(nil) }
}

// pipeGuard is one of jig's standard streams: the first write that finds
// its reader gone cancels the command with SIGPIPE as the cause. It is still
// the file (Read, Close, Fd), so the TUI knows its terminal.
type pipeGuard struct {
	*os.File
	once   sync.Once
	cancel context.CancelCauseFunc
}

func guardPipe(f *os.File, cancel context.CancelCauseFunc) *pipeGuard {
	return &pipeGuard{File: f, cancel: cancel}
}

func (g *pipeGuard) Write(p []byte) (int, error) {
	n, err := g.File.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		g.once.Do(func() { g.cancel(&signalError{syscall.SIGPIPE}) })
	}
	return n, err
}
