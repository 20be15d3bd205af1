package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/oauth"
)

// The OAuth panel says where a login is and what to do: it opens by itself
// when the server asks for authorization (a 401, or a 403 step-up mid-call)
// and shows the URL to open, that jig waits for the browser, each step so
// far (every one a frame), and what was granted or why it failed. O opens
// it again.

// An authFlow is the bridge from the session's OAuth hook, which runs on
// the SDK's goroutines, to Update, and what Update learned of the flow.
type authFlow struct {
	events chan oauth.Event

	seen    int // events taken in
	url     string
	opened  string // how the browser was started, or why it was not
	waiting string // where jig waits for the redirect
	done    *oauth.Event
	err     error
	warning error // storing the credentials failed

	notes   []string // the OAuth frames' notes, in order
	scanned int      // frames read for notes
	panel   *authPanel
}

func newAuthFlow() *authFlow { return &authFlow{events: make(chan oauth.Event, 64)} }

// hook is the session's oauth.Options.OnEvent: it never blocks the SDK
// (an event lost to a full buffer is still in the frames).
func (a *authFlow) hook(prev func(oauth.Event)) func(oauth.Event) {
	return func(e oauth.Event) {
		if prev != nil {
			prev(e)
		}
		select {
		case a.events <- e:
		default:
		}
	}
}

// authEventMsg: a step of an OAuth flow.
type authEventMsg struct{ e oauth.Event }

func (msg authEventMsg) route(m *Model) tea.Cmd { return m.authEvent(msg.e) }

func waitAuth(ctx context.Context, ch <-chan oauth.Event) tea.Cmd {
	return run(func() routed {
		select {
		case e := <-ch:
			return authEventMsg{e}
		case <-ctx.Done():
			return nil
		}
	})
}

// authEvent takes a step in: the panel opens when a flow starts (unless
// another overlay has the keyboard, when the status line says so) and
// redraws while it is open.
func (m *Model) authEvent(e oauth.Event) tea.Cmd {
	a := m.auth
	a.seen++
	switch {
	case e.Err != nil && e.Step == "store":
		a.warning = e.Err
	case e.Err != nil:
		a.err = e.Err
	case e.Step == oauth.StepChallenge:
		a.err, a.done, a.url, a.waiting = nil, nil, "", ""
	case e.Step == oauth.StepAuthorization:
		a.url, a.opened = e.URL, e.Text
	case e.Step == oauth.StepRedirect:
		a.waiting = e.Text
	case e.Step == "done":
		a.done = &e
		m.setStatus(fmt.Sprintf("OAuth: authorized by %s · scopes %s (O shows the login)", e.Issuer, strings.Join(e.Scopes, " ")), false)
	}
	m.hdr.login = a.url != "" && a.done == nil && a.err == nil
	switch {
	case m.overlay == a.panel:
		m.openOverlay(a.panel) // redrawn with the new step
	case m.overlay == nil && (e.Step == oauth.StepChallenge || e.Step == oauth.StepAuthorization) && e.Err == nil:
		m.openOverlay(a.panel)
	case e.Step == oauth.StepAuthorization:
		m.setStatus("OAuth: a login waits for the browser — O shows the URL", false)
	}
	return waitAuth(m.ctx, a.events)
}

// openAuth shows the panel.
func (m *Model) openAuth() { m.openOverlay(m.auth.panel) }

// An authPanel is the OAuth overlay: a text to read, with the URL's keys.
type authPanel struct {
	*textOverlay
	flow    *authFlow
	reader  func() frames.Reader
	keys    authKeys
	browser []string
}

func newAuthPanel(st *styles, out *outbox, red *frames.Redactor, flow *authFlow, reader func() frames.Reader, browser []string) *authPanel {
	p := &authPanel{flow: flow, reader: reader, keys: newAuthKeys(), browser: browser}
	// What the panel draws is redacted; o and c use the URL itself.
	p.textOverlay = newTextOverlay(st, "OAuth", out, red, func(w int) (*doc, []string) { return p.doc(w), nil })
	return p
}

