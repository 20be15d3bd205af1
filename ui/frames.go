package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// kindCycle is the order the kind filter steps through; "" is every kind.
var kindCycle = []frames.Kind{"", frames.KindRequest, frames.KindResult, frames.KindError, frames.KindNotification,
	frames.KindStderr, frames.KindInvalid, frames.KindBatch, frames.KindTransport}

// framesPane lists every frame in order and shows the selected frame's exact
// bytes. It reads a frames.Reader only, so it serves a live session and a
// transcript opened from disk alike; with 100,000 frames it draws just the
// visible rows, and a filter costs one pass when it changes.
type framesPane struct {
	st    *styles
	keys  framesKeys
	ikeys inputKeys
	out   *outbox

	r     frames.Reader
	n     int // frames known; grows with framesMsg
	start time.Time

	query     string
	dir       frames.Direction
	kind      frames.Kind
	input     *textEdit
	filtering bool
	idx       []int // frame indexes that pass the filter (when filtered)
	filtered  bool

	sel, top  int // positions among the shown frames
	follow    bool
	bodyFocus bool
	showRaw   bool
	rendered  bool // the body shows the rendered view (when there is no side view)
	body      textView
	bodyFor   int
	bodyRaw   bool
	bodyRend  bool
	bodyNote  string

	// split puts the rendered view beside the bytes (a read-only screen
	// wide enough for both); side is that view.
	split    bool
	side     textView
	sideNote string

	// The timeline lists the requests (the handshake and every call) with
	// their latency and outcome, read lazily for the rows on screen.
	timeline bool
	tl       []int // frame indexes of requests, in order
	tlSeen   int   // frames scanned for tl
	tlSel    int
	tlTop    int
	toolOf   map[int]string // tools/call request index → params.name, read on demand
	noteOf   map[int]string // notification index → its gist (log line, progress), read on demand
	marks    map[int]string // response index → outcome mark, read on demand
	markIdx  int            // the marked call's request frame index, or -1

	reproducible bool // the root can reproduce a recorded call (r)
	hasMark      bool // a call is marked, so c can compare with it

	focused       bool
	width, height int
	listH         int
}

func newFramesPane(st *styles, r frames.Reader) *framesPane {
	ti := newTextEdit(st, true)
	ti.prompt = "/ "
	ti.placeholder = "method, tool=NAME, id=…, or text in the summary"
	p := &framesPane{st: st, keys: newFramesKeys(), ikeys: newInputKeys(), out: &outbox{}, r: r, input: ti, follow: true, bodyFor: -1,
		toolOf: map[int]string{}, noteOf: map[int]string{}, marks: map[int]string{}, markIdx: -1}
	p.grow(r.Len())
	return p
}

func (p *framesPane) count() int {
	if p.filtered {
		return len(p.idx)
	}
	return p.n
}

// at returns the frame index shown at position pos.
func (p *framesPane) at(pos int) int {
	if p.filtered {
		return p.idx[pos]
	}
	return pos
}

// selectedIndex is the frame index under the cursor, or -1.
func (p *framesPane) selectedIndex() int {
	if p.sel < 0 || p.sel >= p.count() {
		return -1
	}
	return p.at(p.sel)
}

// grow takes in frames up to n.
func (p *framesPane) grow(n int) {
	if n <= p.n {
		return
	}
	atEnd := p.sel >= p.count()-1
	if p.n == 0 && n > 0 {
		p.start = p.r.Frame(0).Time
	}
	if p.filtered {
		for i := p.n; i < n; i++ {
			if p.match(i) {
				p.idx = append(p.idx, i)
			}
		}
	}
	p.n = n
	if p.timeline {
		p.scanRequests()
	}
	if p.follow && atEnd && !p.bodyFocus {
		p.sel = max(p.count()-1, 0)
	}
	p.keepVisible()
	p.syncBody()
}

