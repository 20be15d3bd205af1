package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// connState is where the connection stands.
type connState uint8

const (
	stateConnecting connState = iota
	stateConnected
	stateFailed
	stateClosed
	stateReadOnly
)

// header shows who jig is talking to and what each side declared.
type header struct {
	st     *styles
	red    *frames.Redactor
	state  connState
	target string // what the user asked for, e.g. "demo server" or the command
	title  string // read-only mode: what is being shown
	record string // read-only mode: what an agent transcript is (a record, not a reproduction)
	repro  string // read-only mode: the live server recorded calls are reproduced on
	info   session.Info
	frames int
	width  int

	waiting int  // server requests waiting for the user's answer
	login   bool // an OAuth login waits for the browser (auth.go)
}

func (h *header) setSize(w int) { h.width = w }

func (h *header) view() string {
	return ansi.Truncate(h.red.String(h.first()), h.width, "…") + "\n" + ansi.Truncate(h.red.String(h.second()), h.width, "…")
}

// first is who jig is talking to and in what state.
func (h *header) first() string {
	l := []string{h.st.title.Render("jig")}
	switch h.state {
	case stateReadOnly:
		l = append(l, h.title, h.st.muted.Render("read-only"), fmt.Sprintf("%s frames", thousands(h.frames)))
		if h.repro != "" {
			l = append(l, h.st.stateConnected.Render(h.repro))
		}
	case stateConnecting:
		l = append(l, h.target, h.st.stateConnecting.Render("◌ connecting…"))
	case stateFailed:
		l = append(l, h.target, h.st.stateFailed.Render(" ✗ NOT CONNECTED "))
	default:
		i := h.info
		name := strings.TrimSpace(i.ServerName + " " + i.ServerVersion)
		if name == "" {
			name = "(server sent no name)"
		}
		state := h.st.stateConnected.Render("● connected")
		if h.state == stateClosed {
			state = h.st.stateFailed.Render(" closed ")
		}
		where := h.target
		if !strings.Contains(where, string(i.Transport)) {
			where = string(i.Transport) + " " + where
		}
		l = append(l, h.st.label.Render(name), where, fmt.Sprintf("protocol %s (%s era)", i.ProtocolVersion, i.Era), state)
	}
	return strings.Join(l, h.st.muted.Render(" · "))
}

// second is what each side declared, or what to do in the state jig is in.
func (h *header) second() string {
	if h.login {
		// Nothing goes on until the user logs in: say so first.
		return h.st.warnText.Render("⚠ OAuth: log in in the browser (O shows the URL)") + h.st.muted.Render(" · "+h.plainSecond())
	}
	return h.plainSecond()
}

func (h *header) plainSecond() string {
	switch h.state {
	case stateConnected, stateClosed:
		line := h.st.muted.Render("server: ") + strings.Join(capabilityList(h.info.ServerCapabilities), ", ") +
			h.st.muted.Render("  jig: ") + declaredList(h.info, false)
		if h.info.Instructions != "" {
			line += h.st.muted.Render("  · i: instructions")
		} else {
			line += h.st.muted.Render("  · i: details")
		}
		if h.waiting > 0 {
			// First, so it survives a narrow terminal: the server is blocked.
			line = h.st.warnText.Render(fmt.Sprintf("⚠ the server waits for your answer (%d): A answers", h.waiting)) + h.st.muted.Render(" · ") + line
		}
		return line
	case stateFailed:
		return h.st.muted.Render("the server did not start or answer; r retries, 4 shows the frames")
	case stateConnecting:
		return h.st.muted.Render("starting the server and performing the handshake…")
	}
	switch { // read-only
	case h.repro != "":
		return h.st.muted.Render("the frames pane shows the recording; reproduced calls go to the live server · 4 back to the frames")
	case h.record != "":
		// An agent transcript: say first what it is not.
		return h.st.warnText.Render("⚑ "+h.record) + h.st.muted.Render(" · m marks, c compares")
	}
	return h.st.muted.Render("recorded frames; nothing is sent · r on a tools/call reproduces it, m marks it, c compares with the mark · T timeline")
}

