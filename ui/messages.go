package ui

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
)

// Everything the UI can receive besides keys, mouse and window sizes.
// Replies to asynchronous work carry who asked (a connection attempt, a call
// id), so a late reply lands where it belongs or is dropped.

// connectedMsg: attempt number attempt opened a session.
type connectedMsg struct {
	attempt int
	s       *session.Session
}

// connectFailedMsg: attempt number attempt could not open a session.
type connectFailedMsg struct {
	attempt int
	err     error
}

// toolsListedMsg: tools/list (all pages) came back, for the given reason
// ("connected", "list_changed", "refresh").
type toolsListedMsg struct {
	reason string
	raw    []json.RawMessage
	typed  []*mcp.Tool
	err    error
}

// toolsChangedMsg: the server sent notifications/tools/list_changed.
type toolsChangedMsg struct{}

// listChangedMsg: the server sent notifications/resources/list_changed
// (pane is paneResources) or notifications/prompts/list_changed (panePrompts).
type listChangedMsg struct{ pane paneID }

// resourcesListedMsg: resources/list (all pages) came back, for the given
// reason ("opened", "list_changed", "refresh").
type resourcesListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

// templatesListedMsg: resources/templates/list (all pages) came back, for
// the given reason.
type templatesListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

// promptsListedMsg: prompts/list (all pages) came back, for the given reason.
type promptsListedMsg struct {
	reason string
	raw    []json.RawMessage
	err    error
}

// framesMsg: the frame log now holds n frames.
type framesMsg struct{ n int }

// serverAskMsg: the server sent a request a human answers (sampling,
// elicitation); its hook waits for answerAskMsg.
type serverAskMsg struct{ q *serverAsk }

// askDoneMsg: the hook of server request id returned (answered, withdrawn
// by the server, or the session ended).
type askDoneMsg struct{ id int }

// progressMsg: notifications/progress arrived for call id.
type progressMsg struct {
	id int
	p  session.Progress
}

// logLevelSetMsg: logging/setLevel level was sent (or refused).
type logLevelSetMsg struct {
	level string
	err   error
}

// callDoneMsg: call id came back (or failed to).
type callDoneMsg struct {
	id  int
	ex  *session.Exchange
	err error
}

// renderedMsg: a large result of call id was rendered off the UI goroutine.
type renderedMsg struct {
	id      int
	doc     *doc
	partial bool
}

// savedMsg: a body was written to path (or not).
type savedMsg struct {
	path string
	err  error
}

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

// pinSavedMsg: the pin dialog's fixture was written to path (or not;
// exists says the refusal was because the file exists).
type pinSavedMsg struct {
	token     int
	path, abs string
	exists    bool
	err       error
}

// closedMsg: the session was closed.
type closedMsg struct{ err error }

// Requests panes make of the root: a pane never reaches into another pane.

// chooseToolMsg asks to prepare a call of the named tool in the editor.
type chooseToolMsg struct{ name string }

// sendCallMsg asks to send a tools/call with exactly these argument bytes.
// violations are the schema problems the user confirmed sending anyway.
type sendCallMsg struct {
	tool       string
	args       string
	violations []schema.Violation
	progress   bool // send _meta.progressToken with the call
}

// readResourceMsg asks to send resources/read for uri, exactly as given
// (a wrong URI included: its error is evidence too).
type readResourceMsg struct{ uri string }

// listTemplatesMsg asks to list the resource templates if they were not
// listed yet (they are shown for the first time).
type listTemplatesMsg struct{}

// choosePromptMsg asks to prepare a prompts/get of the named prompt in the
// editor.
type choosePromptMsg struct{ name string }

// getPromptMsg asks to send prompts/get with these arguments, typed as a JSON
// object of strings. violations are the problems the user sent anyway.
type getPromptMsg struct {
	name       string
	args       string
	violations []schema.Violation
}

// cancelCallMsg asks to cancel call id while it is open (id 0: the newest
// open call): the SDK sends notifications/cancelled.
type cancelCallMsg struct{ id int }

// answerAskMsg answers the server's request id (a serverAsk); what says
// how, for the status line.
type answerAskMsg struct {
	id     int
	answer askAnswer
	what   string
}

// hideAskMsg asks to hide the server-request dialog; the request stays
// open and openAskMsg shows it again.
type hideAskMsg struct{}

// openAskMsg asks to show the oldest server request waiting for an answer.
type openAskMsg struct{}

// setLogLevelMsg asks to send logging/setLevel.
type setLogLevelMsg struct{ level string }

// closeLevelMsg asks to close the log level picker.
type closeLevelMsg struct{}

// editCallMsg asks to load a previous call's tool and arguments into the
// editor (and, with edit, to start typing in it).
type editCallMsg struct {
	id   int
	edit bool
}

// showFramesMsg asks the frames pane to select the frame with this sequence
// number and take the focus.
type showFramesMsg struct{ seq int64 }

// selectCallMsg tells the root which call the result pane now shows, so the
// frames pane can mark it.
type selectCallMsg struct{ id int }

// writeMsg asks to write data to a file named after name.
type writeMsg struct {
	name string
	data []byte
}

// pinCallMsg asks to open the pin dialog for call id.
type pinCallMsg struct{ id int }

// buildPinMsg asks to build the pin dialog's fixture (reusing have when it
// was built already) and to look at the file it would be saved in.
type buildPinMsg struct {
	token int
	path  string
	have  *fixture.Fixture
}

// savePinMsg asks to save f in path; an existing file is replaced only
// when overwrite is set, which only the dialog's explicit overwrite key does.
type savePinMsg struct {
	token     int
	f         *fixture.Fixture
	path      string
	overwrite bool
}

// closePinMsg asks to close the pin dialog (and to stop building its fixture).
type closePinMsg struct{}

// statusMsg puts a line in the status bar.
type statusMsg struct {
	text  string
	isErr bool
}

// reproduceMsg asks to reproduce the recorded tools/call at frame index
// frame: connect (to the recording's own target unless another was given),
// load its exact arguments into the editor, and compare what comes back.
type reproduceMsg struct{ frame int }

// A callRef names a call to mark or compare: a call of this session by id
// (id > 0), or else the tools/call at frame index frame of the frames pane.
type callRef struct {
	id    int
	frame int
}

// markMsg asks to mark a call as the one others are compared with.
type markMsg struct{ ref callRef }

// compareMsg asks to compare a call with the marked one.
type compareMsg struct{ ref callRef }

// closeCompareMsg asks to close the comparison.
type closeCompareMsg struct{}

// toolsIndexedMsg: the tools named by tools/call requests, by frame index,
// were read in the background.
type toolsIndexedMsg struct{ names map[int]string }
