package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// paneID names the panes, numbered as their keys (1–6).
type paneID int

const (
	paneTools paneID = iota
	paneEditor
	paneResult
	paneFrames
	paneResources
	panePrompts
	paneCount
)

var paneNames = [paneCount]string{"Tools", "Arguments", "Result", "Frames", "Resources", "Prompts"}

// inLeftColumn reports whether a pane takes the left column when the panes
// are side by side: tools, resources and prompts share it, one at a time.
func inLeftColumn(id paneID) bool { return id == paneTools || id == paneResources || id == panePrompts }

type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// inner is the content area of a bordered pane.
func (r rect) inner() rect { return rect{r.x + 1, r.y + 1, max(r.w-2, 0), max(r.h-2, 0)} }

// A layout places the header, the panes and the footer. In tabs mode every
// pane gets the whole body (no borders) and a tab bar says which is shown.
type layout struct {
	width, height int
	tabs          bool
	headerH       int
	tabBarY       int
	panes         [paneCount]rect // outer rectangles (with borders unless tabs)
	visible       [paneCount]bool
	footerY       int
}

// Below these sizes the panes collapse into tabs.
const (
	minColumnsWidth  = 120
	minColumnsHeight = 28
)

// arrange computes the layout for a terminal of w×h. It is pure, so it can
// be tested on its own; chrome heights are passed in, never guessed.
func arrange(w, h, headerH, footerH int, readOnly bool) layout {
	l := layout{width: w, height: h, headerH: headerH, footerY: h - footerH}
	bodyY := headerH
	bodyH := max(h-headerH-footerH, 0)
	switch {
	case readOnly:
		l.visible[paneFrames] = true
		l.tabs = true
		l.panes[paneFrames] = rect{0, bodyY, w, bodyH}
	case w < minColumnsWidth || h < minColumnsHeight:
		l.tabs = true
		l.tabBarY = bodyY
		for i := range l.panes {
			l.visible[i] = true
			l.panes[i] = rect{0, bodyY + 1, w, max(bodyH-1, 0)}
		}
	default:
		toolsW := w * 25 / 100
		framesW := w * 40 / 100
		callW := w - toolsW - framesW
		editorH := bodyH * 45 / 100
		l.panes[paneTools] = rect{0, bodyY, toolsW, bodyH}
		l.panes[paneEditor] = rect{toolsW, bodyY, callW, editorH}
		l.panes[paneResult] = rect{toolsW, bodyY + editorH, callW, bodyH - editorH}
		l.panes[paneFrames] = rect{toolsW + callW, bodyY, framesW, bodyH}
		l.panes[paneResources] = l.panes[paneTools]
		l.panes[panePrompts] = l.panes[paneTools]
		for i := range l.visible {
			l.visible[i] = true
		}
	}
	return l
}

// content is the rectangle a pane draws into.
func (l layout) content(p paneID) rect {
	if l.tabs {
		return l.panes[p]
	}
	return l.panes[p].inner()
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

// box draws content in a rounded border with the title set into the top edge.
func box(st *styles, title, content string, w, h int, focused bool) []string {
	if w < 2 || h < 2 {
		return fit("", w, h)
	}
	border := st.muted
	if focused {
		border = st.title
	}
	t := " " + title + " "
	if focused {
		t = "▸" + t
	}
	t = ansi.Truncate(t, max(w-4, 0), "…")
	top := border.Render("╭─") + st.borderTitle.Render(t) + border.Render(strings.Repeat("─", max(w-3-ansi.StringWidth(t), 0))+"╮")
	out := make([]string, 0, h)
	out = append(out, top)
	side := border.Render("│")
	for _, l := range fit(content, w-2, h-2) {
		out = append(out, side+l+side)
	}
	out = append(out, border.Render("╰"+strings.Repeat("─", w-2)+"╯"))
	return out
}
