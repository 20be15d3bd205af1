package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

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
// visible rows, and a filter costs one pass when it changes. Its parts: the
// filter, the list, the body under it (framebody.go) and the timeline of
// requests that can take the list's place (timeline.go).
type framesPane struct {
	env   *paneEnv
	st    *styles
	keys  framesKeys
	ikeys inputKeys
	out   *outbox
	r     frames.Reader
	n     int // frames known; grows with framesMsg
	start time.Time

	filter frameFilter
	list   listWindow // positions among the shown frames
	follow bool       // the selection stays on the newest frame
	body   frameBody
	tl     timeline
	notes  frameNotes

	focused       bool
	width, height int
}

// A frameFilter keeps the frames that match a query, a direction and a kind.
type frameFilter struct {
	query   string
	dir     frames.Direction
	kind    frames.Kind
	input   *textEdit
	editing bool  // the query is being typed
	on      bool  // a filter is set
	idx     []int // frame indexes that pass, when on
}

// desc says which filters are on.
func (f *frameFilter) desc() string {
	var parts []string
	if f.query != "" {
		parts = append(parts, fmt.Sprintf("%q", f.query))
	}
	if f.dir != "" {
		parts = append(parts, string(f.dir)+" "+f.dir.Arrow())
	}
	if f.kind != "" {
		parts = append(parts, string(f.kind))
	}
	return strings.Join(parts, " · ")
}

// frameNotes cache what is read from frame bodies on demand for the list.
type frameNotes struct {
	toolOf map[int]string  // tools/call request index → params.name
	noteOf map[int]string  // notification index → its gist (log line, progress)
	argsOf map[int][]argKV // request index → its arguments, in the order sent

	// argsShown is the gist of the arguments of each request on screen,
	// the ones that tell calls of one tool apart first (argsOnScreen).
	argsShown map[int]string
}

func newFramesPane(env *paneEnv) *framesPane {
	ti := newTextEdit(env.st, true)
	ti.prompt = "/ "
	ti.placeholder = "method, tool=NAME, id=…, or text in the summary"
	p := &framesPane{env: env, st: env.st, keys: newFramesKeys(), ikeys: newInputKeys(), out: env.out, r: env.reader,
		filter: frameFilter{input: ti}, follow: true, body: frameBody{shownFor: -1, bytes: textView{red: env.redact}, side: textView{red: env.redact}},
		tl: timeline{marks: map[int]string{}}, notes: frameNotes{toolOf: map[int]string{}, noteOf: map[int]string{}, argsOf: map[int][]argKV{}}}
	p.grow(p.r.Len())
	return p
}

func (p *framesPane) title() string {
	t := fmt.Sprintf("Frames (%s)", thousands(p.n))
	if l := p.env.conn.logLevel; l != "" {
		t += " · log ≥ " + l
	}
	return t
}

// setSplit puts the rendered view beside the bytes (a read-only screen wide
// enough for both) or not.
func (p *framesPane) setSplit(split bool) {
	p.body.split = split
	p.body.shownFor = -1 // redraw
}

// canReproduce reports whether r can reproduce a recorded call: a live
// session, or a recording with a server named to reproduce on.
func (p *framesPane) canReproduce() bool {
	c := p.env.conn
	return !c.readOnly || c.reproduce != nil
}

// whyNoReproduce is what r says when it cannot reproduce.
func (p *framesPane) whyNoReproduce() string {
	if why := p.env.conn.refused; why != "" {
		return why
	}
	return "this recording names no server to reproduce against: give one, e.g. jig open FILE --demo --release 2, or -- node server.js"
}

func (p *framesPane) count() int {
	if p.filter.on {
		return len(p.filter.idx)
	}
	return p.n
}

// at returns the frame index shown at position pos.
func (p *framesPane) at(pos int) int {
	if p.filter.on {
		return p.filter.idx[pos]
	}
	return pos
}

// selectedIndex is the frame index under the cursor, or -1.
func (p *framesPane) selectedIndex() int {
	if p.list.sel < 0 || p.list.sel >= p.count() {
		return -1
	}
	return p.at(p.list.sel)
}

