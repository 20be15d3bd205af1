package ui

import (
	tea "charm.land/bubbletea/v2"
)

// A listWindow is the selection in a list and the rows of it on screen.
type listWindow struct{ sel, top, height int }

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

// listActions move a list's selection over n items with the scroll keys;
// moved runs after each move (to show the selected item's details).
func listActions(k scrollKeys, w *listWindow, n int, moved func()) []action {
	to := func(sel func() int) func() tea.Cmd {
		return does(func() {
			w.sel = sel()
			w.keepVisible(n)
			moved()
		})
	}
	page, last := max(w.height, 1), max(n-1, 0)
	return []action{
		on(k.Up, to(func() int { return max(w.sel-1, 0) })),
		on(k.Down, to(func() int { return min(w.sel+1, last) })),
		on(k.PageUp, to(func() int { return max(w.sel-page, 0) })),
		on(k.PageDown, to(func() int { return min(w.sel+page, last) })),
		on(k.Home, to(func() int { return 0 })),
		on(k.End, to(func() int { return last })),
	}
}

// wheel moves the selection by dy when the wheel is over the list (rows 1
// to height of the pane, under its head line) and reports whether it was.
func (w *listWindow) wheel(msg wheelMsg, n int) bool {
	if msg.y < 1 || msg.y > w.height {
		return false
	}
	w.sel += msg.dy / 3
	w.keepVisible(n)
	return true
}
