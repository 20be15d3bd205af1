package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
)

// A catalog is what the resources and prompts panes share: a list the
// server gave, read from the raw */list bytes, over the details of the
// selected item. It is kept in one place so that the two panes cannot
// drift apart in how they list, select, scroll and explain an empty or
// failed listing; each pane embeds one and adds only what is its own.
type catalog[T any] struct {
	kind catalogKind[T]
	st   *styles
	red  *frames.Redactor
	keys catalogKeys
	out  *outbox

	items  []T
	list   listWindow
	raw    bool
	detail textView
	shown  string // what the details were built for

	listed     bool // */list was sent at least once
	loading    bool
	err        error
	note       string
	undeclared bool // the server's capabilities do not name this kind
	focused    bool

	// marked, when set, picks the items marked ◉ in the list, and
	// markNote says what the mark means ("subscribed") in the list's
	// count line.
	marked        func(*T) bool
	markNote      string
	width, height int
}

// A catalogKind is what tells resources from prompts in a catalog: the
// noun the wire and the user call them by, how one is read and recognized,
// and what the details say.
type catalogKind[T any] struct {
	// noun is what one is called ("resource"): the list method is
	// noun+"s/list" and the capability noun+"s", unless method and
	// capability name them (resource templates).
	noun, method, capability string

	// undecodable stands in for an item that does not decode: it is still
	// listed, with its raw JSON, so the server's mistake can be seen.
	undecodable T
	// raw points at where an item keeps the bytes it was read from.
	raw func(*T) *json.RawMessage
	// id is what keeps the selection on the same item across re-listings,
	// which can add, drop and reorder items.
	id func(*T) string

	row         func(*T) catalogRow
	writeDetail func(b *docBuilder, item *T, width int)

	retryHint string   // under a failed listing
	emptyHint []string // under an empty one
}

func (c *catalog[T]) plural() string { return c.kind.noun + "s" }

// titled is a pane's name with the number listed, once it is known.
func (c *catalog[T]) titled(name string) string {
	if c.listed && !c.loading && c.err == nil {
		return fmt.Sprintf("%s (%d)", name, len(c.items))
	}
	return name
}

// method is the list method on the wire.
func (c *catalog[T]) method() string {
	if c.kind.method != "" {
		return c.kind.method
	}
	return c.plural() + "/list"
}

// capability is the server capability the listing belongs to.
func (c *catalog[T]) capability() string {
	if c.kind.capability != "" {
		return c.kind.capability
	}
	return c.plural()
}

// setItems replaces the listing.
func (c *catalog[T]) setItems(raw []json.RawMessage) {
	sel := ""
	if it := c.selected(); it != nil {
		sel = c.kind.id(it)
	}
	c.items = c.items[:0]
	for _, r := range raw {
		var it T
		if json.Unmarshal(r, &it) != nil {
			it = c.kind.undecodable
		}
		*c.kind.raw(&it) = r
		c.items = append(c.items, it)
		if c.kind.id(&it) == sel {
			c.list.sel = len(c.items) - 1
		}
	}
	c.loading, c.err = false, nil
	c.note = fmt.Sprintf("%d %s%s", len(c.items), c.kind.noun, frames.Plural(len(c.items)))
	c.setSize(c.width, c.height)
	c.syncDetail(true)
}

func (c *catalog[T]) setError(err error) {
	c.loading, c.err = false, err
	c.syncDetail(true)
}

func (c *catalog[T]) selected() *T {
	if c.list.sel < 0 || c.list.sel >= len(c.items) {
		return nil
	}
	return &c.items[c.list.sel]
}

func (c *catalog[T]) setFocus(f bool) { c.focused = f }

func (c *catalog[T]) setSize(w, h int) {
	c.width, c.height = w, h
	c.list.height = catalogListHeight(len(c.items), h)
	c.list.keepVisible(len(c.items))
	c.detail.setSize(w, max(h-c.list.height-chromeRows(c.status(), c.rule()), 0))
	c.syncDetail(false)
}

// reset forgets the listing of an earlier session: a new one has begun,
// whose server declares the capability (declared) or not.
func (c *catalog[T]) reset(declared bool) {
	c.undeclared, c.listed = !declared, false
	c.syncDetail(true)
}

