package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
)

// Exit codes, shared by every command. This file is the only place that
// turns an outcome into a number: commands return errors (a typed session
// error, a usageErr, an exitError) and exitCode decides.
const (
	exitOK          = 0
	exitServerError = 1 // a JSON-RPC error, a result with isError, drift
	exitUsage       = 2 // usage or config error
	exitUnreachable = 3 // the server could not be reached, crashed or timed out
	// exitCancelled is jig call's exit code when --cancel-after cancelled the
	// call: the user's choice, not a failure of the server (exit 3).
	exitCancelled = 4
)

// exitError carries an exit code with the message already printed or to print.
type exitError struct {
	code int
	err  error // nil when the message was already printed
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitWith is nil for exitOK, else an exitError whose message was printed.
func exitWith(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// exitCode is the exit code of a command's error.
func exitCode(err error) int {
	var ee *exitError
	var se *signalError
	var ue *session.UsageError
	var fe *fixture.FileError
	var ce *session.ConnectError
	var re *session.RPCError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &se):
		return 128 + int(se.sig)
	case errors.As(err, &ue), errors.As(err, &fe):
		return exitUsage
	case errors.As(err, &ce):
		return exitUnreachable
	case errors.As(err, &re):
		return exitServerError
	case errors.Is(err, context.Canceled):
		return exitUnreachable
	}
	return exitUsage // cobra's own errors: unknown flags, missing args
}

// worstCode keeps the most actionable of several outcomes (jig replay runs
// many fixtures): 2 (fix the fixture or the command) outranks 3 (the
// server), which outranks 1 (drift).
type worstCode int

func (w *worstCode) add(code int) {
	rank := map[int]int{exitOK: 0, exitServerError: 1, exitUnreachable: 2, exitUsage: 3}
	if rank[code] > rank[int(*w)] {
		*w = worstCode(code)
	}
}

func (w worstCode) err() error { return exitWith(int(w)) }

func usageErr(format string, a ...any) error {
	return &session.UsageError{Err: fmt.Errorf(format, a...)}
}