// declaredList names the capabilities jig declared, and with roots the
// roots it answers roots/list with: none unless --root (or a fixture) gave
// some. full shows their URIs, otherwise their last path element.
func declaredList(info session.Info, full bool) string {
	if len(info.ClientCapabilities) == 0 {
		return "(none)"
	}
	out := make([]string, 0, len(info.ClientCapabilities))
	for _, c := range info.ClientCapabilities {
		if c == "roots" {
			roots := make([]string, 0, len(info.Roots))
			for _, r := range info.Roots {
				if !full {
					r = r[strings.LastIndexByte(strings.TrimRight(r, "/"), '/')+1:]
				}
				roots = append(roots, r)
			}
			if len(roots) == 0 {
				roots = []string{"none"}
			}
			c += " (" + strings.Join(roots, ", ") + ")"
		}
		out = append(out, c)
	}
	return strings.Join(out, ", ")
}

// capabilityList names each capability the server declared, with its
// sub-features: "tools(listChanged)", "resources(subscribe, listChanged)".
func capabilityList(raw json.RawMessage) []string {
	var caps map[string]json.RawMessage
	if json.Unmarshal(raw, &caps) != nil || len(caps) == 0 {
		return []string{"(none)"}
	}
	names := make([]string, 0, len(caps))
	for k := range caps {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	for _, k := range names {
		var sub map[string]json.RawMessage
		s := k
		if json.Unmarshal(caps[k], &sub) == nil && len(sub) > 0 {
			var feats []string
			for f, v := range sub {
				if string(v) == "true" {
					feats = append(feats, f)
				}
			}
			sort.Strings(feats)
			if len(feats) > 0 {
				s += "(" + strings.Join(feats, ", ") + ")"
			}
		}
		out = append(out, s)
	}
	return out
}

// infoDoc is the server-info overlay: instructions and both sides'
// capabilities in full.
func infoDoc(info session.Info, width int) *doc {
	var b docBuilder
	b.line(roleHeading, "Server")
	b.linef(rolePlain, "  %s %s", info.ServerName, info.ServerVersion)
	b.linef(rolePlain, "  target     %s (%s)", info.Target, info.Transport)
	b.linef(rolePlain, "  protocol   %s, %s era", info.ProtocolVersion, info.Era)
	b.line(rolePlain, "")
	b.line(roleHeading, "Instructions")
	if strings.TrimSpace(info.Instructions) == "" {
		b.line(roleMuted, "  (the server sent no instructions)")
	} else {
		b.line(rolePlain, wrapText(info.Instructions, "  ", width))
	}
	b.line(rolePlain, "")
	b.line(roleHeading, "Capabilities the server declared")
	pr, _ := frames.Indent(info.ServerCapabilities)
	if len(pr) == 0 {
		pr = []byte("(none)")
	}
	b.bytes(pr)
	b.line(rolePlain, "")
	b.line(roleHeading, "Capabilities jig declared")
	b.line(rolePlain, "  "+declaredList(info, true))
	return b.doc()
}

// failureDoc explains a failed connection: what was run, why it failed and
// what the server wrote to stderr.
func failureDoc(target session.Target, err error, width int) *doc {
	var b docBuilder
	b.line(roleError, "✗ Could not connect")
	b.line(rolePlain, "")
	b.line(roleLabel, "target")
	switch target.Transport {
	case session.TransportStdio:
		b.line(rolePlain, "  $ "+shellQuote(target.Command))
		if target.Dir != "" {
			b.line(rolePlain, "  in "+target.Dir)
		}
	default:
		b.linef(rolePlain, "  %s (%s)", target, target.Transport)
	}
	b.line(rolePlain, "")
	b.line(roleLabel, "error")
	msg := err.Error()
	var ce *session.ConnectError
	if errors.As(err, &ce) {
		msg = ce.Err.Error()
	}
	b.line(rolePlain, wrapText(msg, "  ", width))
	if ce != nil && ce.Hint != nil {
		b.line(rolePlain, "")
		b.line(roleLabel, "likely cause")
		b.line(rolePlain, wrapText(ce.Hint.Cause, "  ", width))
		b.line(rolePlain, "")
		b.line(roleLabel, "next step")
		b.line(rolePlain, wrapText(ce.Hint.Next, "  ", width))
	}
	b.line(rolePlain, "")
	b.line(roleLabel, "the server's stderr")
	if ce != nil && len(ce.Stderr) > 0 {
		for _, l := range ce.Stderr {
			b.line(rolePlain, "  | "+l)
		}
	} else {
		b.line(roleMuted, "  (nothing)")
	}
	b.line(rolePlain, "")
	b.line(roleMuted, "r retries · 4 shows every frame captured so far · q quits")
	return b.doc()
}

func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$`\\|&;<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