func (p *framesPane) match(i int) bool {
	f := p.r.Frame(i)
	if p.dir != "" && f.Dir != p.dir {
		return false
	}
	if p.kind != "" && f.Kind != p.kind {
		return false
	}
	if p.query == "" {
		return true
	}
	q := strings.ToLower(p.query)
	if id, ok := strings.CutPrefix(q, "id="); ok {
		return strings.Trim(strings.ToLower(f.ID), `"`) == strings.Trim(id, `"`)
	}
	if name, ok := strings.CutPrefix(q, "tool="); ok {
		t := p.tool(i)
		return t != "" && strings.Contains(strings.ToLower(t), strings.TrimSpace(name))
	}
	return strings.Contains(strings.ToLower(f.Method), q) ||
		strings.Contains(strings.ToLower(f.Err), q) || strings.Contains(strings.ToLower(f.Note), q) ||
		(f.Kind == frames.KindStderr && strings.Contains(strings.ToLower(string(f.Raw)), q))
}

// refilter recomputes the shown frames, keeping the selected frame if it
// still passes.
func (p *framesPane) refilter() {
	keep := p.selectedIndex()
	p.filtered = p.query != "" || p.dir != "" || p.kind != ""
	p.idx = p.idx[:0]
	if p.filtered {
		for i := 0; i < p.n; i++ {
			if p.match(i) {
				p.idx = append(p.idx, i)
			}
		}
	}
	p.sel = p.position(keep)
	p.keepVisible()
	p.syncBody()
}

// position finds the shown position of frame index i, or the nearest one
// before it.
func (p *framesPane) position(i int) int {
	if i < 0 {
		return max(p.count()-1, 0)
	}
	if !p.filtered {
		return min(i, max(p.n-1, 0))
	}
	pos := sort.SearchInts(p.idx, i)
	if pos < len(p.idx) && p.idx[pos] == i {
		return pos
	}
	return max(pos-1, 0)
}

// selectSeq selects the frame with sequence number seq, clearing filters
// that hide it. It reports whether the frame exists.
func (p *framesPane) selectSeq(seq int64) bool {
	i := sort.Search(p.n, func(i int) bool { return p.r.Frame(i).Seq >= seq })
	if i >= p.n || p.r.Frame(i).Seq != seq {
		return false
	}
	if p.filtered && !p.match(i) {
		p.query, p.dir, p.kind = "", "", ""
		p.input.setValue("")
		p.refilter()
	}
	p.sel = p.position(i)
	p.follow = false
	p.keepVisible()
	p.syncBody()
	return true
}

// followNewest selects the newest frame and keeps selecting each new one as
// it arrives: a call was sent, or cancelled, and its frames are what to see.
func (p *framesPane) followNewest() {
	p.follow, p.bodyFocus = true, false
	p.sel = max(p.count()-1, 0)
	p.keepVisible()
	p.syncBody()
}

func (p *framesPane) keepVisible() {
	if p.listH <= 0 {
		return
	}
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+p.listH {
		p.top = p.sel - p.listH + 1
	}
	p.top = max(min(p.top, p.count()-p.listH), 0)
}

func (p *framesPane) setFocus(f bool) {
	p.focused = f
	if !f {
		p.bodyFocus = false
	}
}

func (p *framesPane) typing() bool { return p.filtering }

func (p *framesPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.input.setSize(w, 1)
	p.listH = max(min(h*2/5, h-6), min(3, h))
	bodyH := max(h-p.listH-3, 0)
	if p.split {
		bw := w / 2
		p.body.setSize(bw, bodyH)
		p.side.setSize(w-bw-1, bodyH)
	} else {
		p.body.setSize(w, bodyH)
	}
	p.keepVisible()
	p.keepTimelineVisible()
	p.syncBody()
}