// grow takes in frames up to n.
func (p *framesPane) grow(n int) {
	if n <= p.n {
		return
	}
	atEnd := p.list.sel >= p.count()-1
	if p.n == 0 && n > 0 {
		p.start = p.r.Frame(0).Time
	}
	if p.filter.on {
		for i := p.n; i < n; i++ {
			if p.match(i) {
				p.filter.idx = append(p.filter.idx, i)
			}
		}
	}
	p.n = n
	if p.tl.on {
		p.scanRequests()
	}
	if p.follow && atEnd && !p.body.focused {
		p.list.sel = max(p.count()-1, 0)
	}
	p.list.keepVisible(p.count())
	p.syncBody()
}

// followNewest selects the newest frame and keeps selecting each new one as
// it arrives: a call was sent, or cancelled, and its frames are what to see.
func (p *framesPane) followNewest() {
	p.follow, p.body.focused = true, false
	p.list.sel = max(p.count()-1, 0)
	p.list.keepVisible(p.count())
	p.syncBody()
}

func (p *framesPane) match(i int) bool {
	f, flt := p.r.Frame(i), &p.filter
	if flt.dir != "" && f.Dir != flt.dir || flt.kind != "" && f.Kind != flt.kind {
		return false
	}
	if flt.query == "" {
		return true
	}
	q := strings.ToLower(flt.query)
	if id, ok := strings.CutPrefix(q, "id="); ok {
		return strings.Trim(strings.ToLower(f.ID), `"`) == strings.Trim(id, `"`)
	}
	if name, ok := strings.CutPrefix(q, "tool="); ok {
		t := p.tool(i)
		return t != "" && strings.Contains(strings.ToLower(t), strings.TrimSpace(name))
	}
	return strings.Contains(strings.ToLower(f.Method), q) ||
		strings.Contains(strings.ToLower(f.Err), q) || strings.Contains(strings.ToLower(f.Note), q) ||
		(f.Kind == frames.KindStderr && strings.Contains(strings.ToLower(string(p.stderrLine(i))), q))
}

// stderrLine is the text of stderr frame i: a recording opened from a file
// loads bodies lazily, so its frames have no Raw until read (the list drew
// "← stderr |" with the text missing).
func (p *framesPane) stderrLine(i int) []byte {
	if raw := p.r.Frame(i).Raw; raw != nil {
		return raw
	}
	body, _ := p.r.Body(i)
	return body
}

// refilter recomputes the shown frames, keeping the selected frame if it
// still passes.
func (p *framesPane) refilter() {
	keep := p.selectedIndex()
	flt := &p.filter
	flt.on = flt.query != "" || flt.dir != "" || flt.kind != ""
	flt.idx = flt.idx[:0]
	if flt.on {
		for i := 0; i < p.n; i++ {
			if p.match(i) {
				flt.idx = append(flt.idx, i)
			}
		}
	}
	p.list.sel = p.position(keep)
	p.list.keepVisible(p.count())
	p.syncBody()
}

// clearFilter shows every frame again.
func (p *framesPane) clearFilter() {
	p.filter.query, p.filter.dir, p.filter.kind = "", "", ""
	p.filter.input.setValue("")
	p.refilter()
}

// position finds the shown position of frame index i, or the nearest one
// before it.
func (p *framesPane) position(i int) int {
	if i < 0 {
		return max(p.count()-1, 0)
	}
	if !p.filter.on {
		return min(i, max(p.n-1, 0))
	}
	pos := sort.SearchInts(p.filter.idx, i)
	if pos < len(p.filter.idx) && p.filter.idx[pos] == i {
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
	if p.filter.on && !p.match(i) {
		p.clearFilter()
	}
	p.list.sel = p.position(i)
	p.follow = false
	p.list.keepVisible(p.count())
	p.syncBody()
	return true
}

// moved is what follows the user moving the selection: the body shows it,
// and the list follows new frames only when it is on the last one.
func (p *framesPane) moved() {
	p.follow = p.list.sel >= p.count()-1
	p.syncBody()
}

func (p *framesPane) setFocus(f bool) {
	p.focused = f
	if !f {
		p.body.focused = false
	}
}

func (p *framesPane) typing() bool { return p.filter.editing }

// The pane's rows: a head line, the list, the body's header and note
// lines, then the body.
func (p *framesPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.filter.input.setSize(w, 1)
	chrome := chromeRows(p.head(), p.bodyHeader(-1), p.bodyNoteLine())
	p.list.height = max(min(h*2/5, h-chrome-3), min(3, h))
	p.tl.list.height = p.list.height
	p.body.setSize(w, max(h-p.list.height-chrome, 0))
	p.list.keepVisible(p.count())
	p.tl.list.keepVisible(len(p.tl.reqs))
	p.syncBody()
}

// indexTools reads which tool each tools/call request names, in the
// background, so a tool= filter or the timeline on a long recording finds
// them read already.
func (p *framesPane) indexTools() tea.Cmd {
	r, ctx, n := p.r, p.env.ctx, p.n
	return p.env.toSelf(func() tea.Msg { return indexTools(ctx, r, 0, n) })
}

// update takes what the filter field types, the wheel, and the tools read
// by indexTools.
func (p *framesPane) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case toolsIndexedMsg:
		for i, t := range msg.names {
			p.notes.toolOf[i] = t
		}
	case wheelMsg:
		if p.list.wheel(msg, p.count()) {
			p.moved()
		} else {
			p.body.scroll(func(v *textView) { v.scroll(msg.dy) })
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if p.filter.editing {
			p.typeFilter(msg)
		}
	}
	return nil
}