// startListing shows that the */list is on its way.
func (c *catalog[T]) startListing() {
	c.listed, c.loading = true, true
	c.syncDetail(true)
}

func (c *catalog[T]) rule() string { return c.st.muted.Render(strings.Repeat("─", c.width)) }

// browse are the keys that only look: moving in the list, raw JSON,
// scrolling the details. What enter does is the pane's.
func (c *catalog[T]) browse() []action {
	k := c.keys
	none := "no " + c.kind.noun + " is listed"
	as := listActions(k.scrollKeys, &c.list, len(c.items), func() { c.syncDetail(false) })
	return append(as,
		on(k.Raw, does(func() { c.raw = !c.raw; c.syncDetail(true) })).only(c.selected() != nil, none),
		on(k.DetailUp, does(func() { c.detail.scroll(-3) })),
		on(k.DetailDown, does(func() { c.detail.scroll(3) })),
	)
}

// relist is R: the listing again, on the wire.
func (c *catalog[T]) relist(id paneID) action {
	return on(c.keys.Relist, func() tea.Cmd { return c.out.send(relistMsg{pane: id}) }).labelled("re-list " + c.plural())
}

// use is what enter does with the selected item.
func (c *catalog[T]) use(do func(it *T) tea.Cmd) action {
	it := c.selected()
	return on(c.keys.Use, func() tea.Cmd { return do(it) }).only(it != nil, "no "+c.kind.noun+" is listed")
}

func (c *catalog[T]) wheel(msg wheelMsg) {
	if !c.list.wheel(msg, len(c.items)) {
		c.detail.scroll(msg.dy)
		return
	}
	c.syncDetail(false)
}

func (c *catalog[T]) syncDetail(force bool) {
	it := c.selected()
	k := fmt.Sprintf("%v|%d|%v|%v|%v", c.raw, c.width, c.err, c.loading, c.undeclared)
	if it != nil {
		k += "|" + string(*c.kind.raw(it))
	}
	if k == c.shown && !force {
		return
	}
	c.shown = k
	var b docBuilder
	switch {
	case c.loading:
		b.linef(roleMuted, "listing %s (%s, every page)…", c.plural(), c.method())
	case c.err != nil:
		b.linef(roleError, "%s failed:", c.method())
		b.line(rolePlain, wrapText(c.err.Error(), "  ", c.width))
		b.line(roleMuted, c.kind.retryHint)
	case !c.listed:
		b.line(roleMuted, "Not listed yet.")
	case it == nil:
		b.linef(roleMuted, "The server listed no %s.", c.plural())
		for _, l := range c.kind.emptyHint {
			b.line(roleMuted, l)
		}
	case c.raw:
		b.line(roleHeading, "raw JSON as listed")
		pr, _ := frames.Indent(*c.kind.raw(it))
		b.bytes(pr)
	default:
		c.kind.writeDetail(&b, it, c.width)
	}
	if c.undeclared && !c.loading {
		b.line(rolePlain, "")
		b.linef(roleWarn, "! the server does not declare the %s capability", c.capability())
	}
	c.detail.setDoc(b.doc())
}

// status is the line over the list: how many were listed, or that they
// are being listed.
func (c *catalog[T]) status() string {
	if c.loading {
		return c.st.muted.Render("listing " + c.plural() + "…")
	}
	note := c.note
	if n := c.markedCount(); n > 0 && note != "" && c.err == nil {
		note += fmt.Sprintf(" · ◉ %d %s", n, c.markNote)
	}
	return c.st.muted.Render(ansi.Truncate(c.red.String(note), c.width, "…"))
}

// markedCount is how many items are marked.
func (c *catalog[T]) markedCount() int {
	n := 0
	for i := range c.items {
		if c.marked != nil && c.marked(&c.items[i]) {
			n++
		}
	}
	return n
}

func (c *catalog[T]) view() string { return c.viewUnder(c.status()) }

// viewUnder draws the list and the details under top, which a pane can
// take for itself (the resources pane's URI field).
func (c *catalog[T]) viewUnder(top string) string {
	var b strings.Builder
	b.WriteString(top)
	rows := make([]catalogRow, len(c.items))
	for i := range c.items {
		r := c.kind.row(&c.items[i])
		// Redacted before drawCatalog cuts them: a URI may carry a token.
		rows[i] = catalogRow{name: c.red.String(r.name), aside: c.red.String(r.aside), marked: c.marked != nil && c.marked(&c.items[i])}
	}
	b.WriteString(drawCatalog(c.st, rows, c.list, c.width, c.focused))
	if c.detail.height > 0 {
		b.WriteByte('\n')
		b.WriteString(c.detail.view(c.st))
	}
	return b.String()
}