// syncBody loads the selected frame's bytes into the body when the
// selection or the mode changed.
func (p *framesPane) syncBody() {
	i := p.selectedIndex()
	if i == p.bodyFor && p.showRaw == p.bodyRaw && p.rendered == p.bodyRend {
		return
	}
	p.bodyFor, p.bodyRaw, p.bodyRend = i, p.showRaw, p.rendered
	p.bodyNote = ""
	if i < 0 {
		p.body.setDoc(newDoc(nil))
		p.side.setDoc(newDoc(nil))
		return
	}
	if p.split {
		d, note := p.renderedDoc(i)
		p.side.setDoc(d)
		p.sideNote = note
	} else if p.rendered {
		d, note := p.renderedDoc(i)
		p.body.setDoc(d)
		p.bodyNote = note
		return
	}
	f := p.r.Frame(i)
	data, err := p.r.Body(i)
	if err != nil {
		p.bodyNote = "body unavailable: " + err.Error()
		p.body.setDoc(newDoc(nil))
		return
	}
	if len(data) == 0 && (f.Note != "" || f.HTTP != nil) {
		// Transport evidence has no bytes of its own: show what was seen.
		var b docBuilder
		if f.Note != "" {
			b.line(rolePlain, f.Note)
		}
		if f.HTTP != nil {
			hj, _ := json.MarshalIndent(f.HTTP, "", "  ")
			b.bytes(hj)
		}
		p.bodyNote = "transport evidence"
		p.body.setDoc(b.doc())
		return
	}
	mode := "raw bytes"
	if !p.showRaw && f.Kind != frames.KindStderr && f.Kind != frames.KindInvalid {
		var ok bool
		if data, ok = frames.Indent(data); ok {
			mode = "pretty-printed"
		}
	}
	p.bodyNote = mode
	if f.Note != "" && f.Kind.IsMessage() {
		// An imported frame says what it is: a client's log, or the
		// client's rendering of a conversation, not wire bytes.
		p.bodyNote = f.Note + " · " + mode
	}
	p.body.setDoc(newDoc(data))
}

func (p *framesPane) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if p.filtering {
		switch {
		case key.Matches(k, p.ikeys.Accept):
			p.filtering = false
			p.input.blur()
		case key.Matches(k, p.ikeys.Cancel):
			p.filtering = false
			p.input.blur()
			p.input.setValue("")
			p.query = ""
			p.refilter()
		default:
			p.input.update(msg)
			if v := strings.TrimSpace(p.input.value()); v != p.query {
				p.query = v
				p.refilter()
			}
			return nil
		}
		return nil
	}
	if p.bodyFocus {
		return p.updateBody(k)
	}
	if p.timeline {
		return p.updateTimeline(k)
	}
	n := p.count()
	sel, moved := moveCursor(p.keys.scrollKeys, k, p.sel, n, p.listH)
	p.sel = sel
	switch {
	case moved:
	case key.Matches(k, p.keys.NextCall):
		moved = true
		p.sel = p.nextRequest(+1)
	case key.Matches(k, p.keys.PrevCall):
		moved = true
		p.sel = p.nextRequest(-1)
	case key.Matches(k, p.keys.Partner):
		i := p.selectedIndex()
		if i < 0 {
			return nil
		}
		j := p.r.Partner(i)
		if j < 0 {
			return p.out.send(statusMsg{text: fmt.Sprintf("frame #%d has no paired request or response", p.r.Frame(i).Seq), isErr: true})
		}
		p.selectSeq(p.r.Frame(j).Seq)
		return nil
	default:
		moved = false
	}
	if moved {
		p.follow = p.sel >= n-1
		p.keepVisible()
		p.syncBody()
		return nil
	}
	return p.updateCommon(k)
}

