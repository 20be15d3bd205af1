package ui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/lint"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
)

// Everything the UI can receive besides keys, mouse and window sizes. Each
// message names its one handler in its route method, which is all Update
// calls: a message cannot be left out of a case list, because there is
// none, and a command cannot return a message without a route (commands.go
// builds every command from a function that returns a routed). Replies to
// asynchronous work carry who asked (a connection attempt, a call id, a
// dialog's token), so a late reply lands where it belongs or is dropped.

// A routed message knows its handler.
type routed interface {
	route(m *Model) tea.Cmd
}

// connectedMsg: attempt number attempt opened a session.
type connectedMsg struct {
	attempt int
	s       *session.Session
}

func (msg connectedMsg) route(m *Model) tea.Cmd { return m.connected(msg) }

// connectFailedMsg: attempt number attempt could not open a session.
type connectFailedMsg struct {
	attempt int
	err     error
}

func (msg connectFailedMsg) route(m *Model) tea.Cmd { return m.connectFailed(msg) }

// toolsListedMsg: tools/list (all pages) came back, for the given reason
// ("connected", "list_changed", "refresh").
type toolsListedMsg struct {
	reason string
	raw    []json.RawMessage
	typed  []*mcp.Tool
	// findings are jig lint's about the listed tools, found off the UI
	// goroutine (500 tools take a few hundred ms).
	findings []lint.Finding
	err      error
}

func (msg toolsListedMsg) route(m *Model) tea.Cmd { return m.toolsListed(msg) }

// toolsChangedMsg: the server sent notifications/tools/list_changed.
type toolsChangedMsg struct{}

func (toolsChangedMsg) route(m *Model) tea.Cmd { return m.toolsChanged() }

// listChangedMsg: the server sent notifications/resources/list_changed
// (pane is paneResources) or notifications/prompts/list_changed (panePrompts).
type listChangedMsg struct{ pane paneID }

func (msg listChangedMsg) route(m *Model) tea.Cmd { return m.listChanged(msg) }

// relistMsg asks to list a pane's items again, on the wire (R): the tools,
// the resources (or their templates) or the prompts.
type relistMsg struct{ pane paneID }

func (msg relistMsg) route(m *Model) tea.Cmd { return m.relist(msg.pane, "refresh") }

// resourcesListedMsg: resources/list (all pages) came back, for the given
// reason ("opened", "list_changed", "refresh").
type resourcesListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

func (msg resourcesListedMsg) route(m *Model) tea.Cmd { return m.resourcesListed(msg) }

// templatesListedMsg: resources/templates/list (all pages) came back, for
// the given reason.
type templatesListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

func (msg templatesListedMsg) route(m *Model) tea.Cmd { return m.templatesListed(msg) }

// promptsListedMsg: prompts/list (all pages) came back, for the given reason.
type promptsListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

func (msg promptsListedMsg) route(m *Model) tea.Cmd { return m.promptsListed(msg) }

// framesMsg: the frame log now holds n frames.
type framesMsg struct{ n int }

func (msg framesMsg) route(m *Model) tea.Cmd { return m.framesGrew(msg) }

// serverAskMsg: the server sent a request a human answers (sampling,
// elicitation); its hook waits for answerAskMsg.
type serverAskMsg struct{ q *serverAsk }

func (msg serverAskMsg) route(m *Model) tea.Cmd { return m.serverAsked(msg) }

// askDoneMsg: the hook of server request id returned (answered, withdrawn
// by the server, or the session ended).
type askDoneMsg struct{ id int }

func (msg askDoneMsg) route(m *Model) tea.Cmd { return m.askDone(msg) }

// progressMsg: notifications/progress arrived for call id.
type progressMsg struct {
	id int
	p  session.Progress
}

func (msg progressMsg) route(m *Model) tea.Cmd { return m.progressed(msg) }

// logLevelSetMsg: logging/setLevel level was sent (or refused).
type logLevelSetMsg struct {
	level string
	err   error
}

func (msg logLevelSetMsg) route(m *Model) tea.Cmd { return m.logLevelSet(msg) }

// callDoneMsg: call id came back (or failed to).
type callDoneMsg struct {
	id  int
	ex  *session.Exchange
	err error
}

func (msg callDoneMsg) route(m *Model) tea.Cmd { return m.callDone(msg) }

// renderedMsg: a large result of call id was rendered off the UI goroutine.
type renderedMsg struct {
	id      int
	doc     *doc
	partial bool
}

func (msg renderedMsg) route(m *Model) tea.Cmd { return m.rendered(msg) }

// savedMsg: a body was written to path (or not).
type savedMsg struct {
	path string
	err  error
	// keepOpen: the write dialog stays open for another path.
	keepOpen bool
}

func (msg savedMsg) route(m *Model) tea.Cmd { return m.saved(msg) }

// pinBuiltMsg: the fixture for the pin dialog's opening token was built
// (or was already), and its file was looked at: abs is the path made
// absolute, exists says whether a file is there already.
type pinBuiltMsg struct {
	token  int
	f      *fixture.Fixture
	abs    string
	exists bool
	err    error
}

