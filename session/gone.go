package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	// StreamEnded: the server closed the call's event stream without the
	// answer and with no event id to resume from (a server shutting down
	// does; so does one that drops a call).
	StreamEnded bool
}

func (e *ServerGoneError) Error() string {
	if e.StreamEnded {
		return fmt.Sprintf("%s: no answer: the server closed the call's event stream without answering it and gave no event id to resume from, so none can come; "+
			"is it still running? Call again (jig connect to look; r reconnects in the TUI)", e.Method)
	}
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
			s.goneFrame(why + " (jig stopped waiting for what it had asked)")
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

// goneFrame writes the frame that says the server went away, which ends
// every open request in the recording.
func (s *Session) goneFrame(why string) {
	s.Log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Note: frames.ServerGoneNote + ": " + why})
}

// sdkStreamEnded is the go-sdk's error (a plain string, v1.8.0
// streamable.go) for a call whose POST's event stream the server closed
// without the answer and without an event id to resume from.
const sdkStreamEnded = "request terminated without response"

// lostAnswer is the *ServerGoneError for a call the server took (its HTTP
// request reached it) that failed because the connection under the SDK
// ended: a legacy SSE server's event stream closed, and the go-sdk failed
// every open call with "EOF"; or the server closed the call's own event
// stream without the answer and with no event id to resume from (a
// go-sdk server that dies does). nil for anything else, and while the
// session closes.
func (s *Session) lostAnswer(ctx context.Context, what string, err error) *ServerGoneError {
	w, _ := ctx.Value(writtenKey{}).(*written)
	if s.http == nil || w == nil || !w.delivered.Load() || s.closing.Load() || ctx.Err() != nil {
		return nil
	}
	if ids := w.all(); len(ids) > 0 && strings.Contains(err.Error(), sdkStreamEnded) {
		s.Log.Append(frames.Frame{Dir: frames.ServerToClient, Kind: frames.KindTransport, Answers: ids[len(ids)-1],
			Note: frames.StreamEndedNote + ": the server closed the event stream of " + w.method + " id " + ids[len(ids)-1] +
				" without answering it, and gave no event id to resume from"})
		return &ServerGoneError{Method: what, StreamEnded: true}
	}
	if _, ok := unanswered(err); ok || !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // a request that failed on its own round trip says so (NotAnsweredError)
	}
	why := "its event stream ended"
	if s.opts.Target.Transport == TransportStreamable {
		why = "the connection ended"
	}
	s.goneFrame(why + " (" + err.Error() + "), and no answer can come on it")
	return &ServerGoneError{Method: what, Why: why}
}
