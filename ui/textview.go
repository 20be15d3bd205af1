package ui

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/mcpjig/jig/frames"
)

// A doc is a body of text indexed by line, so that a 10 MB frame costs one
// pass to index and only the lines on screen are ever measured or styled.
// Roles mark the few lines (headings, banners) drawn in a style.
type doc struct {
	data  []byte
	lines []int // start offset of every logical line
	roles map[int]role
	// shown is the doc as it is drawn, redacted (see redactDoc): itself
	// when it holds no secret, nil until it has been redacted.
	shown *doc
	// gutter is the width of a margin drawn left of every row, holding the
	// mark of its line on each row the line wraps into (a comparison's
	// "-" and "+"), blank for lines without one.
	gutter int
	marks  map[int]mark
	// spans are parts of lines drawn in a style of their own (the words
	// that changed), in byte offsets from the line's start.
	spans map[int][]span
}

// A mark is what the gutter shows for a line, in its role.
type mark struct {
	text string
	r    role
}

// A span is a part of a line, [from, to) from its start, drawn in role r.
type span struct {
	from, to int
	r        role
}

func newDoc(data []byte) *doc {
	d := &doc{data: data, lines: make([]int, 1, 1+len(data)/40)}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		d.lines = append(d.lines, off)
	}
	return d
}

// lineEnd is the end of logical line i, without its newline.
func (d *doc) lineEnd(i int) int {
	if i+1 < len(d.lines) {
		return d.lines[i+1] - 1
	}
	return len(d.data)
}

// A docBuilder writes a doc line by line, recording roles as it goes.
type docBuilder struct {
	buf   bytes.Buffer
	roles map[int]role
	n     int // lines written
}

// line appends text (which may span lines) in role r.
func (b *docBuilder) line(r role, text string) {
	k := strings.Count(text, "\n") + 1
	if r != rolePlain {
		if b.roles == nil {
			b.roles = map[int]role{}
		}
		for i := 0; i < k; i++ {
			b.roles[b.n+i] = r
		}
	}
	if b.n > 0 {
		b.buf.WriteByte('\n')
	}
	b.buf.WriteString(text)
	b.n += k
}

func (b *docBuilder) linef(r role, format string, a ...any) { b.line(r, fmt.Sprintf(format, a...)) }

// bytes appends a large plain body without copying it through a string.
func (b *docBuilder) bytes(p []byte) {
	if b.n > 0 {
		b.buf.WriteByte('\n')
	}
	b.buf.Write(p)
	b.n += bytes.Count(p, []byte{'\n'}) + 1
}

func (b *docBuilder) doc() *doc {
	if b.n == 0 {
		return newDoc(nil)
	}
	d := newDoc(b.buf.Bytes())
	d.roles = b.roles
	return d
}

// A textView scrolls a doc, soft-wrapped to its width. Wrapping is computed
// once per (doc, width); drawing touches only the visible rows.
type textView struct {
	// red redacts every doc the view is given before it is wrapped, so a
	// secret is never drawn, whole or cut across rows. Nil redacts the
	// shapes of tokens only: give a view the run's redactor.
	red *frames.Redactor
	// redacted reports that the doc shown had secrets taken out of it.
	redacted bool

	doc    *doc
	width  int
	height int
	rows   []int // start offset of every visual row
	top    int
}

func (v *textView) setDoc(d *doc) {
	v.doc = v.redact(d)
	v.top = 0
	v.rewrap()
}

// keepDoc replaces the doc but keeps the scroll position (a re-render of the
// same content, e.g. after the styles changed).
func (v *textView) keepDoc(d *doc) {
	top := v.top
	v.doc = v.redact(d)
	v.rewrap()
	v.top = top
	v.clamp()
}

func (v *textView) redact(d *doc) *doc {
	r := redactDoc(v.red, d)
	v.redacted = r != d
	return r
}

// redactDoc returns d with the secrets in it replaced by placeholders: d
// itself when it holds none. Its roles stay on their lines unless a secret
// spanned lines. The result is kept in d, so a doc drawn again (a call
// shown again, a large result redacted off the UI goroutine) costs nothing.
func redactDoc(red *frames.Redactor, d *doc) *doc {
	if d == nil || len(d.data) == 0 {
		return d
	}
	if d.shown != nil {
		return d.shown
	}
	d.shown = d
	data := red.Bytes(d.data)
	if len(data) == len(d.data) && &data[0] == &d.data[0] {
		return d
	}
	r := newDoc(data)
	r.shown = r
	r.gutter = d.gutter
	if len(r.lines) == len(d.lines) {
		r.roles, r.marks = d.roles, d.marks
		// A span is kept on a line the redaction left as it was: its
		// offsets hold there only.
		for i, sp := range d.spans {
			if string(r.data[r.lines[i]:r.lineEnd(i)]) == string(d.data[d.lines[i]:d.lineEnd(i)]) {
				if r.spans == nil {
					r.spans = map[int][]span{}
				}
				r.spans[i] = sp
			}
		}
	}
	d.shown = r
	return r
}