func (msg pinBuiltMsg) route(m *Model) tea.Cmd { return m.pinBuilt(msg) }

// pinSavedMsg: the pin dialog's fixture was written to path (or not;
// exists says the refusal was because the file exists).
type pinSavedMsg struct {
	token     int
	path, abs string
	exists    bool
	err       error
}

func (msg pinSavedMsg) route(m *Model) tea.Cmd { return m.pinSaved(msg) }

// closedMsg: session s was closed (one a stale attempt opened, or one that
// was gone).
type closedMsg struct {
	s   *session.Session
	err error
}

func (msg closedMsg) route(m *Model) tea.Cmd { return m.closed(msg) }

// goneMsg: session s ended without jig closing it (its server exited); why
// says how.
type goneMsg struct {
	s   *session.Session
	why string
}

func (msg goneMsg) route(m *Model) tea.Cmd { return m.gone(msg) }

// answeringMsg: session s's HTTP server stopped answering (why says how
// the last request failed) or, with why "", answers again.
type answeringMsg struct {
	s   *session.Session
	why string
}

func (msg answeringMsg) route(m *Model) tea.Cmd { return m.answering(msg) }

// Requests panes make of the root: a pane never reaches into another pane.

// chooseToolMsg asks to prepare a call of the named tool in the editor.
type chooseToolMsg struct{ name string }

func (msg chooseToolMsg) route(m *Model) tea.Cmd { return m.chooseTool(msg) }

// sendCallMsg asks to send a tools/call with exactly these argument bytes.
// violations are the schema problems the user confirmed sending anyway.
type sendCallMsg struct {
	tool       string
	args       string
	violations []schema.Violation
	progress   bool // send _meta.progressToken with the call
}

func (msg sendCallMsg) route(m *Model) tea.Cmd { return m.sendCall(msg) }

// readResourceMsg asks to send resources/read for uri, exactly as given
// (a wrong URI included: its error is evidence too).
type readResourceMsg struct{ uri string }

func (msg readResourceMsg) route(m *Model) tea.Cmd { return m.readResource(msg) }

// listTemplatesMsg asks to list the resource templates if they were not
// listed yet (they are shown for the first time).
type listTemplatesMsg struct{}

func (listTemplatesMsg) route(m *Model) tea.Cmd { return m.listOnOpen() }

// choosePromptMsg asks to prepare a prompts/get of the named prompt in the
// editor.
type choosePromptMsg struct{ name string }

func (msg choosePromptMsg) route(m *Model) tea.Cmd { return m.choosePrompt(msg) }

// getPromptMsg asks to send prompts/get with these arguments, typed as a JSON
// object of strings. violations are the problems the user sent anyway.
type getPromptMsg struct {
	name       string
	args       string
	violations []schema.Violation
}

func (msg getPromptMsg) route(m *Model) tea.Cmd { return m.getPrompt(msg) }

// cancelCallMsg asks to cancel call id while it is open (id 0: the newest
// open call): the SDK sends notifications/cancelled.
type cancelCallMsg struct{ id int }

func (msg cancelCallMsg) route(m *Model) tea.Cmd { return m.cancelCall(msg) }

// answerAskMsg answers the server's request id (a serverAsk); what says
// how, for the status line.
type answerAskMsg struct {
	id     int
	answer askAnswer
	what   string
}

func (msg answerAskMsg) route(m *Model) tea.Cmd { return m.answerAsk(msg) }

// hideAskMsg asks to hide the server-request dialog; the request stays
// open and openAskMsg shows it again.
type hideAskMsg struct{}

func (hideAskMsg) route(m *Model) tea.Cmd { return m.hideAsk() }

// setLogLevelMsg asks to send logging/setLevel.
type setLogLevelMsg struct{ level string }

func (msg setLogLevelMsg) route(m *Model) tea.Cmd { return m.setLogLevel(msg) }

// completeMsg asks the server for the values that complete a prompt
// argument or a resource template's variable (completion/complete); text,
// row and col are where the editor was, so a late answer never types into
// text that moved on.
type completeMsg struct {
	prompt, template string // the one asked about
	arg, partial     string
	given            map[string]string
	text             string
	row, col         int
	erase            int // runes before the cursor to replace: a variable still its {placeholder}
}

func (msg completeMsg) route(m *Model) tea.Cmd { return m.completeArg(msg) }

// completedMsg: the server's completions for a completeMsg.
type completedMsg struct {
	completeMsg
	values []string
	more   bool
	err    error
}

func (msg completedMsg) route(m *Model) tea.Cmd {
	if msg.template != "" {
		return m.resources().completed(msg)
	}
	return m.editor().completed(msg)
}

// subscribeMsg asks to subscribe to uri's updates (on) or to stop.
type subscribeMsg struct {
	uri string
	on  bool
}

func (msg subscribeMsg) route(m *Model) tea.Cmd { return m.subscribe(msg) }

// subscribedMsg: the server answered a subscribeMsg.
type subscribedMsg struct {
	subscribeMsg
	err error
}

