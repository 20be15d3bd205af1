package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// bodySeparator stands between the bytes and the rendered view beside them.
const bodySeparator = "│"

// frameBody shows the selected frame under the list: its exact bytes,
// pretty-printed or raw, or the frame read for meaning (rendered), or both
// side by side when split. It keeps the keys while focused (scrolling).
type frameBody struct {
	bytes    textView
	side     textView // the rendered view beside the bytes (split)
	split    bool     // a read-only screen wide enough for both
	focused  bool
	raw      bool // the bytes as they crossed, not pretty-printed
	rendered bool // the rendered view instead of the bytes (when not split)

	shownFor       int // the frame index drawn, -1 for none
	shownMode      string
	note, sideNote string
}

// mode names what the body shows, so that a change of it redraws.
func (b *frameBody) mode() string { return fmt.Sprint(b.raw, b.rendered, b.split) }

// cycle steps the view: pretty → raw → rendered; the rendered view has its
// own column when split.
func (b *frameBody) cycle() {
	switch {
	case b.split || !b.raw && !b.rendered:
		b.raw, b.rendered = !b.raw, false
	case b.raw:
		b.raw, b.rendered = false, true
	default:
		b.rendered = false
	}
}

func (b *frameBody) setSize(w, h int) {
	if b.split {
		bw := w / 2
		b.bytes.setSize(bw, h)
		b.side.setSize(w-bw-lipgloss.Width(bodySeparator), h)
		return
	}
	b.bytes.setSize(w, h)
}

// scroll moves the bytes and the rendered view beside them together.
func (b *frameBody) scroll(f func(v *textView)) {
	f(&b.bytes)
	f(&b.side)
}

func (b *frameBody) scrollActions(k scrollKeys) []action {
	page := func(d int) func(v *textView) { return func(v *textView) { v.scroll(d * max(v.height-1, 1)) } }
	return []action{
		on(k.Up, does(func() { b.scroll(func(v *textView) { v.scroll(-1) }) })).labelled("scroll the body up"),
		on(k.Down, does(func() { b.scroll(func(v *textView) { v.scroll(1) }) })).labelled("scroll the body down"),
		on(k.PageUp, does(func() { b.scroll(page(-1)) })),
		on(k.PageDown, does(func() { b.scroll(page(1)) })),
		on(k.Home, does(func() { b.scroll((*textView).home) })),
		on(k.End, does(func() { b.scroll((*textView).end) })),
	}
}

// syncBody loads the selected frame into the body when the selection or
// the mode changed.
func (p *framesPane) syncBody() {
	b := &p.body
	i := p.selectedIndex()
	if i == b.shownFor && b.mode() == b.shownMode {
		return
	}
	b.shownFor, b.shownMode, b.note = i, b.mode(), ""
	switch {
	case i < 0:
		b.bytes.setDoc(newDoc(nil))
		b.side.setDoc(newDoc(nil))
		return
	case b.split:
		d, note := p.renderedDoc(i)
		b.side.setDoc(d)
		b.sideNote = note
	case b.rendered:
		d, note := p.renderedDoc(i)
		b.bytes.setDoc(d)
		b.note = note
		return
	}
	d, note := p.bytesDoc(i)
	b.bytes.setDoc(d)
	b.note = note
}

// bytesDoc is frame i's bytes as they crossed, pretty-printed unless raw
// is asked for, with a note saying which.
func (p *framesPane) bytesDoc(i int) (*doc, string) {
	f := p.r.Frame(i)
	data, err := p.r.Body(i)
	if err != nil {
		return newDoc(nil), "body unavailable: " + err.Error()
	}
	if len(data) == 0 && (f.Note != "" || f.HTTP != nil) {
		// Transport evidence has no bytes of its own: show what was seen.
		var b docBuilder
		if f.Note != "" {
			b.line(rolePlain, f.Note)
		}
		if f.HTTP != nil {
			// Without HTML escaping: a URL's & stays & (not \u0026).
			var hj bytes.Buffer
			enc := json.NewEncoder(&hj)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(f.HTTP)
			b.bytes(bytes.TrimRight(hj.Bytes(), "\n"))
		}
		return b.doc(), "transport evidence"
	}
	mode := "raw bytes"
	if !p.body.raw && f.Kind != frames.KindStderr && f.Kind != frames.KindInvalid {
		var ok bool
		if data, ok = frames.Indent(data); ok {
			mode = "pretty-printed"
		}
	}
	if f.Note != "" && f.Kind.IsMessage() {
		// An imported frame says what it is: a client's log, or the
		// client's rendering of a conversation, not wire bytes.
		mode = f.Note + " · " + mode
	}
	return newDoc(data), mode
}

