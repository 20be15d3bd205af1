package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
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
	stateGone // the server went away on its own; the panes keep what it said
	// stateNotAnswering: the HTTP server stopped answering (a request found
	// nobody); the session may still recover, r starts a new one.
	stateNotAnswering
	stateReadOnly
)

// header shows who jig is talking to and what each side declared.
type header struct {
	st     *styles
	red    *frames.Redactor
	state  connState
	target string // what the user asked for, e.g. "demo server" or the command
	title  string // read-only mode: what is being shown
	cut    string // read-only mode: what of the recording could not be read
	record string // read-only mode: what an agent transcript is (a record, not a reproduction)
	repro  string // read-only mode: the live server recorded calls are reproduced on
	info   session.Info
	gone   string // stateGone: how the server went away ("the server exited (exit status 1)"); stateNotAnswering: why the last request failed
	frames int
	width  int

	hs frames.Handshake // read-only: who spoke in the recording, as its frames say

	waiting int  // server requests waiting for the user's answer
	login   bool // an OAuth login waits for the browser (auth.go)
}

func (h *header) setSize(w int) { h.width = w }

func (h *header) view() string {
	return h.first() + "\n" + ansi.Truncate(h.red.String(h.second()), h.width, "…")
}

// A headerPart is one field of the header's first line. Fields that may
// shrink (a server's name, a command, a URL, a file) are shortened in the
// middle when the line does not fit, those of shrink 1 before those of 2,
// so what comes first (the connection state and the protocol) is never cut.
type headerPart struct {
	text   string
	short  string          // said in fewer cells when the line does not fit ("" keeps text)
	style  *lipgloss.Style // nil: plain
	shrink int             // 0: never shortened
	drop   bool            // left out when shortening is not enough
}

// headerLine collects the parts of the header's first line.
type headerLine struct {
	h     *header
	parts []headerPart
}

func (l *headerLine) add(text string, style *lipgloss.Style, shrink int) *headerPart {
	l.parts = append(l.parts, headerPart{text: l.h.red.String(text), style: style, shrink: shrink})
	return &l.parts[len(l.parts)-1]
}

// protocol is said without its labels when the line is short of room.
func (l *headerLine) protocol(version, era string) *headerPart {
	p := l.add("protocol "+version, nil, 0)
	p.short = version
	if era != "" {
		p.text += " (" + era + " era)"
		p.short += " (" + era + ")"
	}
	return p
}

// readHandshake takes who spoke from a recording's first frames, until
// it has found them (a followed file may not have them yet).
func (h *header) readHandshake(r frames.Reader) {
	if h.state == stateReadOnly && h.hs.Protocol == "" && h.hs.Server == "" && r != nil {
		h.hs = frames.HandshakeOf(r)
	}
}

// first is, in this order, the connection state, the protocol, the server
// and the target (or, read-only, the recording and who spoke in it).
func (h *header) first() string {
	l := &headerLine{h: h}
	l.parts = append(l.parts, headerPart{text: "jig", style: &h.st.title})
	switch h.state {
	case stateReadOnly:
		h.readOnlyParts(l)
	case stateConnecting:
		l.add("◌ connecting…", &h.st.stateConnecting, 0)
		l.add(h.target, nil, 1)
	case stateFailed:
		l.add(" ✗ NOT CONNECTED ", &h.st.stateFailed, 0)
		l.add(h.target, nil, 1)
	default:
		i := h.info
		if h.state == stateClosed {
			l.add(" closed ", &h.st.stateFailed, 0)
		} else if h.state == stateGone {
			l.add(" ✗ DISCONNECTED ", &h.st.stateFailed, 0)
		} else if h.state == stateNotAnswering {
			l.add(" ✗ NOT ANSWERING ", &h.st.stateFailed, 0)
		} else {
			l.add("● connected", &h.st.stateConnected, 0)
		}
		l.protocol(i.ProtocolVersion, i.Era)
		l.add(frames.ServerLabel(i.ServerName, i.ServerVersion), &h.st.label, 2)
		where := h.target
		if !strings.Contains(where, string(i.Transport)) {
			where = string(i.Transport) + " " + where
		}
		// Left out before the server's name is cut: i shows it whole.
		l.add(where, nil, 1).drop = true
	}
	parts := fitParts(l.parts, h.width, 3)
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.style != nil {
			p.text = p.style.Render(p.text)
		}
		out = append(out, p.text)
	}
	return ansi.Truncate(strings.Join(out, h.st.muted.Render(" · ")), h.width, "…")
}

// readOnlyParts are a recording's: its file, its size, the server it is
// reproduced on, and who spoke in it, as its handshake says.
func (h *header) readOnlyParts(l *headerLine) {
	l.add("read-only", &h.st.muted, 0)
	if h.cut != "" {
		l.add("⚠ "+h.cut, &h.st.warnText, 0)
	}
	l.add(h.title, nil, 1)
	l.add(thousands(h.frames)+" frames", nil, 0)
	if h.repro != "" {
		l.add(h.repro, &h.st.stateConnected, 2)
	}
	hs := h.hs
	if hs.Protocol != "" {
		l.protocol(hs.Protocol, "").drop = h.repro != ""
	}
	if hs.Server != "" || hs.ServerVersion != "" {
		l.add("server "+frames.ServerLabel(hs.Server, hs.ServerVersion), &h.st.label, 1).drop = h.repro != ""
	}
	if hs.Client != "jig" && (hs.Client != "" || hs.ClientVersion != "") {
		// Named unless it was jig itself: a proxy recording's client.
		l.add("client "+frames.ServerLabel(hs.Client, hs.ClientVersion), nil, 1).drop = true
	}
}

