package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
)

// A pane is one area of the screen that can have the focus. The root drives
// every pane through this contract and nothing else: it matches the focused
// pane's keys against its actions, hands it everything else (text typed
// into a field, a paste, the mouse wheel, the replies it asked for), sizes
// it, and draws it where the pane table places it.
type pane interface {
	// title names the pane on its border and tab, with a count when it
	// has one: "Tools (5)". The root adds the pane's number key.
	title() string
	// actions are the pane's keys as they stand now: what each does, and
	// why it cannot be used when it cannot. They are asked for on every key
	// and every frame drawn, so they are built fresh from the pane's state.
	actions() []action
	// update takes what is not an action: text and editing keys while the
	// pane is typing, a paste, a wheelMsg, and messages addressed to the
	// pane (paneMsg).
	update(msg tea.Msg) tea.Cmd
	view() string
	setSize(w, h int)
	setFocus(focused bool)
	// typing reports whether a text field has the keyboard: then keys that
	// type text go to update, not to any action.
	typing() bool
}

// paneID is a pane's index in the pane table; its number key is id+1.
type paneID int

// The panes the root coordinates by name. A pane the root has no business
// with needs no name: its index in the table is its id.
const (
	paneTools paneID = iota
	paneEditor
	paneResult
	paneFrames
	paneResources
	panePrompts
)

// A slot is a place on screen when the panes are side by side. Panes that
// share a slot take turns: it shows the one that last had the focus.
type slot uint8

const (
	slotLeft   slot = iota // the lists: tools, resources, prompts
	slotTop                // the middle column's top: what is being written
	slotBottom             // the middle column's bottom: what came back
	slotRight              // the frames
	slotCount
)

// The pane table: every pane, in the order of its number key. Adding a pane
// is one new file with its type and one line here (see doc.go).
var paneTable = []paneSpec{
	paneTools:     {"Tools", slotLeft, build(newToolsPane)},
	paneEditor:    {"Arguments", slotTop, build(newEditorPane)},
	paneResult:    {"Result", slotBottom, build(newResultPane)},
	paneFrames:    {"Frames", slotRight, build(newFramesPane)},
	paneResources: {"Resources", slotLeft, build(newResourcesPane)},
	panePrompts:   {"Prompts", slotLeft, build(newPromptsPane)},
}

// A paneSpec is one line of the pane table.
type paneSpec struct {
	name  string // the pane's name in titles, tabs and the help
	slot  slot
	build func(env *paneEnv) pane
}

func build[P pane](f func(env *paneEnv) P) func(env *paneEnv) pane {
	return func(env *paneEnv) pane { return f(env) }
}

// paneEnv is what a pane is built with: who it is, the styles, the outbox
// through which it asks the root for what is not its own (a call sent,
// another pane shown), the frames, the session's calls and its connection.
// A pane reads these; it never reaches into another pane.
type paneEnv struct {
	id     paneID
	ctx    context.Context // the Model's life: work a pane starts ends with it
	st     *styles
	out    *outbox
	redact *frames.Redactor // what every text drawn or written passes through
	reader frames.Reader
	calls  *callLog
	conn   *connection
	// callNotes are an agent transcript's notes on the call at frame i (nil
	// for other recordings).
	callNotes func(i int) []string
	// violations are the contract violations of a response frame, by its
	// seq (nil when nothing checks contracts).
	violations func(seq int64) []string
}

// toSelf is a command whose reply comes back to this pane's update (as
// the message f returns), wherever the focus is by then.
func (e *paneEnv) toSelf(f func() tea.Msg) tea.Cmd {
	id := e.id
	return func() tea.Msg { return paneMsg{to: id, msg: f()} }
}

// paneMsg carries a reply to the pane that asked for it.
type paneMsg struct {
	to  paneID
	msg tea.Msg
}

func (msg paneMsg) route(m *Model) tea.Cmd { return m.panes[msg.to].update(msg.msg) }

// wheelMsg is the mouse wheel over a pane: dy rows (3 per notch), at row y
// of its content.
type wheelMsg struct{ dy, y int }

// connectedEvent tells every pane that a session opened (or, with closed,
// ended), so a pane that needs the server can begin.
type connectedEvent struct{ closed bool }