func (p *framesPane) typeFilter(msg tea.Msg) tea.Cmd {
	p.filter.input.update(msg)
	if v := strings.TrimSpace(p.filter.input.value()); v != p.filter.query {
		p.filter.query = v
		p.refilter()
	}
	return nil
}

func (p *framesPane) actions() []action {
	switch {
	case p.filter.editing:
		return p.filterActions()
	case p.body.focused:
		return append(p.body.scrollActions(p.keys.scrollKeys), p.commonActions(false)...)
	case p.tl.on:
		return p.timelineActions()
	}
	return append(listActions(p.keys.scrollKeys, &p.list, p.count(), p.moved), p.commonActions(true)...)
}

// stepActions step through the requests and to a frame's partner.
func (p *framesPane) stepActions() []action {
	k, sel := p.keys, p.selectedIndex()
	step := func(d int) func() tea.Cmd {
		return does(func() { p.list.sel = p.nextRequest(d); p.list.keepVisible(p.count()); p.moved() })
	}
	return []action{
		on(k.NextCall, step(+1)),
		on(k.PrevCall, step(-1)),
		on(k.Partner, does(func() { p.selectSeq(p.r.Frame(p.r.Partner(sel)).Seq) })).
			only(sel >= 0, "no frame is selected").only(sel < 0 || p.r.Partner(sel) >= 0, p.noPartner(sel)),
	}
}

func (p *framesPane) noPartner(i int) string {
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("frame #%d has no paired request or response", p.r.Frame(i).Seq)
}

func (p *framesPane) filterActions() []action {
	in := p.filter.input
	return append([]action{
		on(p.ikeys.Accept, does(func() { p.filter.editing = false; in.blur() })),
		on(p.ikeys.Cancel, does(func() {
			p.filter.editing = false
			in.blur()
			in.setValue("")
			p.filter.query = ""
			p.refilter()
		})),
	}, fieldActions(in, func(k tea.KeyPressMsg) tea.Cmd { return p.typeFilter(k) })...)
}

// commonActions work in the list, the body and the timeline (steps: and
// the list's steps through the requests), in the order the footer offers
// them: what a recording is opened for first.
func (p *framesPane) commonActions(steps bool) []action {
	k := p.keys
	has := p.selectedIndex() >= 0
	none := "no frame is selected"
	calls := p.callActions()
	as := []action{calls[0], on(k.Timeline, does(p.toggleTimeline))}
	if steps {
		as = append(as, p.stepActions()...)
	}
	as = append(as, calls[1:]...)
	return append(as,
		on(k.Body, does(func() { p.body.focused = true })).only(has, none).only(!p.body.focused, "the body has the keys already"),
		on(k.Back, does(func() { p.body.focused = false })).only(p.body.focused, "the list has the keys already"),
		on(k.Raw, does(func() { p.body.cycle(); p.syncBody() })).only(has, none),
		on(k.Write, p.write).only(has, none),
		on(k.Filter, does(p.editFilter)),
		on(k.Direction, does(p.nextDirection)),
		on(k.Kind, does(p.nextKind)),
		on(k.ClearFilter, does(p.clearFilter)).only(p.filter.on, "no filter is set"),
		on(k.BodyUp, does(func() { p.body.scroll(func(v *textView) { v.scroll(-3) }) })),
		on(k.BodyDown, does(func() { p.body.scroll(func(v *textView) { v.scroll(3) }) })),
	)
}