func (p *authPanel) actions() []action {
	a := p.flow
	waiting := a.url != "" && a.done == nil && a.err == nil
	as := []action{
		on(p.keys.Open, func() tea.Cmd {
			how := oauth.OpenBrowser(p.browser, a.url)
			return p.out.send(statusMsg{text: "OAuth: " + how})
		}).only(waiting, "no login is waiting for the browser"),
		on(p.keys.Copy, func() tea.Cmd {
			return tea.Batch(tea.SetClipboard(a.url), p.out.send(statusMsg{text: "OAuth: the URL was sent to the terminal's clipboard (OSC 52)"}))
		}).only(waiting, "no login is waiting for the browser"),
	}
	return append(as, p.textOverlay.actions()...)
}

// doc is what the panel says, for a width: the state, the URL, the steps.
func (p *authPanel) doc(width int) *doc {
	a := p.flow
	p.scan()
	var b docBuilder
	switch {
	case a.err != nil:
		b.line(roleError, wrapText("✗ "+a.err.Error(), "  ", width))
		b.line(roleMuted, "  The steps below are frames (4 shows them); r retries once this is closed.")
	case a.done != nil:
		b.line(roleOK, fmt.Sprintf("✓ Authorized by %s", a.done.Issuer))
		b.linef(rolePlain, "  scopes   %s", orNoneText(strings.Join(a.done.Scopes, " ")))
		b.linef(rolePlain, "  expires  %s", expiryText(a.done.Expiry, time.Now()))
		b.linef(rolePlain, "  stored   %s", orNoneText(a.done.Stored))
	case a.url != "":
		b.line(roleWarn, "● Log in in the browser")
	default:
		b.line(roleWarn, "● The server asks for authorization: discovering how")
	}
	if a.warning != nil {
		b.line(roleWarn, wrapText("! "+a.warning.Error(), "  ", width))
	}
	if a.url != "" && a.done == nil && a.err == nil {
		b.line(rolePlain, "")
		b.line(roleHeading, "Open this URL in a browser on this machine")
		if a.opened != "" {
			b.line(roleMuted, "  ("+a.opened+")")
		}
		b.line(rolePlain, a.url)
		if a.waiting != "" {
			b.line(roleMuted, wrapText(strings.ToUpper(a.waiting[:1])+a.waiting[1:]+"; nothing else is sent meanwhile, and --timeout waits too.", "  ", width))
		}
		b.line(roleMuted, "  o opens it again · c copies it · esc hides this (the login goes on)")
	}
	if len(a.notes) > 0 {
		b.line(rolePlain, "")
		b.line(roleHeading, "Steps so far (each is a frame; tokens, codes and secrets redacted)")
		for _, n := range a.notes {
			b.line(rolePlain, wrapText(n, "    ", width))
		}
	}
	return b.doc()
}

// scan reads the notes of the OAuth frames that arrived since the last scan.
func (p *authPanel) scan() {
	r := p.reader()
	a := p.flow
	for ; a.scanned < r.Len(); a.scanned++ {
		f := r.Frame(a.scanned)
		if f.Kind != frames.KindTransport || !strings.HasPrefix(f.Note, "OAuth ") {
			continue
		}
		a.notes = append(a.notes, f.Dir.Arrow()+" "+strings.TrimPrefix(f.Note, "OAuth "))
	}
}

func orNoneText(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// expiryText says when a token expires, relative to now.
func expiryText(t, now time.Time) string {
	if t.IsZero() {
		return "not said"
	}
	d := t.Sub(now).Round(time.Minute)
	if d <= 0 {
		return "expired (jig refreshes it when it can)"
	}
	return "in " + strings.TrimSuffix(d.String(), "0s")
}

// authKeys are the OAuth panel's own.
type authKeys struct{ Open, Copy key.Binding }

func newAuthKeys() authKeys {
	return authKeys{
		Open: bind([]string{"o"}, "o", "open the login URL in the browser again"),
		Copy: bind([]string{"c"}, "c", "copy the login URL (OSC 52)"),
	}
}
