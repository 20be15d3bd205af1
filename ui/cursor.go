package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// moveCursor moves a list selection sel over n items with the list keys
// (up, down, a page of page rows, first, last). It reports whether k was one
// of them, so a pane can go on to its own keys when it was not.
func moveCursor(keys scrollKeys, k tea.KeyPressMsg, sel, n, page int) (int, bool) {
	last := max(n-1, 0)
	switch {
	case key.Matches(k, keys.Up):
		return max(sel-1, 0), true
	case key.Matches(k, keys.Down):
		return min(sel+1, last), true
	case key.Matches(k, keys.PageUp):
		return max(sel-page, 0), true
	case key.Matches(k, keys.PageDown):
		return min(sel+page, last), true
	case key.Matches(k, keys.Home):
		return 0, true
	case key.Matches(k, keys.End):
		return last, true
	}
	return sel, false
}

// A listWindow is the selection in a list and the rows of it on screen.
type listWindow struct{ sel, top, height int }

// move applies the list keys; it reports whether k was one of them.
func (w *listWindow) move(keys scrollKeys, k tea.KeyPressMsg, n int) bool {
	sel, ok := moveCursor(keys, k, w.sel, n, w.height)
	if ok {
		w.sel = sel
		w.keepVisible(n)
	}
	return ok
}

// keepVisible scrolls so that the selection (kept within the n items) is
// on screen.
func (w *listWindow) keepVisible(n int) {
	w.sel = max(min(w.sel, n-1), 0)
	if w.sel < w.top {
		w.top = w.sel
	}
	if w.height > 0 && w.sel >= w.top+w.height {
		w.top = w.sel - w.height + 1
	}
	w.top = max(min(w.top, n-w.height), 0)
}