// callActions reproduce, mark and compare the selected tools/call.
func (p *framesPane) callActions() []action {
	k, i := p.keys, p.callAt()
	notCall := "select a tools/call request or response (n steps to the next request)"
	return []action{
		on(k.Reproduce, func() tea.Cmd { return p.out.send(reproduceMsg{frame: i}) }).only(i >= 0, notCall).
			only(p.canReproduce(), p.whyNoReproduce()),
		on(k.Mark, func() tea.Cmd { return p.out.send(markMsg{ref: callRef{frame: i}}) }).only(i >= 0, notCall),
		on(k.Compare, func() tea.Cmd { return p.out.send(compareMsg{ref: callRef{frame: i}}) }).only(i >= 0, notCall).
			only(p.env.calls.mark != nil, "mark a call first (m), then compare another with it (c)"),
		on(k.Attribute, func() tea.Cmd { return p.out.send(attributeMsg{ref: callRef{frame: i}}) }).only(i >= 0, notCall).
			only(p.env.calls.mark != nil, "mark a call first (m), then press a on another call of the same tool").
			only(p.canReproduce(), "attribution runs against a live server, and this recording names none: give one, e.g. jig open FILE --demo, or -- node server.js"),
	}
}

func (p *framesPane) editFilter() {
	p.filter.editing, p.body.focused = true, false
	in := p.filter.input
	in.setValue(p.filter.query)
	in.cursorEnd()
	in.focus()
}

func (p *framesPane) nextDirection() {
	switch p.filter.dir {
	case "":
		p.filter.dir = frames.ClientToServer
	case frames.ClientToServer:
		p.filter.dir = frames.ServerToClient
	default:
		p.filter.dir = ""
	}
	p.refilter()
}

func (p *framesPane) nextKind() {
	for i, kd := range kindCycle {
		if kd == p.filter.kind {
			p.filter.kind = kindCycle[(i+1)%len(kindCycle)]
			break
		}
	}
	p.refilter()
}

