package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpjig/jig/frames"
)

// ServerGoneError is a call the server took and will never answer: while
// it waited, the HTTP server went away (a reconnect found nobody listening,
// the connection was reset). jig stops waiting at once; the go-sdk would
// retry its event streams for about 24 s and then fail the call naming its
// own stream.
type ServerGoneError struct {
	Method string // what was sent ("tools/call echo")
	Why    string // the network's reason ("connect: connection refused")
}

func (e *ServerGoneError) Error() string {
	return fmt.Sprintf("%s: no answer: the server went away mid-call (%s), so jig stopped waiting; is it still running? "+
		"When it is back, call again in a new session (jig connect to look; r reconnects in the TUI)", e.Method, e.Why)
}

// goneWatch returns a context that ends, with a *ServerGoneError as its
// cause, when the session's HTTP server stops answering after a request of
// the call ctx belongs to was delivered (what a failed POST did not
// deliver fails by itself, as a NotAnsweredError). It first writes the
// frame that says the server went away, which ends every open request in
// the recording (frames.ServerGoneNote). A stdio session, or a request
// that is not a call, is watched by nothing.
func (s *Session) goneWatch(ctx context.Context, what string) (context.Context, context.CancelFunc) {
	w, _ := ctx.Value(writtenKey{}).(*written)
	if s.http == nil || w == nil {
		return ctx, func() {}
	}
	seen, changed, ended := s.http.reach.state()
	if ended {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-changed:
			}
			why, next, ended := s.http.reach.state()
			if ended {
				return
			}
			changed = next
			if why == "" || why == seen || !w.delivered.Load() {
				seen = why
				continue
			}
			w.gone.Store(&why)
			s.Log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport,
				Note: frames.ServerGoneNote + ": " + why + " (jig stopped waiting for what it had asked)"})
			cancel(&ServerGoneError{Method: what, Why: why})
			return
		}
	}()
	return ctx, func() { cancel(nil) }
}

// goneError is the *ServerGoneError ctx was ended with, or nil.
func goneError(ctx context.Context) *ServerGoneError {
	var g *ServerGoneError
	if errors.As(context.Cause(ctx), &g) {
		return g
	}
	return nil
}