// A catalogRow is one line of the resources or prompts list: a name, and
// a note set to the right when it fits; a marked row has ◉ before it.
type catalogRow struct {
	name, aside string
	marked      bool
}

// catalogListHeight gives a list of n items what it needs, up to two fifths
// of h; the details get the rest.
func catalogListHeight(n, h int) int { return max(min(n, h*2/5), min(3, h)) }

// drawCatalog draws the visible rows of a list and the rule under them,
// each row starting on a new line.
func drawCatalog(st *styles, rows []catalogRow, w listWindow, width int, focused bool) string {
	var b strings.Builder
	for r := 0; r < w.height; r++ {
		b.WriteByte('\n')
		i := w.top + r
		if i >= len(rows) {
			continue
		}
		// A name too long for the row loses its middle, where URIs of one
		// server say least: demo://resource/static/do… seven times over
		// told seven documents apart by nothing.
		gutter := "  "
		if rows[i].marked {
			gutter = "◉ "
		}
		row := gutter + distinctCut(len(rows), i, func(j int) string { return rows[j].name }, max(width-2, 1))
		if a := rows[i].aside; a != "" {
			if gap := width - ansi.StringWidth(row) - ansi.StringWidth(a); gap >= 2 {
				row += strings.Repeat(" ", gap) + a
			}
		}
		row = ansi.Truncate(row, width, "…")
		switch {
		case i == w.sel && focused:
			row = st.selected.Render(padRight(row, width))
		case i == w.sel:
			row = st.selectedBlur.Render(padRight(row, width))
		}
		b.WriteString(row)
	}
	b.WriteByte('\n')
	b.WriteString(st.muted.Render(strings.Repeat("─", width)))
	return b.String()
}

// distinctCut shortens name(i), one of count names in a list, to n cells
// keeping what tells it from the other names: its middle is cut where the names share their text
// (two templates demo://resou…/{resourceId} read alike, their text and
// blob in the middle cut away). The part no other name shares is kept
// whole, with as much of the start before it and all of the shared end
// after it that fit.
func distinctCut(count, i int, nameOf func(int) string, n int) string {
	full := nameOf(i)
	name := []rune(full)
	if len(name) <= n {
		return full
	}
	// The rows near it are enough to compare on a long list.
	lo, hi := 0, count
	if count > 500 {
		lo, hi = max(i-50, 0), min(i+51, count)
	}
	pre, suf := 0, 0
	for j := lo; j < hi; j++ {
		other := nameOf(j)
		if j == i || other == full {
			continue
		}
		p, s := sharedEnds(name, []rune(other))
		pre, suf = max(pre, p), max(suf, s)
	}
	start, end := pre, len(name)-suf
	if pre == 0 && suf == 0 || start >= end || end-start+2 > n {
		return frames.ShortenMiddle(full, n)
	}
	if plain := frames.ShortenMiddle(full, n); keeps(len(name), n, start, end) {
		return plain
	}
	// The shared end after the distinct part goes whole when it leaves
	// room for a start; then the start gets the rest.
	room := n - (end - start) - 1 // one … before the distinct part
	tail := suf
	if tail > room-4 {
		room-- // a second … after the part
		tail = min(max(room/2, 0), suf)
	}
	head := room - tail
	if head >= start {
		// The start is short: all of it, and the rest to the end.
		tail = n - end - 1
		return string(name[:end]) + "…" + string(name[len(name)-tail:])
	}
	out := string(name[:head]) + "…" + string(name[start:end])
	if tail < suf {
		return out + "…" + string(name[len(name)-tail:])
	}
	return out + string(name[end:])
}

// keeps reports whether frames.ShortenMiddle cutting a name of l runes to
// n keeps its runes [start, end).
func keeps(l, n, start, end int) bool {
	head := (n - 1) / 2
	tail := n - 1 - head
	return end <= head || start >= l-tail
}

// sharedEnds is how many runes a and b share at their start, and then at
// their end.
func sharedEnds(a, b []rune) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}