func (p *framesPane) updateBody(k tea.KeyPressMsg) tea.Cmd {
	// The bytes and the rendered view beside them scroll together.
	both := func(f func(v *textView)) { f(&p.body); f(&p.side) }
	switch {
	case key.Matches(k, p.keys.Back):
		p.bodyFocus = false
	case key.Matches(k, p.keys.Up):
		both(func(v *textView) { v.scroll(-1) })
	case key.Matches(k, p.keys.Down):
		both(func(v *textView) { v.scroll(1) })
	case key.Matches(k, p.keys.PageUp):
		both(func(v *textView) { v.scroll(-max(v.height-1, 1)) })
	case key.Matches(k, p.keys.PageDown):
		both(func(v *textView) { v.scroll(max(v.height-1, 1)) })
	case key.Matches(k, p.keys.Home):
		both((*textView).home)
	case key.Matches(k, p.keys.End):
		both((*textView).end)
	default:
		return p.updateCommon(k)
	}
	return nil
}

// updateCommon handles the keys that work in the list and in the body.
func (p *framesPane) updateCommon(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, p.keys.Body):
		if p.selectedIndex() >= 0 {
			p.bodyFocus = true
		}
	case key.Matches(k, p.keys.Raw):
		// pretty → raw → rendered; the rendered view has its own column when split.
		switch {
		case p.split || !p.showRaw && !p.rendered:
			p.showRaw, p.rendered = !p.showRaw, false
		case p.showRaw:
			p.showRaw, p.rendered = false, true
		default:
			p.rendered = false
		}
		p.syncBody()
	case key.Matches(k, p.keys.BodyUp):
		p.body.scroll(-3)
		p.side.scroll(-3)
	case key.Matches(k, p.keys.BodyDown):
		p.body.scroll(3)
		p.side.scroll(3)
	case key.Matches(k, p.keys.Filter):
		p.filtering = true
		p.bodyFocus = false
		p.input.setValue(p.query)
		p.input.cursorEnd()
		p.input.focus()
		return nil
	case key.Matches(k, p.keys.ClearFilter):
		p.query, p.dir, p.kind = "", "", ""
		p.input.setValue("")
		p.refilter()
	case key.Matches(k, p.keys.Direction):
		switch p.dir {
		case "":
			p.dir = frames.ClientToServer
		case frames.ClientToServer:
			p.dir = frames.ServerToClient
		default:
			p.dir = ""
		}
		p.refilter()
	case key.Matches(k, p.keys.Kind):
		for i, kd := range kindCycle {
			if kd == p.kind {
				p.kind = kindCycle[(i+1)%len(kindCycle)]
				break
			}
		}
		p.refilter()
	case key.Matches(k, p.keys.Timeline):
		p.toggleTimeline()
	case key.Matches(k, p.keys.Reproduce):
		if i := p.callAt(); i >= 0 {
			return p.out.send(reproduceMsg{frame: i})
		}
		return p.out.send(statusMsg{text: "select a tools/call request or response to reproduce (n steps to the next request)", isErr: true})
	case key.Matches(k, p.keys.Mark):
		if i := p.callAt(); i >= 0 {
			return p.out.send(markMsg{ref: callRef{frame: i}})
		}
		return p.out.send(statusMsg{text: "select a tools/call request or response to mark", isErr: true})
	case key.Matches(k, p.keys.Compare):
		if i := p.callAt(); i >= 0 {
			return p.out.send(compareMsg{ref: callRef{frame: i}})
		}
		return p.out.send(statusMsg{text: "select a tools/call request or response to compare with the marked call", isErr: true})
	case key.Matches(k, p.keys.Write):
		i := p.selectedIndex()
		if i < 0 {
			return nil
		}
		data, err := p.r.Body(i)
		if err != nil {
			return p.out.send(statusMsg{text: "cannot read the body: " + err.Error(), isErr: true})
		}
		f := p.r.Frame(i)
		name := fmt.Sprintf("jig-frame-%d-%s", f.Seq, f.Kind)
		if f.Method != "" {
			name += "-" + f.Method
		}
		return p.out.send(writeMsg{name: name, data: data})
	}
	return nil
}

