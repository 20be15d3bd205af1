package ui

import (
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// compareView shows two calls of a tool against each other: first which
// arguments differ (a comparison where several inputs moved at once
// attributes nothing), then B's response against A's as a fixture replay
// would judge it (cosmetic, warn, breaking), then both results rendered,
// side by side when there is room and stacked when not.
type compareView struct {
	st   *styles
	keys compareKeys
	out  *outbox

	a, b    fixture.Call
	newID   int // the session's call on the B side (pinnable, editable), or 0
	differ  []string
	report  fixture.Report
	leftOut []string // what only B has when A is a client's rendering
	summary textView
	left    textView
	right   textView
	stacked bool

	width, height int
}

func newCompareView(st *styles, out *outbox, red *frames.Redactor, a, b fixture.Call, newID int) (*compareView, error) {
	differ, rep, err := fixture.CompareCalls(a, b)
	if err != nil {
		return nil, err
	}
	// What came back first, then what the tool now says about itself: the
	// result is what the reader came to compare.
	sort.SliceStable(rep.Differences, func(i, j int) bool {
		return !strings.HasPrefix(rep.Differences[i].Path, "/tool") && strings.HasPrefix(rep.Differences[j].Path, "/tool")
	})
	var leftOut []string
	if a.Rendering {
		// A client's rendering never holds structuredContent or _meta: what
		// only B has is what the client left out, not a change to look at.
		kept := rep.Differences[:0:0]
		for _, d := range rep.Differences {
			if d.Expected == nil && d.Actual != nil && !strings.HasPrefix(d.Path, "/tool") {
				leftOut = append(leftOut, strings.ReplaceAll(strings.TrimPrefix(d.Path, "/"), "/", "."))
				continue
			}
			kept = append(kept, d)
		}
		rep.Differences = kept
	}
	v := &compareView{st: st, keys: newCompareKeys(), out: out, a: a, b: b, newID: newID, differ: differ, report: rep, leftOut: leftOut,
		summary: textView{red: red}, left: textView{red: red}, right: textView{red: red}}
	var lb, rb docBuilder
	writeRecordedCall(&lb, red, a, "")
	writeRecordedCall(&rb, red, b, "")
	// Marked once redacted, so the spans are of the text drawn.
	left, right := markChanges(redactDoc(red, lb.doc()), redactDoc(red, rb.doc()))
	v.left.setDoc(left)
	v.right.setDoc(right)
	return v, nil
}

// title names the comparison for the overlay's border.
func (v *compareView) title() string {
	return fmt.Sprintf("Compare %s → %s", v.a.Label, v.b.Label)
}

// argumentsLine is what the differences can be put down to, given the
// arguments that moved: the first thing to read.
func (v *compareView) argumentsLine() string {
	if !v.a.Rendering {
		return fixture.Attribution(v.differ)
	}
	s := "A is a transcript's rendering by a client (what the model was shown; a client never shows structuredContent), not a recorded wire answer: B is not the same answer again, so nothing here is drift"
	if len(v.differ) > 0 {
		s += " · " + fixture.DescribeArguments(v.differ, "")
	}
	return s
}

// verdict is the verdict on the responses: drift when B is the same
// request answered again, a difference when the arguments moved.
func (v *compareView) verdict() string {
	if v.a.Rendering && len(v.differ) == 0 {
		// Worded as a difference, never drift: A is not a wire answer.
		return fixture.ComparisonVerdict([]string{"(A is a rendering)"}, v.report)
	}
	return fixture.ComparisonVerdict(v.differ, v.report)
}

// drifted reports whether the verdict is drift that a replay would fail on
// (never when the arguments differ: then it is a difference they made).
func (v *compareView) drifted() bool {
	return len(v.differ) == 0 && !v.a.Rendering && v.report.Worst() >= fixture.Breaking
}

func (v *compareView) summaryDoc() *doc {
	var b docBuilder
	w := v.width
	b.line(rolePlain, wrapHanging(fmt.Sprintf("A  %s · %s %s", v.a.Label, v.a.Name, oneLine(v.summary.red, string(v.a.Arguments), 300)), "   ", w))
	b.line(rolePlain, wrapHanging(fmt.Sprintf("B  %s · %s %s", v.b.Label, v.b.Name, oneLine(v.summary.red, string(v.b.Arguments), 300)), "   ", w))
	argRole := roleOK
	if len(v.differ) > 0 {
		argRole = roleWarn
	}
	b.line(argRole, wrapHanging(v.argumentsLine(), "  ", w))
	role := roleOK
	switch {
	case v.drifted():
		role = roleError
	case v.report.Worst() >= fixture.Warn:
		role = roleWarn
	}
	b.line(role, v.verdict())
	if len(v.leftOut) > 0 {
		b.line(roleMuted, wrapHanging("only in B, as the client's rendering leaves it out (not compared): "+strings.Join(v.leftOut, ", "), "  ", w))
	}
	var text strings.Builder
	_ = fixture.WriteComparison(&text, v.report, true)
	for _, l := range strings.Split(strings.TrimRight(text.String(), "\n"), "\n") {
		switch {
		case l == "":
		case strings.HasPrefix(l, "- "):
			b.line(roleRemoved, l)
		case strings.HasPrefix(l, "+ "):
			b.line(roleAdded, l)
		case strings.HasPrefix(l, "~ "), strings.HasPrefix(l, "! "):
			b.line(roleChanged, l)
		case strings.HasPrefix(l, "  · "):
			b.line(roleMuted, l)
		default:
			b.line(rolePlain, l)
		}
	}
	return b.doc()
}

func (v *compareView) setSize(w, h int) {
	v.width, v.height = w, h
	v.summary.setSize(w, 1) // wrap at the width first, to measure
	v.summary.keepDoc(v.summaryDoc())
	v.stacked = w < 100
	share := h * 2 / 5
	if v.stacked {
		share = h / 2 // two results stacked need less than the verdict does
	}
	sumH := min(len(v.summary.rows), max(share, 4))
	v.summary.setSize(w, sumH)
	rest := max(h-sumH, 2)
	titleH := chromeRows(v.columnTitle("A", v.a, w)) // each result under its title
	if v.stacked {
		top := rest / 2
		v.left.setSize(w, max(top-titleH, 1))
		v.right.setSize(w, max(rest-top-titleH, 1))
		return
	}
	sepW := lipgloss.Width(v.separator())
	lw := (w - sepW) / 2
	v.left.setSize(lw, max(rest-titleH, 1))
	v.right.setSize(w-lw-sepW, max(rest-titleH, 1))
}

// separator is what stands between the results side by side.
func (v *compareView) separator() string { return v.st.muted.Render("│") }

func (v *compareView) typing() bool { return false }

// update takes the wheel: both results scroll together.
func (v *compareView) update(msg tea.Msg) tea.Cmd {
	if w, ok := msg.(wheelMsg); ok {
		v.both(func(t *textView) { t.scroll(w.dy) })
	}
	return nil
}

func (v *compareView) both(f func(t *textView)) { f(&v.left); f(&v.right) }

func (v *compareView) actions() []action {
	k := v.keys
	notLive := "the new side is not a call of this session"
	page := func(d int) func(t *textView) { return func(t *textView) { t.scroll(d * max(t.height-1, 1)) } }
	return []action{
		on(k.Close, func() tea.Cmd { return v.out.send(closeOverlayMsg{}) }),
		on(k.Pin, func() tea.Cmd { return v.out.send(pinCallMsg{id: v.newID}) }).only(v.newID > 0, notLive),
		on(k.EditAgain, func() tea.Cmd {
			v.out.send(closeOverlayMsg{})
			return v.out.send(editCallMsg{id: v.newID, edit: true})
		}).only(v.newID > 0, notLive),
		on(k.Down, does(func() { v.both(func(t *textView) { t.scroll(1) }) })),
		on(k.Up, does(func() { v.both(func(t *textView) { t.scroll(-1) }) })),
		on(k.PageDown, does(func() { v.both(page(1)) })),
		on(k.PageUp, does(func() { v.both(page(-1)) })),
		on(k.Home, does(func() { v.both((*textView).home) })),
		on(k.End, does(func() { v.both((*textView).end) })),
		on(k.SummaryDown, does(func() { v.summary.scroll(1) })),
		on(k.SummaryUp, does(func() { v.summary.scroll(-1) })),
	}
}

func (v *compareView) columnTitle(side string, c fixture.Call, w int) string {
	t := fmt.Sprintf("─ %s: %s ", side, c.Label)
	switch {
	case len(v.differ) > 0: // two different calls: neither is the other's past
	case side == "A":
		t += "(was) "
	default:
		t += "(now) "
	}
	if gap := w - ansi.StringWidth(t); gap > 0 {
		t += strings.Repeat("─", gap)
	}
	return v.st.label.Render(ansi.Truncate(t, w, "…"))
}

func (v *compareView) view() string {
	parts := []string{v.summary.view(v.st)}
	if len(v.summary.rows) > v.summary.height {
		parts = []string{strings.Join(fit(v.summary.view(v.st), v.width, v.summary.height-1), "\n"),
			v.st.muted.Render(ansi.Truncate("J/K scroll the differences · "+v.summary.position(), v.width, "…"))}
	}
	if v.stacked {
		parts = append(parts,
			v.columnTitle("A", v.a, v.width), strings.Join(fit(v.left.view(v.st), v.width, v.left.height), "\n"),
			v.columnTitle("B", v.b, v.width), strings.Join(fit(v.right.view(v.st), v.width, v.right.height), "\n"))
		return strings.Join(parts, "\n")
	}
	parts = append(parts, v.columnTitle("A", v.a, v.left.width)+" "+v.columnTitle("B", v.b, v.right.width),
		sideBySide(v.left.view(v.st), v.left.width, v.right.view(v.st), v.right.width, v.left.height, v.separator()))
	return strings.Join(parts, "\n")
}
