package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/mcpjig/jig/frames"
)

// styles holds every style the UI draws with, named by role. It is built by
// newStyles for the terminal's background and rebuilt in place when a
// tea.BackgroundColorMsg arrives, so panes keep a pointer to it.
//
// Nothing here may carry meaning by colour alone: with NO_COLOR (or a
// monochrome terminal) Bubble Tea strips colours and keeps bold, faint,
// underline and reverse, and every row also carries a glyph or a word.
type styles struct {
	isDark bool

	title         lipgloss.Style
	muted         lipgloss.Style
	heading       lipgloss.Style
	label         lipgloss.Style
	selected      lipgloss.Style
	selectedBlur  lipgloss.Style
	focusedBorder color.Color
	blurredBorder color.Color
	borderTitle   lipgloss.Style
	tabActive     lipgloss.Style
	tabInactive   lipgloss.Style
	status        lipgloss.Style
	statusError   lipgloss.Style

	stateConnected  lipgloss.Style
	stateConnecting lipgloss.Style
	stateFailed     lipgloss.Style

	okText         lipgloss.Style
	warnText       lipgloss.Style
	errorText      lipgloss.Style
	rpcErrorBadge  lipgloss.Style // a JSON-RPC error: the server refused the request
	toolErrorBadge lipgloss.Style // a result with isError: true
	partialBadge   lipgloss.Style
	violation      lipgloss.Style
	required       lipgloss.Style

	added   lipgloss.Style
	changed lipgloss.Style
	removed lipgloss.Style
	// The words that changed within a line: reversed, so they stand out
	// without colour too.
	addedSpan   lipgloss.Style
	removedSpan lipgloss.Style

	frameRequest       lipgloss.Style // client → server request
	frameServerRequest lipgloss.Style // server → client request (sampling, roots, elicitation)
	frameResult        lipgloss.Style
	frameError         lipgloss.Style
	frameNotification  lipgloss.Style
	frameLog           lipgloss.Style // notifications/message: the server's own log
	frameStderr        lipgloss.Style
	frameInvalid       lipgloss.Style
	frameTransport     lipgloss.Style
	partnerMark        lipgloss.Style
}

// newStyles builds the styles for a dark or light background.
func newStyles(isDark bool) *styles {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	accent := c("#1D4ED8", "#7AA2F7")
	muted := c("#6B7280", "#8A8FA3")
	green := c("#15803D", "#9ECE6A")
	yellow := c("#A16207", "#E0AF68")
	red := c("#B91C1C", "#F7768E")
	magenta := c("#7E22CE", "#BB9AF7")
	cyan := c("#0E7490", "#7DCFFF")
	orange := c("#C2410C", "#FF9E64")
	s := lipgloss.NewStyle
	return &styles{
		isDark:          isDark,
		title:           s().Bold(true).Foreground(accent),
		muted:           s().Foreground(muted),
		heading:         s().Bold(true).Underline(true),
		label:           s().Bold(true),
		selected:        s().Reverse(true).Bold(true),
		selectedBlur:    s().Reverse(true),
		focusedBorder:   accent,
		blurredBorder:   muted,
		borderTitle:     s().Bold(true),
		tabActive:       s().Reverse(true).Bold(true).Padding(0, 1),
		tabInactive:     s().Foreground(muted).Padding(0, 1),
		status:          s().Foreground(muted),
		statusError:     s().Bold(true).Foreground(red),
		stateConnected:  s().Bold(true).Foreground(green),
		stateConnecting: s().Bold(true).Foreground(yellow),
		stateFailed:     s().Bold(true).Reverse(true).Foreground(red),
		okText:          s().Foreground(green),
		warnText:        s().Bold(true).Foreground(yellow),
		errorText:       s().Bold(true).Foreground(red),
		rpcErrorBadge:   s().Bold(true).Reverse(true).Foreground(red),
		toolErrorBadge:  s().Bold(true).Underline(true).Foreground(orange),
		partialBadge:    s().Bold(true).Reverse(true).Foreground(yellow),
		violation:       s().Foreground(orange),
		required:        s().Bold(true).Foreground(red),
		added:           s().Bold(true).Foreground(green),
		changed:         s().Bold(true).Foreground(yellow),
		removed:         s().Strikethrough(true).Foreground(muted),
		addedSpan:       s().Bold(true).Reverse(true).Foreground(green),
		removedSpan:     s().Reverse(true).Foreground(red),

		frameRequest:       s().Foreground(accent),
		frameServerRequest: s().Bold(true).Foreground(magenta),
		frameResult:        s().Foreground(green),
		frameError:         s().Bold(true).Foreground(red),
		frameNotification:  s().Foreground(cyan),
		frameLog:           s().Italic(true).Foreground(yellow),
		frameStderr:        s().Faint(true).Foreground(yellow),
		frameInvalid:       s().Bold(true).Underline(true).Foreground(orange),
		frameTransport:     s().Italic(true).Foreground(muted),
		partnerMark:        s().Bold(true).Foreground(accent),
	}
}

// frame returns the style of a frame row by what the frame is.
func (st *styles) frame(f *frames.Frame) lipgloss.Style {
	switch f.Kind {
	case frames.KindRequest:
		if f.Dir == frames.ServerToClient {
			return st.frameServerRequest
		}
		return st.frameRequest
	case frames.KindResult:
		return st.frameResult
	case frames.KindError:
		return st.frameError
	case frames.KindNotification:
		if isLog(f) {
			return st.frameLog
		}
		return st.frameNotification
	case frames.KindStderr:
		return st.frameStderr
	case frames.KindTransport:
		return st.frameTransport
	}
	return st.frameInvalid
}

// A role names how one line of a text document is drawn.
type role uint8

const (
	rolePlain role = iota
	roleHeading
	roleMuted
	roleOK
	roleWarn
	roleError
	roleRPCError
	roleToolError
	rolePartial
	roleViolation
	roleLabel
	roleAdded
	roleChanged
	roleRemoved
	roleAddedSpan   // the words of a line that changed, on the new side
	roleRemovedSpan // the words of a line that changed, on the old side
)

func (st *styles) role(r role) (lipgloss.Style, bool) {
	switch r {
	case roleHeading:
		return st.heading, true
	case roleMuted:
		return st.muted, true
	case roleOK:
		return st.okText, true
	case roleWarn:
		return st.warnText, true
	case roleError:
		return st.errorText, true
	case roleRPCError:
		return st.rpcErrorBadge, true
	case roleToolError:
		return st.toolErrorBadge, true
	case rolePartial:
		return st.partialBadge, true
	case roleViolation:
		return st.violation, true
	case roleLabel:
		return st.label, true
	case roleAdded:
		return st.added, true
	case roleChanged:
		return st.changed, true
	case roleRemoved:
		return st.removed, true
	case roleAddedSpan:
		return st.addedSpan, true
	case roleRemovedSpan:
		return st.removedSpan, true
	}
	return lipgloss.Style{}, false
}
