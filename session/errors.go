package session

import (
	"fmt"
	"strings"
)

// UsageError is a mistake in what the user asked for: a bad flag value, a
// missing environment variable, arguments that are not JSON. The CLI maps it
// to exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ConnectError means the server could not be reached, crashed or timed out.
// The CLI maps it to exit code 3. It carries the server's last stderr lines,
// which usually say why.
type ConnectError struct {
	Target Target
	Err    error
	Stderr []string
}

func (e *ConnectError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v", e.Target, e.Err)
	if len(e.Stderr) > 0 {
		b.WriteString("\nthe server's last stderr lines:")
		for _, l := range e.Stderr {
			b.WriteString("\n  | " + l)
		}
	}
	return b.String()
}

func (e *ConnectError) Unwrap() error { return e.Err }