func (msg subscribedMsg) route(m *Model) tea.Cmd { return m.subscribed(msg) }

// resourceUpdatedMsg: the server sent notifications/resources/updated.
type resourceUpdatedMsg struct{ uri string }

func (msg resourceUpdatedMsg) route(m *Model) tea.Cmd { return m.resourceUpdated(msg) }

// setRootsMsg asks to replace the roots jig declares on the session.
type setRootsMsg struct{ roots []session.Root }

func (msg setRootsMsg) route(m *Model) tea.Cmd { return m.setRoots(msg) }

// sendRawMsg asks to write text on the session exactly as typed (the raw
// composer); suggested says it is the composer's own suggestion, unedited.
type sendRawMsg struct {
	text      string
	suggested bool
}

func (msg sendRawMsg) route(m *Model) tea.Cmd { return m.sendRaw(msg) }

// rawDoneMsg: a raw message was written (or refused), and the server
// answered it, or jig stopped waiting (res.Ended says why).
type rawDoneMsg struct {
	res       *session.RawResult
	err       error
	suggested bool
}

func (msg rawDoneMsg) route(m *Model) tea.Cmd { return m.rawDone(msg) }

// editCallMsg asks to load a previous call's tool and arguments into the
// editor (and, with edit, to start typing in it).
type editCallMsg struct {
	id   int
	edit bool
}

func (msg editCallMsg) route(m *Model) tea.Cmd { return m.editCall(msg) }

// showFramesMsg asks the frames pane to select the frame with this sequence
// number and take the focus.
type showFramesMsg struct{ seq int64 }

func (msg showFramesMsg) route(m *Model) tea.Cmd { return m.showFrames(msg) }

// selectCallMsg tells the root which call the result pane now shows, so the
// frames pane can mark it.
type selectCallMsg struct{ id int }

func (msg selectCallMsg) route(m *Model) tea.Cmd { return m.selectCall(msg) }

// writeMsg asks to write data to a file named after name.
type writeMsg struct {
	name string
	data []byte
}

func (msg writeMsg) route(m *Model) tea.Cmd {
	// What w writes is as private as what is drawn: the bytes as they
	// crossed, with the secrets in them (and in the name) redacted. It
	// asks where first, offering a name no file has.
	base := unsafeName().ReplaceAllString(m.env.redact.String(msg.name), "_")
	m.openOverlay(newWriteDialog(m.st(), m.env.out, freePath(m.cfg.SaveDir, base), m.env.redact.Bytes(msg.data)))
	return nil
}

// pinCallMsg asks to open the pin dialog for call id.
type pinCallMsg struct{ id int }

func (msg pinCallMsg) route(m *Model) tea.Cmd { return m.pinCall(msg) }

// buildPinMsg asks to build the pin dialog's fixture (reusing have when it
// was built already) and to look at the file it would be saved in.
type buildPinMsg struct {
	token int
	path  string
	have  *fixture.Fixture
}

func (msg buildPinMsg) route(m *Model) tea.Cmd { return m.buildPin(msg) }

// savePinMsg asks to save f in path; an existing file is replaced only
// when overwrite is set, which only the dialog's explicit overwrite key does.
type savePinMsg struct {
	token     int
	f         *fixture.Fixture
	path      string
	overwrite bool
}

func (msg savePinMsg) route(m *Model) tea.Cmd { return m.savePin(msg) }

// closePinMsg asks to close the pin dialog (and to stop building its fixture).
type closePinMsg struct{}

func (closePinMsg) route(m *Model) tea.Cmd { return m.closePin() }

// statusMsg puts a line in the status bar.
type statusMsg struct {
	text  string
	isErr bool
}

func (msg statusMsg) route(m *Model) tea.Cmd {
	m.setStatus(msg.text, msg.isErr)
	return nil
}

// reproduceMsg asks to reproduce the recorded tools/call at frame index
// frame: connect (to the recording's own target unless another was given),
// load its exact arguments into the editor, and compare what comes back.
type reproduceMsg struct{ frame int }

func (msg reproduceMsg) route(m *Model) tea.Cmd { return m.reproduce(msg) }

// A callRef names a call to mark or compare: a call of this session by id
// (id > 0), or else the tools/call at frame index frame of the frames pane.
type callRef struct {
	id    int
	frame int
}

// attributeMsg asks to attribute the difference between the marked call and
// the call ref names, one argument at a time (attribution.go).
type attributeMsg struct{ ref callRef }

func (msg attributeMsg) route(m *Model) tea.Cmd { return m.attributeCall(msg) }

// markMsg asks to mark a call as the one others are compared with.
type markMsg struct{ ref callRef }

func (msg markMsg) route(m *Model) tea.Cmd { return m.markCall(msg) }

// compareMsg asks to compare a call with the marked one.
type compareMsg struct{ ref callRef }

func (msg compareMsg) route(m *Model) tea.Cmd { return m.compareCall(msg) }

// toolsIndexedMsg (to the frames pane): the tools named by tools/call
// requests, by frame index, were read in the background.
type toolsIndexedMsg struct{ names map[int]string }