// write saves the selected frame's exact bytes to a file.
func (p *framesPane) write() tea.Cmd {
	i := p.selectedIndex()
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

// head is the line over the list: the filter being typed, the timeline's
// summary, or how many frames there are and what is filtered.
func (p *framesPane) head() string {
	switch {
	case p.filter.editing:
		return p.filter.input.view()
	case p.tl.on:
		return p.st.muted.Render(ansi.Truncate(p.timelineHead(), p.width, "…"))
	}
	head := thousands(p.n) + " frames"
	if p.filter.on {
		head = fmt.Sprintf("%s of %s frames · filter %s", thousands(len(p.filter.idx)), thousands(p.n), p.filter.desc())
	}
	if p.follow && p.n > 0 && !p.filter.on {
		head += " · following"
	}
	return p.st.muted.Render(ansi.Truncate(head, p.width, "…"))
}

func (p *framesPane) view() string {
	var b strings.Builder
	b.Grow((p.list.height + p.body.bytes.height + 3) * (p.width + 16))
	b.WriteString(p.head())
	sel := p.selectedIndex()
	partner := -1
	if sel >= 0 {
		partner = p.r.Partner(sel)
	}
	seqW := len(fmt.Sprint(p.n))
	p.argsOnScreen()
	for r := 0; r < p.list.height; r++ {
		b.WriteByte('\n')
		if p.tl.on {
			b.WriteString(p.timelineRow(p.tl.list.top+r, seqW))
			continue
		}
		if pos := p.list.top + r; pos < p.count() {
			i := p.at(pos)
			b.WriteString(p.row(i, seqW, i == sel, i == partner))
		}
	}
	b.WriteByte('\n')
	b.WriteString(p.bodyHeader(sel))
	b.WriteByte('\n')
	b.WriteString(p.bodyNoteLine())
	if p.body.bytes.height > 0 {
		b.WriteByte('\n')
		b.WriteString(p.bodyView())
	}
	return b.String()
}

// row is one frame's line: gutter, seq, time offset, direction, kind, what
// it is, size, latency — the description cut first when it is too long.
func (p *framesPane) row(i, seqW int, selected, partner bool) string {
	f := p.r.Frame(i)
	gutter := "  "
	if partner {
		gutter = "↔ "
	}
	if selected {
		gutter = "▶ "
	}
	if len(p.violations(i)) > 0 {
		gutter = gutter[:len(gutter)-1] + "✗" // a contract violation
		if gutter == " ✗" {
			gutter = "✗ "
		}
	}
	left := fmt.Sprintf("%s#%-*d %8s %s %-7s ", gutter, seqW, f.Seq, frames.Offset(f.Time, p.start), f.Dir.Arrow(), kindLabel(f))
	if p.narrow() {
		left = fmt.Sprintf("%s#%-*d %s %-7s ", gutter, seqW, f.Seq, f.Dir.Arrow(), kindLabel(f))
	}
	what := p.env.redact.String(p.what(i)) // before fitRow cuts it
	line := ansi.Truncate(left+p.fitRow(what, p.rowRight(i), p.width-ansi.StringWidth(left)), p.width, "…")
	switch {
	case selected && p.focused && !p.body.focused:
		return p.st.selected.Render(padRight(line, p.width))
	case selected:
		return p.st.selectedBlur.Render(padRight(line, p.width))
	case partner:
		return p.st.partnerMark.Render(line)
	}
	return p.st.frame(f).Render(line)
}

// narrowList is the width under which the frames list is too narrow for a
// call's arguments after its time offset, method, tool and id (the
// 46-cell column at 120 columns left them no room): its rows leave the
// offset to the frame's header, and a call is named by its tool alone, its
// arguments before its id, as the timeline names it.
const narrowList = 64

func (p *framesPane) narrow() bool { return p.width < narrowList }

// violations are the contract violations of frame i, one line each,
// redacted as everything drawn is.
func (p *framesPane) violations(i int) []string {
	if p.env.violations == nil || i < 0 || i >= p.n {
		return nil
	}
	vs := p.env.violations(p.r.Frame(i).Seq)
	out := make([]string, len(vs))
	for j, v := range vs {
		out[j] = p.env.redact.String(v)
	}
	return out
}

// fitRow sets right (size, latency) at the end of avail cells after what.
func (p *framesPane) fitRow(what, right string, avail int) string {
	whatW := ansi.StringWidth(what)
	switch {
	case right == "":
		return what
	case whatW+1+len(right) <= avail:
		return what + strings.Repeat(" ", avail-whatW-len(right)) + right
	case avail-len(right)-1 >= 12:
		// Cut the description, keep the size and latency.
		return ansi.Truncate(what, avail-len(right)-1, "…") + " " + right
	}
	return what // too narrow for both: the description matters more
}

// what says what frame i is: method and id (and tool, or a notification's
// gist), a stderr line, why it is invalid, what the transport did.
func (p *framesPane) what(i int) string {
	f := p.r.Frame(i)
	switch f.Kind {
	case frames.KindStderr:
		return "| " + sanitize(redactedHead(p.env.redact, p.stderrLine(i), 4*p.width))
	case frames.KindInvalid, frames.KindBatch:
		return f.Err
	case frames.KindTransport:
		if f.HTTP != nil && f.HTTP.Status != 0 {
			return fmt.Sprintf("HTTP %d %s", f.HTTP.Status, f.Note)
		}
		return f.Note
	}
	what := f.Method
	t := p.tool(i)
	if t != "" {
		what += " " + t
	}
	if n := p.note(i); n != "" {
		what = n
	}
	a := p.notes.argsShown[i]
	if p.narrow() && t != "" {
		// What tells two calls apart first; ↔ pairs the answer.
		what = strings.TrimSpace(t + " " + a)
		a = ""
	}
	if f.ID != "" {
		what += " id=" + f.ID
	}
	if a != "" {
		what += " " + a
	}
	if f.Code != 0 {
		what += fmt.Sprintf(" code=%d", f.Code)
	}
	if f.Err != "" {
		what += " ! " + f.Err
	}
	return what
}

// rowRight is a row's size and latency (or how long a request has waited).
func (p *framesPane) rowRight(i int) string {
	f := p.r.Frame(i)
	right := ""
	if f.Kind != frames.KindStderr && f.Size() > 0 {
		right = frames.HumanSize(f.Size())
	}
	if d, ok := frames.Latency(p.r, i); ok {
		right += " " + frames.HumanDuration(d)
	} else if f.Kind == frames.KindRequest && p.r.Partner(i) < 0 {
		right += " " + frames.Unanswered(p.r, i)
	}
	return right
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
	if n, ok := p.notes.noteOf[i]; ok {
		return n
	}
	body, _ := p.r.Body(i)
	n := notificationGist(f.Method, body)
	p.notes.noteOf[i] = n
	return n
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