func (p *framesPane) wheel(dy, y int) {
	if y <= p.listH {
		p.sel = max(min(p.sel+dy, p.count()-1), 0)
		p.follow = p.sel >= p.count()-1
		p.keepVisible()
		p.syncBody()
		return
	}
	p.body.scroll(dy * 3)
	p.side.scroll(dy * 3)
}

func (p *framesPane) help() []key.Binding {
	if p.filtering {
		return []key.Binding{p.ikeys.Accept, p.ikeys.Cancel}
	}
	k := p.keys
	has := p.selectedIndex() >= 0
	k.Partner.SetEnabled(has && p.r.Partner(p.selectedIndex()) >= 0)
	k.Body.SetEnabled(has && !p.bodyFocus)
	k.Back.SetEnabled(p.bodyFocus)
	k.Write.SetEnabled(has)
	k.Raw.SetEnabled(has)
	k.ClearFilter.SetEnabled(p.filtered)
	isCall := p.callAt() >= 0
	k.Reproduce.SetEnabled(isCall && p.reproducible)
	k.Mark.SetEnabled(isCall)
	k.Compare.SetEnabled(isCall && p.hasMark)
	nav := k.list()
	if p.bodyFocus {
		nav = []key.Binding{bind([]string{"up"}, "↑/↓", "scroll"), k.PageUp, k.PageDown, k.Home, k.End}
	}
	if p.timeline {
		k.Timeline.SetHelp("T", "back to the frames")
		k.Body.SetHelp("enter", "show this request in the frames")
		return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Body, k.Timeline, k.Reproduce, k.Mark, k.Compare, k.Partner, k.Raw, k.BodyUp, k.BodyDown}
	}
	return append(nav, k.Reproduce, k.Timeline, k.NextCall, k.PrevCall, k.Partner, k.Mark, k.Compare, k.Body, k.Back, k.Raw, k.Write,
		k.Filter, k.Direction, k.Kind, k.ClearFilter, k.BodyUp, k.BodyDown)
}

// filterDesc says which filters are on.
func (p *framesPane) filterDesc() string {
	var parts []string
	if p.query != "" {
		parts = append(parts, fmt.Sprintf("%q", p.query))
	}
	if p.dir != "" {
		parts = append(parts, string(p.dir)+" "+p.dir.Arrow())
	}
	if p.kind != "" {
		parts = append(parts, string(p.kind))
	}
	return strings.Join(parts, " · ")
}

func (p *framesPane) view() string {
	var b strings.Builder
	b.Grow((p.listH + p.body.height + 3) * (p.width + 16))
	switch {
	case p.filtering:
		b.WriteString(p.input.view())
	case p.timeline:
		b.WriteString(p.st.muted.Render(ansi.Truncate(p.timelineHead(), p.width, "…")))
	default:
		head := thousands(p.n) + " frames"
		if p.filtered {
			head = fmt.Sprintf("%s of %s frames · filter %s", thousands(len(p.idx)), thousands(p.n), p.filterDesc())
		}
		if p.follow && p.n > 0 && !p.filtered {
			head += " · following"
		}
		b.WriteString(p.st.muted.Render(ansi.Truncate(head, p.width, "…")))
	}
	sel := p.selectedIndex()
	partner := -1
	if sel >= 0 {
		partner = p.r.Partner(sel)
	}
	seqW := len(fmt.Sprint(p.n))
	for r := 0; r < p.listH; r++ {
		b.WriteByte('\n')
		if p.timeline {
			b.WriteString(p.timelineRow(p.tlTop+r, seqW))
			continue
		}
		pos := p.top + r
		if pos >= p.count() {
			continue
		}
		i := p.at(pos)
		b.WriteString(p.row(i, seqW, i == sel, i == partner))
	}
	b.WriteByte('\n')
	b.WriteString(p.bodyHeader(sel))
	b.WriteByte('\n')
	if p.bodyFor >= 0 && p.bodyFor < p.n {
		if e := p.r.Frame(p.bodyFor).Err; e != "" {
			b.WriteString(p.st.frameInvalid.Render(ansi.Truncate("! "+e, p.width, "…")))
		} else if p.split {
			b.WriteString(p.st.muted.Render(fitTo(p.bodyNote+" · "+p.body.position(), p.body.width) + " " +
				ansi.Truncate(p.sideNote, p.side.width, "…")))
		} else {
			b.WriteString(p.st.muted.Render(ansi.Truncate(p.bodyNote+" · "+p.body.position(), p.width, "…")))
		}
	}
	if p.body.height > 0 {
		b.WriteByte('\n')
		if p.split {
			b.WriteString(sideBySide(p.body.view(p.st), p.body.width, p.side.view(p.st), p.side.width, p.body.height, p.st.muted.Render("│")))
		} else {
			b.WriteString(p.body.view(p.st))
		}
	}
	return b.String()
}