// fitParts fits the parts, joined by separators sep cells wide, into
// width, trying in turn: as they are; with the short forms; shortening
// the parts of shrink 1 (in the middle, the widest first, none below 12
// cells); both; without the parts that may be dropped; shortening the parts
// of shrink 2 too. What still does not fit is cut at the end by the caller.
func fitParts(parts []headerPart, width, sep int) []headerPart {
	try := func(short, drop bool, shrink int) ([]headerPart, bool) {
		out := make([]headerPart, 0, len(parts))
		for _, p := range parts {
			if drop && p.drop {
				continue
			}
			if short && p.short != "" {
				p.text = p.short
			}
			out = append(out, p)
		}
		return out, shrinkParts(out, width, sep, shrink)
	}
	var out []headerPart
	for _, t := range []struct {
		short, drop bool
		shrink      int
	}{{false, false, 0}, {true, false, 0}, {false, false, 1}, {true, false, 1}, {true, true, 1}, {true, true, 2}} {
		var ok bool
		if out, ok = try(t.short, t.drop, t.shrink); ok {
			break
		}
	}
	return out
}

func joinedWidth(parts []headerPart, sep int) int {
	total := -sep
	for _, p := range parts {
		total += ansi.StringWidth(p.text) + sep
	}
	return total
}

// shrinkParts shortens the parts of shrink 1 to upto until the line fits,
// and reports whether it does.
func shrinkParts(parts []headerPart, width, sep, upto int) bool {
	const least = 12
	total := joinedWidth(parts, sep)
	for total > width {
		// The widest of the first to shrink.
		pick := -1
		for i, p := range parts {
			w := ansi.StringWidth(p.text)
			if p.shrink == 0 || p.shrink > upto || w <= least {
				continue
			}
			if pick < 0 || p.shrink < parts[pick].shrink || p.shrink == parts[pick].shrink && w > ansi.StringWidth(parts[pick].text) {
				pick = i
			}
		}
		if pick < 0 {
			return false
		}
		w := ansi.StringWidth(parts[pick].text)
		// Take the whole excess from it, but leave it no narrower than
		// the next widest of its kind, so two long fields share the cut.
		next := least
		for i, p := range parts {
			if i != pick && p.shrink == parts[pick].shrink {
				next = max(next, min(ansi.StringWidth(p.text), w))
			}
		}
		to := max(w-(total-width), next, least)
		if to >= w {
			to = w - 1
		}
		parts[pick].text = frames.ShortenMiddle(parts[pick].text, to)
		total -= w - ansi.StringWidth(parts[pick].text)
	}
	return true
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
		i := "  · i: details"
		if h.info.Instructions != "" {
			i = "  · i: instructions"
		}
		// The server's sub-features go first when the line is too long
		// for them (listChanged, then all: i shows them), so jig's side
		// and the i hint are not cut ("jig: roots (none), samp…" at 120).
		var line string
		for _, caps := range [][]string{capabilityList(h.info.ServerCapabilities), withoutFeature(capabilityList(h.info.ServerCapabilities), "listChanged"),
			capabilityNames(h.info.ServerCapabilities)} {
			line = h.st.muted.Render("server: ") + strings.Join(caps, ", ") + h.st.muted.Render("  jig: ") + declaredList(h.info, false) + h.st.muted.Render(i)
			if ansi.StringWidth(line) <= h.width {
				break
			}
		}
		if h.waiting > 0 {
			// First, so it survives a narrow terminal: the server is blocked.
			line = h.st.warnText.Render(fmt.Sprintf("⚠ the server waits for your answer (%d): A answers", h.waiting)) + h.st.muted.Render(" · ") + line
		}
		return line
	case stateFailed:
		return h.st.muted.Render("the server did not start or answer; r retries, 4 shows the frames")
	case stateGone:
		return h.st.warnText.Render("✗ "+h.gone) + h.st.muted.Render(" · r reconnects · nothing more can be sent (a new session; what is on screen stays)")
	case stateNotAnswering:
		return h.st.warnText.Render("✗ the server did not answer ("+h.gone+")") + h.st.muted.Render(" · r reconnects · requests fail until it answers (a new session; what is on screen stays)")
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
	long := "recorded frames; nothing is sent · r on a tools/call reproduces it, m marks it, c compares with the mark · T timeline"
	if ansi.StringWidth(long) > h.width {
		// Every key still named in a narrow terminal.
		long = "recorded, nothing is sent · r reproduces · m marks · c compares · T timeline"
	}
	return h.st.muted.Render(long)
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

// withoutFeature is caps (as capabilityList names them) without the
// sub-feature f: "tools(listChanged)" is "tools".
func withoutFeature(caps []string, f string) []string {
	out := make([]string, len(caps))
	for i, c := range caps {
		c = strings.NewReplacer("("+f+", ", "(", ", "+f+")", ")", ", "+f+",", ",", "("+f+")", "").Replace(c)
		out[i] = c
	}
	return out
}

// capabilityNames names the capabilities the server declared, without
// their sub-features.
func capabilityNames(raw json.RawMessage) []string {
	out := capabilityList(raw)
	for i, c := range out {
		if k, _, ok := strings.Cut(c, "("); ok && k != "" {
			out[i] = k
		}
	}
	return out
}

// infoDoc is the server-info overlay: instructions and both sides'
// capabilities in full.
func infoDoc(info session.Info, width int) *doc {
	var b docBuilder
	b.line(roleHeading, "Server")
	b.line(rolePlain, "  "+frames.ServerLabel(info.ServerName, info.ServerVersion))
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
