package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// Everything the UI asks for that takes time. Each command runs off the UI
// goroutine and answers with one message from messages.go; none of them
// touches the model.

// run is how every command here is made: f runs off the UI goroutine and
// answers with a routed message (or nil), so no reply can lack a handler.
func run(f func() routed) tea.Cmd {
	return func() tea.Msg {
		if r := f(); r != nil {
			return r
		}
		return nil
	}
}

// connect opens the session. A session that opens after the UI quit (ctx
// done) is closed at once so its server does not outlive jig.
func connect(ctx context.Context, opts session.Options, timeout time.Duration, attempt int) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		s, err := session.Open(cctx, opts)
		if err != nil {
			return connectFailedMsg{attempt: attempt, err: err}
		}
		if ctx.Err() != nil {
			s.Close()
			return connectFailedMsg{attempt: attempt, err: ctx.Err()}
		}
		return connectedMsg{attempt: attempt, s: s}
	})
}

// listTools lists every tool; it always goes to the wire.
func listTools(ctx context.Context, s *session.Session, timeout time.Duration, reason string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		raw, typed, err := s.ListTools(cctx)
		return toolsListedMsg{reason: reason, raw: raw, typed: typed, findings: lintTools(raw), err: err}
	})
}

// listResources lists every resource, across all pages.
func listResources(ctx context.Context, s *session.Session, timeout time.Duration, reason string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		raw, err := s.ListResources(cctx)
		return resourcesListedMsg{reason: reason, raw: raw, err: err}
	})
}

// listTemplates lists every resource template, across all pages.
func listTemplates(ctx context.Context, s *session.Session, timeout time.Duration, reason string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		raw, err := s.ListResourceTemplates(cctx)
		return templatesListedMsg{reason: reason, raw: raw, err: err}
	})
}

// listPrompts lists every prompt, across all pages.
func listPrompts(ctx context.Context, s *session.Session, timeout time.Duration, reason string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		raw, err := s.ListPrompts(cctx)
		return promptsListedMsg{reason: reason, raw: raw, err: err}
	})
}

// readResource sends resources/read for uri; the reply is call id's.
func readResource(ctx context.Context, s *session.Session, timeout time.Duration, id int, uri string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		ex, err := s.ReadResource(cctx, uri)
		return callDoneMsg{id: id, ex: ex, err: err}
	})
}

// getPrompt sends prompts/get; the reply is call id's.
func getPrompt(ctx context.Context, s *session.Session, timeout time.Duration, id int, name string, args map[string]string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		ex, err := s.GetPrompt(cctx, name, args)
		return callDoneMsg{id: id, ex: ex, err: err}
	})
}

// callTool sends tools/call with args exactly as typed. ctx is the call's
// own: cancelling it with session.ErrCancelled cancels the call. With
// progress, the call carries a progress token and each notification is
// handed to the progress channel without blocking the SDK.
func callTool(ctx context.Context, s *session.Session, timeout time.Duration, id int, name, args string, progress chan<- progressMsg) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		var opts session.CallOptions
		if progress != nil {
			opts.OnProgress = func(p session.Progress) {
				select {
				case progress <- progressMsg{id: id, p: p}:
				default: // the UI is behind; the frames pane has every notification
				}
			}
		}
		ex, err := s.CallToolWith(cctx, name, json.RawMessage(args), opts)
		return callDoneMsg{id: id, ex: ex, err: err}
	})
}

// waitProgress reports the next progress notification of any call.
func waitProgress(ctx context.Context, ch <-chan progressMsg) tea.Cmd {
	return run(func() routed {
		select {
		case p := <-ch:
			return p
		case <-ctx.Done():
			return nil
		}
	})
}

// waitAsk reports the next request the server sent for a human to answer.
func waitAsk(ctx context.Context, a *asker) tea.Cmd {
	return run(func() routed {
		select {
		case q := <-a.ch:
			return serverAskMsg{q: q}
		case <-ctx.Done():
			return nil
		}
	})
}

// waitAskDone reports when the hook waiting on q has returned.
func waitAskDone(q *serverAsk) tea.Cmd {
	return run(func() routed {
		<-q.done
		return askDoneMsg{id: q.id}
	})
}

