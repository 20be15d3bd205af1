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