func (p *framesPane) bodyHeader(i int) string {
	if i < 0 {
		return p.st.muted.Render(strings.Repeat("─", p.width))
	}
	f := p.r.Frame(i)
	h := fmt.Sprintf("─ #%d %s %s", f.Seq, f.Dir.Arrow(), f.Kind)
	if f.Method != "" {
		h += " " + f.Method
	}
	if f.ID != "" {
		h += " id=" + f.ID
	}
	h += " · " + frames.HumanSize(f.Size())
	if d, ok := frames.Latency(p.r, i); ok {
		h += fmt.Sprintf(" · %s after #%d", roundLatency(d), p.r.Frame(p.r.Partner(i)).Seq)
	} else if j := p.r.Partner(i); j >= 0 {
		h += fmt.Sprintf(" · answered by #%d", p.r.Frame(j).Seq)
	}
	h += " "
	if w := ansi.StringWidth(h); w < p.width {
		h += strings.Repeat("─", p.width-w)
	}
	st := p.st.muted
	if p.bodyFocus {
		st = p.st.label
	}
	return st.Render(ansi.Truncate(h, p.width, "…"))
}

// row is one frame's line: gutter, seq, time offset, direction, kind, what
// it is (method and id, a stderr line, why it is invalid), size, latency.
func (p *framesPane) row(i, seqW int, selected, partner bool) string {
	f := p.r.Frame(i)
	gutter := "  "
	if partner {
		gutter = "↔ "
	}
	if selected {
		gutter = "▶ "
	}
	off := fmt.Sprintf("%+.3fs", f.Time.Sub(p.start).Seconds())
	left := fmt.Sprintf("%s#%-*d %8s %s %-7s ", gutter, seqW, f.Seq, off, f.Dir.Arrow(), kindLabel(f))
	var what string
	switch f.Kind {
	case frames.KindStderr:
		what = "| " + sanitize(f.Raw[:min(len(f.Raw), 4*p.width)])
	case frames.KindInvalid, frames.KindBatch:
		what = f.Err
	case frames.KindTransport:
		what = f.Note
		if f.HTTP != nil && f.HTTP.Status != 0 {
			what = fmt.Sprintf("HTTP %d %s", f.HTTP.Status, what)
		}
	default:
		what = f.Method
		if t := p.tool(i); t != "" {
			what += " " + t
		}
		if n := p.note(i); n != "" {
			what = n
		}
		if f.ID != "" {
			what += " id=" + f.ID
		}
		if f.Code != 0 {
			what += fmt.Sprintf(" code=%d", f.Code)
		}
		if f.Err != "" {
			what += " ! " + f.Err
		}
	}
	right := ""
	if f.Kind != frames.KindStderr && f.Size() > 0 {
		right = frames.HumanSize(f.Size())
	}
	if d, ok := frames.Latency(p.r, i); ok {
		right += " " + roundLatency(d)
	} else if f.Kind == frames.KindRequest && p.r.Partner(i) < 0 {
		right += " " + frames.Unanswered(p.r, i)
	}
	avail := p.width - ansi.StringWidth(left)
	whatW := ansi.StringWidth(what)
	line := left
	switch {
	case right == "":
		line += what
	case whatW+1+len(right) <= avail:
		line += what + strings.Repeat(" ", avail-whatW-len(right)) + right
	case avail-len(right)-1 >= 12:
		// Cut the description, keep the size and latency.
		line += ansi.Truncate(what, avail-len(right)-1, "…") + " " + right
	default:
		// Too narrow for both: the description matters more.
		line += what
	}
	line = ansi.Truncate(line, p.width, "…")
	switch {
	case selected && p.focused && !p.bodyFocus:
		return p.st.selected.Render(padRight(line, p.width))
	case selected:
		return p.st.selectedBlur.Render(padRight(line, p.width))
	case partner:
		return p.st.partnerMark.Render(line)
	}
	return p.st.frame(f).Render(line)
}

