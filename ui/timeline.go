package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session/content"
)

// Stepping through a recording by call rather than by frame: the timeline
// of requests, the tool a tools/call names, and the rendered view of a
// frame. Everything here reads bodies only for the frames on screen (or,
// for a tool= filter, the tools/call requests), so a 100,000-frame
// transcript opens as fast as its index.

// tool is the tool a tools/call request (or its response) names, or "".
func (p *framesPane) tool(i int) string {
	f := p.r.Frame(i)
	if f.IsResponse() {
		if i = p.r.Partner(i); i < 0 {
			return ""
		}
		f = p.r.Frame(i)
	}
	if f.Kind != frames.KindRequest || f.Method != "tools/call" {
		return ""
	}
	if t, ok := p.notes.toolOf[i]; ok {
		return t
	}
	t := toolNameOf(p.r, i)
	p.notes.toolOf[i] = t
	return t
}

// toolNameOf reads params.name of the request at frame index i.
func toolNameOf(r frames.Reader, i int) string {
	var env struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if body, err := r.Body(i); err == nil {
		_ = json.Unmarshal(body, &env)
	}
	return env.Params.Name
}

// isCall reports whether frame i is a tools/call request or its response.
func (p *framesPane) isCall(i int) bool {
	f := p.r.Frame(i)
	if f.IsResponse() {
		j := p.r.Partner(i)
		return j >= 0 && p.r.Frame(j).Method == "tools/call" && p.r.Frame(j).Kind == frames.KindRequest
	}
	return f.Kind == frames.KindRequest && f.Method == "tools/call"
}

// callAt is the selected frame when it is part of a tools/call, or -1.
func (p *framesPane) callAt() int {
	i := p.selectedIndex()
	if i < 0 || !p.isCall(i) {
		return -1
	}
	return i
}

// nextRequest is the shown position of the next (d=+1) or previous request
// from the selection, or the selection when there is none.
func (p *framesPane) nextRequest(d int) int {
	for pos := p.list.sel + d; pos >= 0 && pos < p.count(); pos += d {
		if p.r.Frame(p.at(pos)).Kind == frames.KindRequest {
			return pos
		}
	}
	return p.list.sel
}

// A timeline lists the requests of the session (the handshake and every
// call) with their latency and outcome, in place of the frames list; it
// reads the bodies of only the rows on screen.
type timeline struct {
	on    bool
	reqs  []int // frame indexes of requests, in order
	seen  int   // frames scanned for reqs
	list  listWindow
	marks map[int]string // response index → outcome mark, read on demand
}

// scanRequests extends the timeline to the frames known now; only
// metadata is read.
func (p *framesPane) scanRequests() {
	for ; p.tl.seen < p.n; p.tl.seen++ {
		if p.r.Frame(p.tl.seen).Kind == frames.KindRequest {
			p.tl.reqs = append(p.tl.reqs, p.tl.seen)
		}
	}
}

func (p *framesPane) toggleTimeline() {
	p.tl.on = !p.tl.on
	p.body.focused = false
	if !p.tl.on {
		return
	}
	p.scanRequests()
	// Start on the request nearest the selection.
	sel := p.selectedIndex()
	if j := p.r.Partner(max(sel, 0)); sel >= 0 && p.r.Frame(sel).IsResponse() && j >= 0 {
		sel = j
	}
	p.tl.list.sel = 0
	for k, i := range p.tl.reqs {
		if i <= sel {
			p.tl.list.sel = k
		}
	}
	p.tl.list.keepVisible(len(p.tl.reqs))
	p.selectTimeline()
}

// selectTimeline shows the timeline's selected request in the body.
func (p *framesPane) selectTimeline() {
	if p.tl.list.sel < len(p.tl.reqs) {
		p.selectSeq(p.r.Frame(p.tl.reqs[p.tl.list.sel]).Seq)
	}
}