// bodyHeader is the rule over the body naming the selected frame.
func (p *framesPane) bodyHeader(i int) string {
	if i < 0 {
		return p.st.muted.Render(strings.Repeat("─", p.width))
	}
	f := p.r.Frame(i)
	h := fmt.Sprintf("─ #%d %s %s", f.Seq, f.Dir.Arrow(), f.Kind)
	if p.narrow() && !f.Time.IsZero() && !p.start.IsZero() {
		// The rows leave the offset out: it is said here, before a long
		// method cuts the line.
		h = fmt.Sprintf("─ #%d %s %s %s", f.Seq, frames.Offset(f.Time, p.start), f.Dir.Arrow(), f.Kind)
	}
	if f.Method != "" {
		h += " " + f.Method
	}
	if f.ID != "" {
		h += " id=" + f.ID
	}
	h += " · " + frames.HumanSize(f.Size())
	if d, ok := frames.Latency(p.r, i); ok {
		h += fmt.Sprintf(" · %s after #%d", frames.HumanDuration(d), p.r.Frame(p.r.Partner(i)).Seq)
	} else if j := p.r.Partner(i); j >= 0 && f.Kind == frames.KindRequest {
		h += fmt.Sprintf(" · answered by #%d", p.r.Frame(j).Seq)
	} else if j >= 0 {
		// A response without a latency (a transcript's, untimed): it
		// answers its partner, it is not answered by it.
		h += fmt.Sprintf(" · answers #%d", p.r.Frame(j).Seq)
	} else if f.Kind == frames.KindRequest {
		h += " · " + frames.Unanswered(p.r, i)
	}
	h += " "
	if w := ansi.StringWidth(h); w < p.width {
		h += strings.Repeat("─", p.width-w)
	}
	st := p.st.muted
	if p.body.focused {
		st = p.st.label
	}
	return st.Render(ansi.Truncate(h, p.width, "…"))
}

// bodyNoteLine says how the body shows the frame and where it is scrolled
// (or, for a frame that is not a usable message, why).
func (p *framesPane) bodyNoteLine() string {
	b := &p.body
	if b.shownFor < 0 || b.shownFor >= p.n {
		return ""
	}
	if e := p.r.Frame(b.shownFor).Err; e != "" {
		return p.st.frameInvalid.Render(ansi.Truncate("! "+p.env.redact.String(e), p.width, "…"))
	}
	if vs := p.violations(b.shownFor); len(vs) > 0 {
		line := "✗ contract: " + vs[0]
		if len(vs) > 1 {
			line = fmt.Sprintf("✗ %d contract violations (the rendered view lists all): %s", len(vs), vs[0])
		}
		return p.st.frameInvalid.Render(ansi.Truncate(line, p.width, "…"))
	}
	note := b.note
	if b.bytes.redacted {
		note += " · secrets redacted"
	}
	if b.split {
		return p.st.muted.Render(fitTo(note+" · "+b.bytes.position(), b.bytes.width) + " " + ansi.Truncate(b.sideNote, b.side.width, "…"))
	}
	return p.st.muted.Render(ansi.Truncate(note+" · "+b.bytes.position(), p.width, "…"))
}

func (p *framesPane) bodyView() string {
	b := &p.body
	if b.split {
		return sideBySide(b.bytes.view(p.st), b.bytes.width, b.side.view(p.st), b.side.width, b.bytes.height, p.st.muted.Render(bodySeparator))
	}
	return b.bytes.view(p.st)
}