// kindLabel names a frame's kind; a request the server sent to the client
// (sampling, elicitation, roots) is called out because the client must answer.
func kindLabel(f *frames.Frame) string {
	switch f.Kind {
	case frames.KindRequest:
		if f.Dir == frames.ServerToClient {
			return "srv-req"
		}
	case frames.KindNotification:
		if isLog(f) {
			return "log"
		}
		return "notify"
	case frames.KindTransport:
		return "transp"
	}
	return string(f.Kind)
}

// isLog reports whether f is a server log line (notifications/message).
func isLog(f *frames.Frame) bool {
	return f.Kind == frames.KindNotification && f.Dir == frames.ServerToClient && f.Method == "notifications/message"
}

// note is the gist of a notification worth reading in the list without
// opening it: a log line's level, logger and text, progress and its token,
// the request a cancellation names. "" for other frames.
func (p *framesPane) note(i int) string {
	f := p.r.Frame(i)
	if f.Kind != frames.KindNotification {
		return ""
	}
	switch f.Method {
	case "notifications/message", "notifications/progress", "notifications/cancelled":
	default:
		return ""
	}
	if n, ok := p.noteOf[i]; ok {
		return n
	}
	body, _ := p.r.Body(i)
	n := notificationGist(f.Method, body)
	p.noteOf[i] = n
	return n
}

func notificationGist(method string, body []byte) string {
	var env struct {
		Params struct {
			Level         string          `json:"level"`
			Logger        string          `json:"logger"`
			Data          json.RawMessage `json:"data"`
			ProgressToken json.RawMessage `json:"progressToken"`
			Progress      json.RawMessage `json:"progress"`
			Total         json.RawMessage `json:"total"`
			Message       string          `json:"message"`
			RequestID     json.RawMessage `json:"requestId"`
			Reason        string          `json:"reason"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil {
		return ""
	}
	pr := env.Params
	switch method {
	case "notifications/message":
		text := frames.CompactString(pr.Data)
		var str string
		if json.Unmarshal(pr.Data, &str) == nil {
			text = str
		}
		logger := ""
		if pr.Logger != "" {
			logger = " [" + pr.Logger + "]"
		}
		return fmt.Sprintf("%s%s: %s", strings.ToUpper(orUnknown(pr.Level)), logger, sanitize([]byte(text)))
	case "notifications/progress":
		s := "progress " + frames.CompactString(pr.Progress)
		if len(pr.Total) > 0 {
			s += "/" + frames.CompactString(pr.Total)
		}
		s += " token=" + frames.CompactString(pr.ProgressToken)
		if pr.Message != "" {
			s += " " + pr.Message
		}
		return s
	case "notifications/cancelled":
		s := "cancelled requestId=" + frames.CompactString(pr.RequestID)
		if pr.Reason != "" {
			s += " (" + pr.Reason + ")"
		}
		return s
	}
	return ""
}