func (v *textView) setSize(w, h int) {
	if w == v.width && h == v.height {
		return
	}
	wrap := max(w, 1) != v.width
	v.width, v.height = max(w, 1), max(h, 0)
	if wrap {
		// Keep the first visible byte on screen across a re-wrap.
		off := 0
		if v.top < len(v.rows) {
			off = v.rows[v.top]
		}
		v.rewrap()
		v.top = max(sort.SearchInts(v.rows, off+1)-1, 0)
	}
	v.clamp()
}

func (v *textView) rewrap() {
	v.rows = v.rows[:0]
	if v.doc == nil {
		return
	}
	d, w := v.doc, v.textWidth()
	if v.width <= 0 {
		// Not sized yet: setSize wraps.
		v.rows = append(v.rows, d.lines...)
		return
	}
	for i, start := range d.lines {
		end := d.lineEnd(i)
		v.rows = append(v.rows, start)
		if end-start <= w {
			// Every byte draws at most one cell (control bytes become one
			// picture, multi-byte runes take at most two cells for three or
			// more bytes), so a short line needs no measuring.
			continue
		}
		v.rows = wrapLine(v.rows, d.data, start, end, w)
	}
}

// wrapLine appends the starts of the rows after the first that the line
// data[start:end] wraps into at w cells. A row breaks after the last space
// that fits, so a word is never cut when it fits a row of its own; a word
// wider than the row is cut where the row is full. A space that would
// overflow a row ends it (view does not draw it). Every step moves off
// forward, and a rune wider than the whole row gets a row of its own, so
// nothing can stall it.
func wrapLine(rows []int, data []byte, start, end, w int) []int {
	row, col := start, 0
	// brk is where the row can break (after a space), brkCol the column
	// there, brkInk whether the row drew something else before it: a break
	// after indentation alone is taken only if the word after it fits.
	brk, brkCol, brkInk := -1, 0, false
	ink := false
	for off := start; off < end; {
		r, size, cw := cellAt(data, off, end)
		if col > 0 && col+cw > w {
			switch {
			case r == ' ':
				// The row is full and ends with a word: the next starts after
				// this space.
				off += size
				if off < end {
					rows = append(rows, off)
				}
				row, col, brk, ink = off, 0, -1, false
				continue
			case brk > row && col-brkCol+cw <= w && (brkInk || wordWidth(data, brk, end, w) <= w):
				row, col = brk, col-brkCol
			default:
				row, col = off, 0
			}
			rows = append(rows, row)
			brk, ink = -1, col > 0
		}
		col += cw
		off += size
		if r != ' ' {
			ink = true
		} else {
			brk, brkCol, brkInk = off, col, ink
		}
	}
	return rows
}

// cellAt decodes the rune at data[off:end]: its size in bytes and the cells
// it is drawn in (sanitize draws every control and invalid byte in one).
func cellAt(data []byte, off, end int) (r rune, size, cells int) {
	r, size, cells = rune(data[off]), 1, 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRune(data[off:end])
		cells = runewidth.RuneWidth(r)
		if r == utf8.RuneError || cells == 0 {
			cells = 1
		}
	}
	return r, size, cells
}

// wordWidth is the width in cells of the word starting at data[from:end],
// up to the next space; it stops counting past limit.
func wordWidth(data []byte, from, end, limit int) int {
	n := 0
	for off := from; off < end && n <= limit; {
		r, size, cw := cellAt(data, off, end)
		if r == ' ' {
			break
		}
		n += cw
		off += size
	}
	return n
}

// textWidth is the cells a row of text has: the width, less the doc's
// gutter.
func (v *textView) textWidth() int {
	if v.doc == nil {
		return v.width
	}
	return max(v.width-v.doc.gutter, 1)
}

func (v *textView) clamp() {
	v.top = min(v.top, v.maxTop())
	v.top = max(v.top, 0)
}

