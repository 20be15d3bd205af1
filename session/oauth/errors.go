package oauth

import (
	"fmt"
	"strings"
)

// An Error is a failed step of an OAuth flow: which step, against which URL,
// what went wrong and what to do. The frames of the steps before it stay in
// the session's log.
type Error struct {
	Step string // a Step* constant
	URL  string // the URL of the step, redacted
	Err  error
	Hint string // what to do next
	// NoMetadata: the server offers no OAuth metadata at all (no
	// protected-resource nor authorization-server metadata), so there is no
	// authorization server to log in at.
	NoMetadata bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("OAuth " + e.Step)
	if e.URL != "" {
		b.WriteString(" (" + e.URL + ")")
	}
	b.WriteString(": " + e.Err.Error())
	if e.Hint != "" {
		b.WriteString("; " + e.Hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// NeedsLoginError means the server asked for OAuth and jig was told not to
// start a login (--auth-stored-only, replay): no stored credentials, or the
// stored ones were refused or could not be refreshed.
type NeedsLoginError struct {
	Server string
	Reason string
	// Scopes are the scopes the server asked for, when it said.
	Scopes []string
}

func (e *NeedsLoginError) Error() string {
	cmd := "jig auth login --url " + e.Server
	if len(e.Scopes) > 0 {
		cmd += fmt.Sprintf(" --scope %q", strings.Join(e.Scopes, " "))
	}
	return fmt.Sprintf("the server needs OAuth and jig may not log in here (%s); log in first with: %s (or use --client-credentials)", e.Reason, cmd)
}

// LoginCommand is the command that logs in to the server.
func (e *NeedsLoginError) LoginCommand() string { return "jig auth login --url " + e.Server }