// timelineActions move among the requests; enter, T and esc go back to the
// frames, on the request the timeline was on.
func (p *framesPane) timelineActions() []action {
	k := p.keys
	back := does(func() { p.tl.on = false })
	as := listActions(k.scrollKeys, &p.tl.list, len(p.tl.reqs), p.selectTimeline)
	as = append(as,
		on(k.Body, back).labelled("show this request in the frames"),
		on(k.Timeline, back).labelled("back to the frames"),
		on(k.Back, back),
		on(k.Partner, does(func() {
			p.tl.on = false
			if i := p.selectedIndex(); i >= 0 && p.r.Partner(i) >= 0 {
				p.selectSeq(p.r.Frame(p.r.Partner(i)).Seq)
			}
		})),
	)
	taken := map[string]bool{k.Body.Help().Key: true, k.Timeline.Help().Key: true, k.Back.Help().Key: true}
	for _, a := range p.commonActions(false) {
		if !taken[a.Help().Key] {
			as = append(as, a)
		}
	}
	return as
}

func (p *framesPane) timelineHead() string {
	calls := 0
	for _, i := range p.tl.reqs {
		if p.r.Frame(i).Method == "tools/call" {
			calls++
		}
	}
	shown := ""
	if n, w := len(p.tl.reqs), p.tl.list; w.height > 0 && n > w.height {
		// The count is of every request: say which of them are on screen,
		// so a row scrolled out of view is not a row left out.
		shown = fmt.Sprintf(" (rows %s–%s shown)", thousands(w.top+1), thousands(min(w.top+w.height, n)))
	}
	return fmt.Sprintf("timeline · %s requests%s, %s tools/call · enter shows one in the frames · T back",
		thousands(len(p.tl.reqs)), shown, thousands(calls))
}

// timelineRow is one request: seq, method (and tool), latency, outcome.
func (p *framesPane) timelineRow(pos, seqW int) string {
	if pos < 0 || pos >= len(p.tl.reqs) {
		return ""
	}
	i := p.tl.reqs[pos]
	f := p.r.Frame(i)
	gutter := "  "
	if i == p.env.calls.markFrame {
		gutter = "◆ "
	}
	if pos == p.tl.list.sel {
		gutter = "▶ "
	}
	what := f.Method
	if t := p.tool(i); t != "" {
		// The head counts the tools/call; a row names its tool, and the
		// room goes to the arguments that tell it from the others.
		what = t
	}
	if a := p.notes.argsShown[i]; a != "" {
		what += " " + a
	}
	if f.Dir == frames.ServerToClient {
		what = "← " + what + " (asked by the server)"
	}
	var lat, mark string
	var markStyle = p.st.okText
	if j := p.r.Partner(i); j >= 0 {
		if d, ok := frames.Latency(p.r, j); ok {
			lat = frames.HumanDuration(d)
		}
		mark, markStyle = p.outcomeMark(j)
	} else if c := frames.CancelledBy(p.r, i); c >= 0 {
		mark, markStyle = fmt.Sprintf("⊘ cancelled by #%d", p.r.Frame(c).Seq), p.st.warnText
	} else {
		mark, markStyle = "… no response", p.st.warnText
	}
	left := fmt.Sprintf("%s#%-*d %s", gutter, seqW, f.Seq, what)
	right := strings.TrimSpace(lat + " " + mark)
	gap := p.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		left = ansi.Truncate(left, max(p.width-ansi.StringWidth(right)-1, 12), "…")
		gap = max(p.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	}
	if pos == p.tl.list.sel {
		st := p.st.selectedBlur
		if p.focused {
			st = p.st.selected
		}
		return st.Render(padRight(ansi.Truncate(left+strings.Repeat(" ", gap)+right, p.width, "…"), p.width))
	}
	return ansi.Truncate(p.st.frame(f).Render(left)+strings.Repeat(" ", gap)+markStyle.Render(right), p.width, "…")
}

