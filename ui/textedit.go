package ui

import (
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mattn/go-runewidth"
)

// textEdit is the text field of the argument editor, the dialogs and the
// filters: a multi-line (or single-line) editor that keeps exactly the
// characters typed or pasted, soft-wraps long lines and numbers them.
//
// It is not bubbles/textarea because textarea passes every insert through
// a sanitizer a caller cannot turn off: DEL, C1 controls and U+FFFD are
// dropped and tabs become spaces. JSON allows all of those in a string, and
// the arguments a bug report shows are sent exactly as typed, wrong or odd
// ones included. TestTextEditKeepsWhatTextareaDrops holds both editors to
// that, and says when textarea stops dropping them. (The clipboard module
// textarea needs, once the reason this editor was first written, is served
// now; that reason is gone.)
type textEdit struct {
	st          *styles
	keys        editKeys
	lines       [][]rune
	row, col    int
	single      bool
	prompt      string
	placeholder string
	numbers     bool
	focused     bool
	width       int
	height      int
	top         int // first visual row shown
}

func newTextEdit(st *styles, single bool) *textEdit {
	return &textEdit{st: st, keys: newEditKeys(), lines: [][]rune{nil}, single: single, height: 1}
}

func (t *textEdit) value() string {
	var b strings.Builder
	for i, l := range t.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

// setValue replaces the text and puts the cursor at its start.
func (t *textEdit) setValue(s string) {
	t.lines = t.lines[:0]
	for _, l := range strings.Split(s, "\n") {
		t.lines = append(t.lines, []rune(l))
	}
	if t.single && len(t.lines) > 1 {
		t.lines = [][]rune{[]rune(strings.ReplaceAll(s, "\n", " "))}
	}
	t.row, t.col, t.top = 0, 0, 0
}

func (t *textEdit) focus()           { t.focused = true }
func (t *textEdit) blur()            { t.focused = false }
func (t *textEdit) cursorEnd()       { t.row = len(t.lines) - 1; t.col = len(t.lines[t.row]); t.follow() }
func (t *textEdit) setSize(w, h int) { t.width, t.height = max(w, 1), max(h, 1); t.follow() }
func (t *textEdit) gutter() int      { return map[bool]int{true: 4, false: 0}[t.numbers] }
func (t *textEdit) textWidth() int   { return max(t.width-t.gutter()-runewidth.StringWidth(t.prompt), 1) }
func (t *textEdit) line() []rune     { return t.lines[t.row] }
func (t *textEdit) setLine(l []rune) { t.lines[t.row] = l }

// insert types s at the cursor. Pasted CRLF and CR become LF; a
// single-line field turns newlines into spaces.
func (t *textEdit) insert(s string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	if t.single {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	parts := strings.Split(s, "\n")
	l := t.line()
	tail := append([]rune(nil), l[t.col:]...)
	head := append(append([]rune(nil), l[:t.col]...), []rune(parts[0])...)
	if len(parts) == 1 {
		t.setLine(append(head, tail...))
		t.col = len(head)
		return
	}
	newLines := [][]rune{head}
	for _, p := range parts[1 : len(parts)-1] {
		newLines = append(newLines, []rune(p))
	}
	last := []rune(parts[len(parts)-1])
	newLines = append(newLines, append(append([]rune(nil), last...), tail...))
	rest := append([][]rune(nil), t.lines[t.row+1:]...)
	t.lines = append(append(t.lines[:t.row], newLines...), rest...)
	t.row += len(parts) - 1
	t.col = len(last)
}

// update applies a key or a paste; it reports whether the text changed.
func (t *textEdit) update(msg tea.Msg) bool {
	if p, ok := msg.(tea.PasteMsg); ok {
		t.insert(p.Content)
		t.follow()
		return true
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	before := t.value()
	switch {
	case t.delete(k), t.move(k):
	case key.Matches(k, t.keys.Newline) && !t.single:
		t.insert("\n")
	case k.Text != "" && k.Mod&^tea.ModShift == 0:
		t.insert(k.Text)
	default:
		return false
	}
	t.follow()
	return t.value() != before
}

// delete applies the deleting keys; it reports whether k was one.
func (t *textEdit) delete(k tea.KeyPressMsg) bool {
	l := t.line()
	switch {
	case key.Matches(k, t.keys.Backspace):
		t.backspace()
	case key.Matches(k, t.keys.Delete):
		switch {
		case t.col < len(l):
			t.setLine(append(l[:t.col:t.col], l[t.col+1:]...))
		case t.row < len(t.lines)-1:
			t.setLine(append(append([]rune(nil), l...), t.lines[t.row+1]...))
			t.lines = append(t.lines[:t.row+1], t.lines[t.row+2:]...)
		}
	case key.Matches(k, t.keys.DeleteWord):
		c := t.wordStart()
		t.setLine(append(l[:c:c], l[t.col:]...))
		t.col = c
	case key.Matches(k, t.keys.KillEnd):
		t.setLine(l[:t.col:t.col])
	case key.Matches(k, t.keys.KillStart):
		t.setLine(append([]rune(nil), l[t.col:]...))
		t.col = 0
	default:
		return false
	}
	return true
}

func (t *textEdit) backspace() {
	l := t.line()
	switch {
	case t.col > 0:
		t.setLine(append(l[:t.col-1:t.col-1], l[t.col:]...))
		t.col--
	case t.row > 0:
		prev := t.lines[t.row-1]
		t.col = len(prev)
		t.lines[t.row-1] = append(append([]rune(nil), prev...), l...)
		t.lines = append(t.lines[:t.row], t.lines[t.row+1:]...)
		t.row--
	}
}

// move applies the cursor keys; it reports whether k was one.
func (t *textEdit) move(k tea.KeyPressMsg) bool {
	switch {
	case key.Matches(k, t.keys.Left):
		t.left()
	case key.Matches(k, t.keys.Right):
		t.right()
	case key.Matches(k, t.keys.Up):
		t.toRow(t.row - 1)
	case key.Matches(k, t.keys.Down):
		t.toRow(t.row + 1)
	case key.Matches(k, t.keys.PageUp):
		t.toRow(t.row - t.height)
	case key.Matches(k, t.keys.PageDown):
		t.toRow(t.row + t.height)
	case key.Matches(k, t.keys.Home):
		t.col = 0
	case key.Matches(k, t.keys.End):
		t.col = len(t.line())
	case key.Matches(k, t.keys.Start):
		t.row, t.col = 0, 0
	case key.Matches(k, t.keys.Finish):
		t.cursorEnd()
	case key.Matches(k, t.keys.WordLeft):
		t.col = t.wordStart()
	case key.Matches(k, t.keys.WordRight):
		t.col = t.wordEnd()
	default:
		return false
	}
	return true
}

func (t *textEdit) left() {
	if t.col > 0 {
		t.col--
	} else if t.row > 0 {
		t.row--
		t.col = len(t.line())
	}
}

func (t *textEdit) right() {
	if t.col < len(t.line()) {
		t.col++
	} else if t.row < len(t.lines)-1 {
		t.row++
		t.col = 0
	}
}

// toRow moves the cursor to row r (kept within the text), keeping its
// column where the row is long enough.
func (t *textEdit) toRow(r int) {
	t.row = max(min(r, len(t.lines)-1), 0)
	t.col = min(t.col, len(t.line()))
}

func (t *textEdit) wordEnd() int {
	l, c := t.line(), t.col
	for c < len(l) && !isWord(l[c]) {
		c++
	}
	for c < len(l) && isWord(l[c]) {
		c++
	}
	return c
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func (t *textEdit) wordStart() int {
	l, c := t.line(), t.col
	for c > 0 && !isWord(l[c-1]) {
		c--
	}
	for c > 0 && isWord(l[c-1]) {
		c--
	}
	return c
}

func cellWidth(r rune) int {
	if r < 0x20 || r == 0x7f {
		return 1
	}
	return max(runewidth.RuneWidth(r), 1)
}

// segments splits a line into the rune offsets where its visual rows start.
func (t *textEdit) segments(l []rune) []int {
	w := t.textWidth()
	segs := []int{0}
	col := 0
	for i, r := range l {
		cw := cellWidth(r)
		if col+cw > w {
			segs = append(segs, i)
			col = 0
		}
		col += cw
	}
	// A cursor after a full last row wraps to a fresh row.
	if col >= w {
		segs = append(segs, len(l))
	}
	return segs
}

// cursorRow is the cursor's visual row from the top of the text.
func (t *textEdit) cursorRow() int {
	n := 0
	for i := 0; i < t.row; i++ {
		n += len(t.segments(t.lines[i]))
	}
	segs := t.segments(t.line())
	for s := len(segs) - 1; s >= 0; s-- {
		if t.col >= segs[s] {
			return n + s
		}
	}
	return n
}

// follow scrolls so the cursor is visible.
func (t *textEdit) follow() {
	if t.single {
		return
	}
	r := t.cursorRow()
	if r < t.top {
		t.top = r
	}
	if r >= t.top+t.height {
		t.top = r - t.height + 1
	}
}

func (t *textEdit) view() string {
	if t.single {
		return t.viewSingle()
	}
	if t.value() == "" && !t.focused && t.placeholder != "" {
		return t.st.muted.Render(t.placeholder)
	}
	var out []string
	vr := 0
	for i, l := range t.lines {
		segs := t.segments(l)
		for s, start := range segs {
			if vr >= t.top+t.height {
				break
			}
			if vr >= t.top {
				end := len(l)
				if s+1 < len(segs) {
					end = segs[s+1]
				}
				g := ""
				if t.numbers {
					if s == 0 {
						g = t.st.muted.Render(fmt.Sprintf("%3d ", i+1))
					} else {
						g = "    "
					}
				}
				cur := -1
				if t.focused && i == t.row && t.col >= start && (t.col < end || t.col == end && (s == len(segs)-1)) {
					cur = t.col - start
				}
				out = append(out, g+t.drawRunes(l[start:end], cur))
			}
			vr++
		}
	}
	return strings.Join(out, "\n")
}

func (t *textEdit) viewSingle() string {
	l := t.lines[0]
	if len(l) == 0 && !t.focused {
		return t.prompt + t.st.muted.Render(t.placeholder)
	}
	w := t.textWidth() - 1
	start := max(t.col-w, 0)
	cur := -1
	if t.focused {
		cur = t.col - start
	}
	return t.prompt + t.drawRunes(l[start:min(len(l), start+w+1)], cur)
}

// drawRunes draws text with the cursor (reverse video) at index cur, or
// none when cur < 0. Control characters are shown as control pictures.
func (t *textEdit) drawRunes(rs []rune, cur int) string {
	var b strings.Builder
	for i, r := range rs {
		s := string(r)
		if r == '\t' {
			s = " "
		} else if r < 0x20 {
			s = string(0x2400 + r)
		} else if r == 0x7f {
			s = "\u2421"
		}
		if i == cur {
			s = t.st.selected.Render(s)
		}
		b.WriteString(s)
	}
	if cur >= len(rs) {
		b.WriteString(t.st.selected.Render(" "))
	}
	return b.String()
}