func (v *textView) maxTop() int { return max(len(v.rows)-v.height, 0) }

func (v *textView) scroll(n int) { v.top += n; v.clamp() }
func (v *textView) home()        { v.top = 0 }
func (v *textView) end()         { v.top = v.maxTop() }

// position describes the scroll state: "rows 1–30 of 4,210 (0%)": the
// share of the rows read down to the last one shown, as less -M says it
// ("rows 1–15 of 16 (0%)" read as nothing seen).
func (v *textView) position() string {
	n := len(v.rows)
	if n == 0 {
		return "empty"
	}
	last := min(v.top+v.height, n)
	return fmt.Sprintf("rows %d–%d of %s (%d%%)", v.top+1, last, thousands(n), last*100/n)
}

// view draws the visible rows, each sanitized (a server's stray escape
// sequences are shown as control pictures, never interpreted) and styled by
// the role of its logical line.
func (v *textView) view(st *styles) string {
	if v.doc == nil || v.height == 0 {
		return ""
	}
	var out strings.Builder
	d := v.doc
	for r := v.top; r < v.top+v.height && r < len(v.rows); r++ {
		if r > v.top {
			out.WriteByte('\n')
		}
		start := v.rows[r]
		line := sort.SearchInts(d.lines, start+1) - 1
		end := d.lineEnd(line)
		wraps := end-start > v.textWidth()
		if r+1 < len(v.rows) && v.rows[r+1] <= end {
			end, wraps = v.rows[r+1], true
		}
		for wraps && end > start && d.data[end-1] == ' ' {
			// A row that wraps ends at the space it broke after: not
			// drawn, so a row is never wider than the view.
			end--
		}
		if d.gutter > 0 {
			out.WriteString(v.gutterOf(st, line))
		}
		lineRole, _ := d.roles[line]
		if sp := d.spans[line]; len(sp) > 0 {
			out.WriteString(styledSpans(st, d.data, d.lines[line], start, end, lineRole, sp))
			continue
		}
		out.WriteString(styled(st, lineRole, sanitize(d.data[start:end])))
	}
	return out.String()
}

// gutterOf is the gutter of a row of line: its mark, or blank.
func (v *textView) gutterOf(st *styles, line int) string {
	g := v.doc.gutter
	m, ok := v.doc.marks[line]
	if !ok {
		return strings.Repeat(" ", g)
	}
	text := m.text + strings.Repeat(" ", max(g-runewidth.StringWidth(m.text), 0))
	return styled(st, m.r, text)
}

// styledSpans draws data[start:end], a row of the line at lineStart: the
// parts in a span in the span's role, the rest in the line's.
func styledSpans(st *styles, data []byte, lineStart, start, end int, lineRole role, spans []span) string {
	var out strings.Builder
	at := start
	for _, sp := range spans {
		from, to := max(lineStart+sp.from, at), min(lineStart+sp.to, end)
		if from >= to {
			continue
		}
		out.WriteString(styled(st, lineRole, sanitize(data[at:from])))
		out.WriteString(styled(st, sp.r, sanitize(data[from:to])))
		at = to
	}
	out.WriteString(styled(st, lineRole, sanitize(data[at:end])))
	return out.String()
}

// styled renders text in role r (plain text as it is).
func styled(st *styles, r role, text string) string {
	if text == "" {
		return ""
	}
	if s, ok := st.role(r); ok {
		return s.Render(text)
	}
	return text
}

// redactSlack is how far past what a row shows redactedHead reads, so a
// secret that starts in the part shown is recognised whole.
const redactSlack = 16 << 10

// redactedHead is the first n bytes of p, redacted: a row shows the start
// of a line that may be megabytes long.
func redactedHead(red *frames.Redactor, p []byte, n int) []byte {
	p = red.Bytes(p[:min(len(p), n+redactSlack)])
	return p[:min(len(p), n)]
}

// sanitize makes bytes safe to draw: control characters become their
// Unicode control pictures and invalid UTF-8 becomes U+FFFD, one cell each.
func sanitize(p []byte) string {
	clean := true
	for _, c := range p {
		if c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return string(p)
	}
	var b strings.Builder
	b.Grow(len(p))
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case runewidth.RuneWidth(r) == 0 && r >= 0x80 && r < 0xa0:
			b.WriteRune(utf8.RuneError) // C1 controls
		default:
			b.WriteRune(r)
		}
		p = p[size:]
	}
	return b.String()
}

// thousands formats n with thousands separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