// outcomeMark says how a response came out: ✓, ✗ with the error code, or,
// for a tools/call result, ✗ isError or ⚠ PARTIAL (which needs its body,
// read once when the row is first drawn).
func (p *framesPane) outcomeMark(j int) (string, lipgloss.Style) {
	f := p.r.Frame(j)
	if f.Kind == frames.KindError {
		return fmt.Sprintf("✗ %d", f.Code), p.st.errorText
	}
	if f.Method != "tools/call" {
		return "✓", p.st.okText
	}
	m, ok := p.tl.marks[j]
	if !ok {
		m = "✓"
		if body, err := p.r.Body(j); err == nil {
			var env struct {
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(body, &env)
			isErr, partial := resultFlags(env.Result)
			switch {
			case isErr:
				m = "✗ isError"
			case partial:
				m = "⚠ PARTIAL"
			}
		}
		p.tl.marks[j] = m
	}
	switch {
	case strings.HasPrefix(m, "✗"):
		return m, p.st.errorText
	case strings.HasPrefix(m, "⚠"):
		return m, p.st.warnText
	}
	return m, p.st.okText
}

// resultFlags reads whether a tools/call result reports a tool error and
// whether it flags itself as incomplete, as the result pane says it.
func resultFlags(result json.RawMessage) (isError, partial bool) {
	r, err := content.DecodeToolResult(result)
	if err != nil {
		return false, false
	}
	return r.IsError, len(r.Partial) > 0
}

// renderedDoc is frame i read for meaning rather than bytes: a tools/call
// response rendered as the result pane renders a call (content blocks,
// structuredContent against the recorded outputSchema, partial flags); a
// request's arguments; an error's code and message.
func (p *framesPane) renderedDoc(i int) (*doc, string) {
	if p.isCall(i) {
		return p.renderedCall(i)
	}
	var b docBuilder
	f := p.r.Frame(i)
	body, err := p.r.Body(i)
	if err != nil {
		b.line(roleError, "body unavailable: "+err.Error())
		return b.doc(), "rendered"
	}
	var env struct {
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	switch {
	case !f.Kind.IsMessage():
		b.line(roleMuted, fmt.Sprintf("%s frame: see its bytes", f.Kind))
		if f.Err != "" {
			b.line(roleWarn, f.Err)
		}
	case json.Unmarshal(body, &env) != nil:
		b.line(roleError, "not JSON: see its bytes")
	case env.Error != nil:
		b.linef(roleRPCError, " ✗ JSON-RPC ERROR %d: %s ", env.Error.Code, env.Error.Message)
		writeIndented(&b, env.Error.Data)
	case !isNull(env.Result):
		b.line(roleLabel, f.Method+" result")
		writeIndented(&b, env.Result)
	default:
		b.line(roleLabel, f.Method+" params")
		writeIndented(&b, env.Params)
	}
	return b.doc(), "rendered"
}

// renderedCall is a recorded tools/call read as the result pane reads a
// call, with what an agent transcript says about it.
func (p *framesPane) renderedCall(i int) (*doc, string) {
	var b docBuilder
	c, err := fixture.RecordedCall(p.r, i)
	if err != nil {
		b.line(roleError, err.Error())
		return b.doc(), "rendered"
	}
	cancel := ""
	if j := frames.CancelledBy(p.r, i); j >= 0 && p.r.Partner(i) < 0 {
		cancel = fmt.Sprintf("#%d", p.r.Frame(j).Seq)
	}
	writeRecordedCall(&b, p.env.redact, c, cancel)
	resp := i
	if p.r.Frame(i).Kind == frames.KindRequest {
		resp = p.r.Partner(i)
	}
	if vs := p.violations(resp); len(vs) > 0 {
		b.line(rolePlain, "")
		b.linef(roleError, "✗ %d contract violation%s:", len(vs), frames.Plural(len(vs)))
		for _, v := range vs {
			b.line(roleWarn, "  "+v)
		}
	}
	if p.env.callNotes != nil {
		if notes := p.env.callNotes(i); len(notes) > 0 {
			b.line(rolePlain, "")
			for _, n := range notes {
				role := roleMuted
				if strings.HasSuffix(n, ":") {
					role = roleLabel
				}
				b.line(role, n)
			}
		}
	}
	note := "rendered call"
	if p.canReproduce() {
		note += " · r reproduces it"
	}
	return b.doc(), note
}

// writeIndented writes JSON indented, when there is any.
func writeIndented(b *docBuilder, raw json.RawMessage) {
	if !isNull(raw) {
		pr, _ := frames.Indent(raw)
		b.bytes(pr)
	}
}

// writeRecordedCall renders a recorded tools/call: its arguments, then its
// response as the result pane would show it. cancel names the
// notifications/cancelled frame that withdrew it, when one did.
func writeRecordedCall(b *docBuilder, red *frames.Redactor, c fixture.Call, cancel string) {
	b.line(roleMuted, "→ "+c.Name+" "+oneLine(red, string(c.Arguments), 400))
	switch {
	case len(c.Error) > 0:
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(c.Error, &e)
		b.linef(roleRPCError, " ✗ JSON-RPC ERROR %d: %s ", e.Code, e.Message)
		b.line(roleMuted, "The server refused the request itself: there is no result and no content.")
		pr, _ := frames.Indent(c.Error)
		b.bytes(pr)
	case len(c.Result) > 0:
		if isErr, _ := resultFlags(c.Result); isErr {
			b.line(roleToolError, "✗ TOOL ERROR — "+content.ToolErrorWhat(c.Result))
		} else {
			b.line(roleOK, "✓ result")
		}
		var def struct {
			OutputSchema json.RawMessage `json:"outputSchema"`
		}
		_ = json.Unmarshal(c.Tool, &def)
		content.RenderTool(contentDoc{b}, c.Result, def.OutputSchema)
	case cancel != "":
		b.linef(roleWarn, "⊘ cancelled by %s (notifications/cancelled): no response was recorded, and none was due", cancel)
	default:
		b.line(roleMuted, "no response was recorded")
	}
}

// sideBySide joins two blocks of h lines into columns of widths lw and rw.
func sideBySide(left string, lw int, right string, rw, h int, sep string) string {
	l, r := fit(left, lw, h), fit(right, rw, h)
	out := make([]string, h)
	for i := range out {
		out[i] = l[i] + sep + r[i]
	}
	return strings.Join(out, "\n")
}

// Arguments in the lists: a request that carries them (tools/call,
// prompts/get, a resource's URI) shows them compactly after its method,
// so that two search_orders rows can be told apart without opening them.
// Only the rows on screen are read. Among the calls of one tool on
// screen, the arguments whose values differ come first, so that a cut
// row still shows what tells it from its neighbours.

// An argKV is one argument as sent: its name ("" for a URI shown bare)
// and its value, compact.
type argKV struct{ name, value string }

// argsOf reads the arguments of request i once.
func (p *framesPane) argsOf(i int) []argKV {
	if kv, ok := p.notes.argsOf[i]; ok {
		return kv
	}
	var kv []argKV
	f := p.r.Frame(i)
	if f.Kind == frames.KindRequest && f.Dir == frames.ClientToServer {
		if body, err := p.r.Body(i); err == nil {
			kv = requestArgs(f.Method, body)
		}
	}
	p.notes.argsOf[i] = kv
	return kv
}

// requestArgs are the arguments of a request of method, from its body.
func requestArgs(method string, body []byte) []argKV {
	var env struct {
		Params struct {
			Name      string          `json:"name"`
			URI       string          `json:"uri"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil {
		return nil
	}
	switch method {
	case "tools/call":
		return objectArgs(env.Params.Arguments)
	case "prompts/get":
		return append([]argKV{{value: compactValue(env.Params.Name)}}, objectArgs(env.Params.Arguments)...)
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		if env.Params.URI != "" {
			return []argKV{{value: compactValue(env.Params.URI)}}
		}
	}
	return nil
}

// objectArgs are an arguments object's members in the order sent; what is
// not an object is shown whole.
func objectArgs(raw json.RawMessage) []argKV {
	if isNull(raw) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return []argKV{{value: compactJSON(raw)}}
	}
	var kv []argKV
	for dec.More() {
		t, err := dec.Token()
		name, ok := t.(string)
		var v json.RawMessage
		if err != nil || !ok || dec.Decode(&v) != nil {
			return kv
		}
		kv = append(kv, argKV{name, compactJSON(v)})
	}
	return kv
}

// compactJSON is a value as it reads best in a row: a plain string bare,
// any other string quoted, anything else compact JSON, the middle of a
// long one left out.
func compactJSON(v json.RawMessage) string {
	var s string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return compactValue(s)
	}
	return frames.ShortenMiddle(frames.CompactString(v), argValueWidth)
}

// argValueWidth is the most a value takes of a row.
const argValueWidth = 32

// compactValue is a string bare when it is plain (letters, digits and
// URI punctuation, not empty), else quoted as JSON.
func compactValue(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r == ':' || r == '/' || r == '@' || r == '+' || r == '#' || r == '?' || r == '=' || r == '&' || r == '%' || r == '~' ||
			('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')) {
			plain = false
			break
		}
	}
	if plain {
		return frames.ShortenMiddle(s, argValueWidth)
	}
	q, _ := json.Marshal(frames.ShortenMiddle(s, argValueWidth))
	return string(q)
}

// argsOnScreen sets the arguments' gist of every request on screen.
func (p *framesPane) argsOnScreen() {
	var idx []int
	if p.tl.on {
		for r := 0; r < p.list.height && p.tl.list.top+r < len(p.tl.reqs); r++ {
			idx = append(idx, p.tl.reqs[p.tl.list.top+r])
		}
	} else {
		for r := 0; r < p.list.height && p.list.top+r < p.count(); r++ {
			if i := p.at(p.list.top + r); p.r.Frame(i).Kind == frames.KindRequest {
				idx = append(idx, i)
			}
		}
	}
	p.notes.argsShown = argsGists(idx, p.argsOf, func(i int) string { return p.r.Frame(i).Method + " " + p.tool(i) })
	for i, g := range p.notes.argsShown {
		p.notes.argsShown[i] = sanitize([]byte(p.env.redact.String(g)))
	}
}

// argsGists writes the arguments of each request in idx as name=value,
// the names whose values differ among the requests of the same group
// (one tool's calls) first, the others after, each set in the order sent.
func argsGists(idx []int, args func(int) []argKV, group func(int) string) map[int]string {
	values := map[string]map[string]map[string]bool{} // group → name → values seen
	for _, i := range idx {
		g := group(i)
		if values[g] == nil {
			values[g] = map[string]map[string]bool{}
		}
		for _, a := range args(i) {
			if values[g][a.name] == nil {
				values[g][a.name] = map[string]bool{}
			}
			values[g][a.name][a.value] = true
		}
	}
	count := map[string]int{}
	for _, i := range idx {
		count[group(i)]++
	}
	out := map[int]string{}
	for _, i := range idx {
		g := group(i)
		var differ, same []string
		for _, a := range args(i) {
			w := a.value
			if a.name != "" {
				w = a.name + "=" + a.value
			}
			// A name missing from some calls, or with other values, tells
			// them apart.
			if count[g] > 1 && (len(values[g][a.name]) > 1 || !inAll(idx, g, a.name, args, group)) {
				differ = append(differ, w)
			} else {
				same = append(same, w)
			}
		}
		if s := strings.Join(append(differ, same...), " "); s != "" {
			out[i] = s
		}
	}
	return out
}

// inAll reports whether every request of group g in idx has argument name.
func inAll(idx []int, g, name string, args func(int) []argKV, group func(int) string) bool {
	for _, j := range idx {
		if group(j) != g {
			continue
		}
		found := false
		for _, a := range args(j) {
			found = found || a.name == name
		}
		if !found {
			return false
		}
	}
	return true
}