// setLogLevel sends logging/setLevel.
func setLogLevel(ctx context.Context, s *session.Session, timeout time.Duration, level string) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		return logLevelSetMsg{level: level, err: s.SetLogLevel(cctx, level)}
	})
}

// sendRaw sends a raw message off the UI goroutine and waits for its
// answer (session.SendRaw).
func sendRaw(ctx context.Context, s *session.Session, msg sendRawMsg) tea.Cmd {
	return run(func() routed {
		res, err := s.SendRaw(ctx, []byte(msg.text), session.RawOptions{Wait: rawWait})
		return rawDoneMsg{res: res, err: err, suggested: msg.suggested}
	})
}

// complete asks for a prompt argument's completions off the UI goroutine.
func complete(ctx context.Context, s *session.Session, timeout time.Duration, msg completeMsg) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		_, c, err := s.Complete(cctx, session.CompletionRef{Prompt: msg.prompt, Template: msg.template}, msg.arg, msg.partial, msg.given)
		done := completedMsg{completeMsg: msg, err: err}
		if c != nil {
			done.values, done.more = c.Values, c.HasMore
		}
		return done
	})
}

// subscribe sends resources/subscribe (or unsubscribe) off the UI goroutine.
func subscribe(ctx context.Context, s *session.Session, timeout time.Duration, msg subscribeMsg) tea.Cmd {
	return run(func() routed {
		cctx, cancel := session.WithTimeout(ctx, timeout)
		defer cancel()
		var err error
		if msg.on {
			_, err = s.Subscribe(cctx, msg.uri)
		} else {
			_, err = s.Unsubscribe(cctx, msg.uri)
		}
		return subscribedMsg{subscribeMsg: msg, err: err}
	})
}

// waitResourceUpdated reports the next notifications/resources/updated.
func waitResourceUpdated(ctx context.Context, ch <-chan string) tea.Cmd {
	return run(func() routed {
		select {
		case uri := <-ch:
			return resourceUpdatedMsg{uri: uri}
		case <-ctx.Done():
			return nil
		}
	})
}

// renderCall renders a large result off the UI goroutine.
func renderCall(c *call) tea.Cmd {
	return run(func() routed {
		d, partial := c.render()
		redactDoc(c.red, d) // here, not when the UI draws it
		return renderedMsg{id: c.id, doc: d, partial: partial}
	})
}

// indexTools reads which tool each tools/call request in frames [from, to)
// names (the frames pane runs it off the UI goroutine, as its own command).
// It reads only those requests' bodies.
func indexTools(ctx context.Context, r frames.Reader, from, to int) tea.Msg {
	names := map[int]string{}
	for i := from; i < to; i++ {
		if ctx.Err() != nil {
			return nil
		}
		if f := r.Frame(i); f.Kind != frames.KindRequest || f.Method != "tools/call" {
			continue
		}
		names[i] = toolNameOf(r, i)
	}
	return toolsIndexedMsg{names: names}
}

// A waiter is a frame source that can block until it grows (a live
// frames.Log); a transcript read from disk is not one.
type waiter interface {
	Wait(ctx context.Context, n int) (int, error)
}

// waitFrames re-arms after every framesMsg: it reports when the log holds
// more than n frames.
func waitFrames(ctx context.Context, w waiter, n int) tea.Cmd {
	return run(func() routed {
		got, err := w.Wait(ctx, n)
		if err != nil {
			return nil
		}
		return framesMsg{n: got}
	})
}

// waitToolsChanged reports the next notifications/tools/list_changed.
func waitToolsChanged(ctx context.Context, ch <-chan struct{}) tea.Cmd {
	return run(func() routed {
		select {
		case <-ch:
			return toolsChangedMsg{}
		case <-ctx.Done():
			return nil
		}
	})
}

// waitListChanged reports the next notifications/resources/list_changed
// (pane paneResources) or prompts/list_changed (panePrompts).
func waitListChanged(ctx context.Context, ch <-chan struct{}, pane paneID) tea.Cmd {
	return run(func() routed {
		select {
		case <-ch:
			return listChangedMsg{pane: pane}
		case <-ctx.Done():
			return nil
		}
	})
}

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

