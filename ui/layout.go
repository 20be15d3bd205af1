package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Where everything goes: the header, the panes (side by side in slots, or
// one at a time under a tab bar), the footer; and how each is drawn. Every
// height and inset is measured from what is drawn or from the styles that
// draw it (lipgloss.Height, GetFrameSize), never written in as a number.

type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// paneBorder is the border of a pane and of an overlay's box.
var paneBorder = lipgloss.NewStyle().Border(lipgloss.RoundedBorder())

// overlayInset is the space between an overlay's border and its text.
var overlayInset = lipgloss.NewStyle().Padding(0, 1)

// inside is the content area of a bordered rectangle.
func (r rect) inside() rect {
	fw, fh := paneBorder.GetFrameSize()
	return rect{r.x + fw/2, r.y + fh/2, max(r.w-fw, 0), max(r.h-fh, 0)}
}

// A layout places the header, the panes and the footer. In tabs mode every
// pane gets the whole body (no borders) under a tab bar.
type layout struct {
	width, height int
	tabs          bool
	body          rect            // between the header and the footer
	slots         [slotCount]rect // outer rectangles, when side by side
	tabBody       rect            // what a pane gets in tabs mode
}

// Below these sizes the panes collapse into tabs.
const (
	minColumnsWidth  = 120
	minColumnsHeight = 28
)

// arrange computes the layout for a terminal of w×h, with the chrome's
// heights measured by the caller. It is pure, so it can be tested alone.
// framesOnly is a recording shown read-only: the frames alone, no tabs.
func arrange(w, h, headerH, tabBarH, footerH int, framesOnly bool) layout {
	l := layout{width: w, height: h, body: rect{0, headerH, w, max(h-headerH-footerH, 0)}}
	b := l.body
	switch {
	case framesOnly:
		l.tabs = true
		l.tabBody = b
	case w < minColumnsWidth || h < minColumnsHeight:
		l.tabs = true
		l.tabBody = rect{0, b.y + tabBarH, w, max(b.h-tabBarH, 0)}
	default:
		leftW, rightW := w*25/100, w*40/100
		midW, topH := w-leftW-rightW, b.h*45/100
		l.slots[slotLeft] = rect{0, b.y, leftW, b.h}
		l.slots[slotTop] = rect{leftW, b.y, midW, topH}
		l.slots[slotBottom] = rect{leftW, b.y + topH, midW, b.h - topH}
		l.slots[slotRight] = rect{leftW + midW, b.y, rightW, b.h}
	}
	return l
}

// contentRect is the rectangle pane id draws into.
func (m *Model) contentRect(id paneID) rect {
	if m.lay.tabs {
		return m.lay.tabBody
	}
	return m.lay.slots[paneTable[id].slot].inside()
}

// overlayRect is the box an overlay is drawn in: the whole body.
func (m *Model) overlayRect() rect { return m.lay.body }

// overlayContent is what an overlay's text gets inside its box.
func (m *Model) overlayContent() rect {
	r := m.overlayRect().inside()
	iw, ih := overlayInset.GetFrameSize()
	return rect{r.x + iw/2, r.y + ih/2, max(r.w-iw, 1), max(r.h-ih, 1)}
}

// failureRect is where a failed connection is explained: the slots but the
// frames' (or the whole body, in tabs).
func (m *Model) failureRect() rect {
	if m.lay.tabs {
		return m.lay.tabBody
	}
	a, b := m.lay.slots[slotLeft], m.lay.slots[slotTop]
	return rect{a.x, a.y, b.x + b.w - a.x, a.h}.inside()
}

func (m *Model) resize(w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	m.hdr.setSize(w)
	m.lay = layout{width: w, height: h}
	m.lay = arrange(w, h, lipgloss.Height(m.hdr.view()), lipgloss.Height(m.tabBar()), lipgloss.Height(m.footer()), m.framesOnly())
	m.frames().setSplit(m.framesOnly() && w >= 100)
	for id, p := range m.panes {
		r := m.contentRect(paneID(id))
		p.setSize(r.w, r.h)
	}
	c := m.conn()
	fr := m.failureRect()
	c.failure.setSize(fr.w, fr.h)
	if c.err != nil {
		c.failure.keepDoc(failureDoc(c.opts.Target, c.err, fr.w))
	}
	if m.overlay != nil {
		r := m.overlayContent()
		m.overlay.setSize(r.w, r.h)
	}
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "jig"
	if n := m.hdr.info.ServerName; n != "" {
		v.WindowTitle = "jig · " + sanitize([]byte(m.env.redact.String(n)))
	}
	return v
}

func (m *Model) render() string {
	l := m.lay
	if l.width == 0 || l.height == 0 {
		return ""
	}
	lines := make([]string, 0, l.height)
	lines = append(lines, fit(m.hdr.view(), l.width, l.body.y)...)
	switch {
	case m.overlay != nil:
		lines = append(lines, m.overlayBox()...)
	case l.tabs:
		if !m.framesOnly() {
			lines = append(lines, m.tabBar())
		}
		r := l.tabBody
		if m.conn().failed() && m.focus != paneFrames {
			lines = append(lines, fit(m.conn().failure.view(m.st()), r.w, r.h)...)
		} else {
			lines = append(lines, fit(m.paneView(m.focus), r.w, r.h)...)
		}
	default:
		lines = append(lines, m.columns()...)
	}
	lines = append(lines, m.footer())
	return strings.Join(lines, "\n")
}

// overlayBox is the open overlay in a box over the whole body.
func (m *Model) overlayBox() []string {
	r, c := m.overlayRect(), m.overlayContent()
	iw, _ := overlayInset.GetFrameSize()
	pad := strings.Repeat(" ", iw/2)
	body := fit(m.env.redact.String(m.overlay.view()), c.w, c.h)
	for i := range body {
		body[i] = pad + body[i]
	}
	return box(m.st(), m.overlay.title(), strings.Join(body, "\n"), r.w, r.h, true)
}

// columns draws the slots side by side: the lists | what is written over
// what came back | the frames.
func (m *Model) columns() []string {
	l := m.lay
	grid := make([]string, l.body.h)
	var left, mid []string
	if m.conn().failed() {
		a, b := l.slots[slotLeft], l.slots[slotTop]
		left = box(m.st(), "Connection", m.conn().failure.view(m.st()), b.x+b.w-a.x, l.body.h, m.focus != paneFrames)
	} else {
		left = m.slotBox(slotLeft)
		mid = append(m.slotBox(slotTop), m.slotBox(slotBottom)...)
	}
	right := m.slotBox(slotRight)
	for i := range grid {
		row := left[i]
		if mid != nil {
			row += mid[i]
		}
		grid[i] = row + right[i]
	}
	return grid
}

// slotBox draws the pane a slot shows in its border, the panes that share
// the slot named in its bottom edge.
func (m *Model) slotBox(s slot) []string {
	id, r := m.shown[s], m.lay.slots[s]
	return boxFooted(m.st(), m.paneTitle(id), m.slotSiblings(s), m.paneView(id), r.w, r.h, m.focus == id)
}

// slotSiblings names the panes that share slot s with the one it shows, by
// key and name, as tabs in the box's bottom edge: with their counts when
// they fit, then by name, then by a short name, then by key alone.
func (m *Model) slotSiblings(s slot) string {
	var forms [4][]string
	for other, spec := range paneTable {
		id := paneID(other)
		if spec.slot != s || id == m.shown[s] {
			continue
		}
		n := fmt.Sprint(id + 1)
		forms[0] = append(forms[0], n+" "+m.panes[id].title())
		forms[1] = append(forms[1], n+" "+spec.name)
		forms[2] = append(forms[2], n+" "+shortName(spec.name))
		forms[3] = append(forms[3], n)
	}
	if len(forms[0]) == 0 {
		return ""
	}
	for _, f := range forms {
		if t := strings.Join(f, " · "); boxFootFits(t, m.lay.slots[s].w) {
			return t
		}
	}
	return strings.Join(forms[3], " · ")
}

// shortName is a pane's name cut to its first three letters ("Res" for
// Resources), for a bottom edge too narrow for the whole names.
func shortName(name string) string {
	if r := []rune(name); len(r) > 3 {
		return string(r[:3])
	}
	return name
}

// paneView is what pane id draws, redacted once more as a whole: the panes
// redact what they read before they wrap or cut it, and this catches what
// any of them drew whole without. The editor is left as typed: it is the
// user's own text on the user's own terminal, and a placeholder in place of
// what they are typing would make it uneditable.
func (m *Model) paneView(id paneID) string {
	if id == paneEditor {
		return m.panes[id].view()
	}
	return m.env.redact.String(m.panes[id].view())
}

// tabBar names every pane. When the titles do not fit, the tabs not shown
// lose their counts, then their names: the numbers still say which key.
func (m *Model) tabBar() string {
	w := m.lay.width
	var bar string
	for short := 0; short < 3; short++ {
		var parts []string
		for i, spec := range paneTable {
			id := paneID(i)
			st, t := m.st().tabInactive, m.paneTitle(id)
			switch {
			case id == m.focus:
				st = m.st().tabActive
			case short == 1:
				t = fmt.Sprintf("%d %s", id+1, spec.name)
			case short == 2:
				t = fmt.Sprint(id + 1)
			}
			parts = append(parts, st.Render(t))
		}
		if bar = strings.Join(parts, ""); ansi.StringWidth(bar) <= w {
			break
		}
	}
	return fitTo(bar, w)
}

// fit pads or cuts s to exactly w×h cells.
func fit(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		switch {
		case lw > w:
			lines[i] = ansi.Truncate(l, w, "")
		case lw < w:
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return lines
}

// fitTo pads or cuts s to exactly w cells.
func fitTo(s string, w int) string { return fit(ansi.Truncate(s, w, "…"), w, 1)[0] }

// chromeRows is how many rows the given lines of a pane's chrome take.
func chromeRows(parts ...string) int {
	n := 0
	for _, p := range parts {
		n += lipgloss.Height(p)
	}
	return n
}

// boxTitle is how a title sits in a box's top edge: "▸ " marks the focus.
func boxTitle(title string, focused bool) string {
	t := " " + title + " "
	if focused {
		t = "▸" + t
	}
	return t
}

// boxTitleWidth is the room for a title in a box of width w: the edge but
// its corners and a rule on each side of the title.
func boxTitleWidth(w int) int { return max(w-paneBorder.GetHorizontalFrameSize()-2, 0) }

// boxFootFits reports whether a bottom-edge label fits a box of width w
// whole, with a cell of the edge to spare after it.
func boxFootFits(foot string, w int) bool {
	return ansi.StringWidth(" "+foot+" ") < boxTitleWidth(w)
}

// box draws content in the pane border with the title set into its top edge.
func box(st *styles, title, content string, w, h int, focused bool) []string {
	return boxFooted(st, title, "", content, w, h, focused)
}

// boxFooted is box with foot (when not empty) set into its bottom edge, in
// the muted style: what else can be shown there.
func boxFooted(st *styles, title, foot, content string, w, h int, focused bool) []string {
	fw, fh := paneBorder.GetFrameSize()
	if w < fw || h < fh {
		return fit("", w, h)
	}
	b := lipgloss.RoundedBorder()
	edge := st.muted
	if focused {
		edge = st.title
	}
	t := ansi.Truncate(boxTitle(title, focused), boxTitleWidth(w), "…")
	top := edge.Render(b.TopLeft+b.Top) + st.borderTitle.Render(t) +
		edge.Render(strings.Repeat(b.Top, max(w-fw-1-ansi.StringWidth(t), 0))+b.TopRight)
	out := make([]string, 0, h)
	out = append(out, top)
	left, right := edge.Render(b.Left), edge.Render(b.Right)
	for _, l := range fit(content, w-fw, h-fh) {
		out = append(out, left+l+right)
	}
	bottom := edge.Render(b.BottomLeft + strings.Repeat(b.Bottom, w-fw) + b.BottomRight)
	if foot != "" {
		f := ansi.Truncate(" "+foot+" ", boxTitleWidth(w), "…")
		bottom = edge.Render(b.BottomLeft+b.Bottom) + st.muted.Render(f) +
			edge.Render(strings.Repeat(b.Bottom, max(w-fw-1-ansi.StringWidth(f), 0))+b.BottomRight)
	}
	return append(out, bottom)
}