// buildPin builds the fixture for a call (or, with several exchanges, the
// scenario of the session's last calls) with replay.PinScenario, unless have is
// already built, and looks at the file it would go to. Pin may call a
// read-only tool once more to see which values vary: real traffic, which
// the frames pane shows like any other.
func buildPin(ctx context.Context, cancel context.CancelFunc, s *session.Session, exs []*session.Exchange, opts replay.PinOptions, path string, have *fixture.Fixture, token int) tea.Cmd {
	return run(func() routed {
		defer cancel()
		f := have
		if f == nil {
			var err error
			if f, err = replay.PinScenario(ctx, s, exs, opts); err != nil {
				return pinBuiltMsg{token: token, err: err}
			}
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return pinBuiltMsg{token: token, f: f, err: fmt.Errorf("file %s: %w", path, err)}
		}
		_, err = os.Stat(path)
		return pinBuiltMsg{token: token, f: f, abs: abs, exists: err == nil}
	})
}

// savePin saves a reviewed fixture. It refuses to replace an existing file
// unless overwrite is set; fixture.Save itself refuses secret-shaped values.
func savePin(f *fixture.Fixture, path string, overwrite bool, token int) tea.Cmd {
	return run(func() routed {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		if _, err := os.Stat(path); err == nil && !overwrite {
			return pinSavedMsg{token: token, path: path, abs: abs, exists: true,
				err: fmt.Errorf("%s already exists, so nothing was written: o overwrites it, e picks another file", path)}
		}
		if err := frames.MkdirPrivate(filepath.Dir(path)); err != nil {
			return pinSavedMsg{token: token, path: path, abs: abs, err: fmt.Errorf("cannot create the folder for %s: %w", path, err)}
		}
		if err := f.Save(path); err != nil {
			return pinSavedMsg{token: token, path: path, abs: abs, err: fmt.Errorf("nothing was written to %s: %w", path, err)}
		}
		return pinSavedMsg{token: token, path: path, abs: abs}
	})
}

// closeSession ends the session (and stops a stdio server).
func closeSession(s *session.Session) tea.Cmd {
	return run(func() routed { return closedMsg{s: s, err: s.Close()} })
}

// closeBeforeReconnect bounds how long a reconnect waits for the old
// session to close.
const closeBeforeReconnect = 3 * time.Second

// closeWithin closes s, reporting it closed once it has or once limit has
// passed, whichever is first; the close goes on after that in the
// background, and its error, then, is not reported.
func closeWithin(s *session.Session, limit time.Duration) tea.Cmd {
	return run(func() routed {
		done := make(chan error, 1)
		go func() { done <- s.Close() }()
		select {
		case err := <-done:
			return closedMsg{s: s, err: err}
		case <-time.After(limit):
			return closedMsg{s: s}
		}
	})
}

// waitGone reports that session s ended without jig closing it.
func waitGone(s *session.Session) tea.Cmd {
	return run(func() routed {
		if why := s.WaitGone(); why != "" {
			return goneMsg{s: s, why: why}
		}
		return nil
	})
}

// waitAnswering reports when whether session s's HTTP server answers is
// no longer what seen says ("" answering, else why not); nothing for a
// stdio session, or once s closed.
func waitAnswering(s *session.Session, seen string) tea.Cmd {
	return run(func() routed {
		for {
			why, changed, ok := s.NotAnswering()
			if !ok {
				return nil
			}
			if why != seen {
				return answeringMsg{s: s, why: why}
			}
			<-changed
		}
	})
}

// An outbox carries a pane's requests to the root. The root handles them
// synchronously, right after the key that caused them, so keys typed ahead
// (enter on a tool, then the arguments) land where the user expects.
type outbox struct{ msgs []routed }

// send queues msg for the root; it returns no command, for use in returns.
func (o *outbox) send(msg routed) tea.Cmd {
	o.msgs = append(o.msgs, msg)
	return nil
}

func (o *outbox) take() []routed {
	msgs := o.msgs
	o.msgs = nil
	return msgs
}
