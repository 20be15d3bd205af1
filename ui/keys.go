package ui

import "charm.land/bubbles/v2/key"

// Every key the UI handles is declared here, once, with its help text. The
// same bindings match keys in update and draw the help, so they cannot
// drift apart.

func bind(keys []string, help, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// globalKeys work in every pane; each pane's number key comes from the
// pane table.
type globalKeys struct {
	Quit, ForceQuit, Help, Next, Prev, Info, Stats, Retry, Relist,
	CancelCall, Answer, LogLevel, Auth, Raw, Said, Roots key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Quit:      bind([]string{"q"}, "q", "quit"),
		ForceQuit: bind([]string{"ctrl+c"}, "ctrl+c", "quit (always)"),
		// While a field takes text, ? is typed and f1 is the help (keys
		// that type text always go to the field).
		Help:   bind([]string{"?", "f1"}, "?", "all keys"),
		Next:   bind([]string{"tab"}, "tab", "next pane"),
		Prev:   bind([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Info:   bind([]string{"i"}, "i", "server info & instructions"),
		Stats:  bind([]string{"S"}, "S", "per-tool statistics of the session's calls (jig stats)"),
		Retry:  bind([]string{"r"}, "r", "retry connecting"),
		Relist: bind([]string{"R"}, "R", "re-list tools"),
		// ctrl+x works while typing, so an open call can be cancelled from
		// the editor it was sent from.
		CancelCall: bind([]string{"ctrl+x"}, "ctrl+x", "cancel the open call (notifications/cancelled)"),
		// ctrl+o is A while a field takes text.
		Answer:   bind([]string{"A", "ctrl+o"}, "A/ctrl+o", "answer the server's waiting request (ctrl+o while typing)"),
		LogLevel: bind([]string{"L"}, "L", "set the server's log level (logging/setLevel)"),
		Auth:     bind([]string{"O"}, "O", "the OAuth login: the URL to open, its steps, what was granted"),
		Said:     bind([]string{"H"}, "H", "the status messages so far, the newest first"),
		Roots:    bind([]string{"F"}, "F", "edit the roots jig declares (roots/list), on the live session"),
		Raw:      bind([]string{"X"}, "X", "compose a raw JSON-RPC message, sent exactly as typed (jig send --raw)"),
	}
}

// rootsKeys are the roots editor's; its text keys are the editor's.
type rootsKeys struct{ Set, Close key.Binding }

func newRootsKeys() rootsKeys {
	return rootsKeys{
		Set:   bind([]string{"ctrl+s"}, "ctrl+s", "set these roots on the session"),
		Close: bind([]string{"esc"}, "esc", "keep the roots as they are"),
	}
}

// writeKeys are the write dialog's; its text keys are a field's.
type writeKeys struct{ Write, Close key.Binding }

func newWriteKeys() writeKeys {
	return writeKeys{
		Write: bind([]string{"enter"}, "enter", "write it to this path (never over a file)"),
		Close: bind([]string{"esc"}, "esc", "write nothing"),
	}
}

// rawKeys are the raw composer's; its text keys are the editor's.
type rawKeys struct{ Send, Suggest, Close key.Binding }

func newRawKeys() rawKeys {
	return rawKeys{
		Send:    bind([]string{"ctrl+s"}, "ctrl+s", "send it on the session, exactly as typed"),
		Suggest: bind([]string{"ctrl+r"}, "ctrl+r", "start again from a ping with the next raw id"),
		Close:   bind([]string{"esc"}, "esc", "close (the text is kept for X)"),
	}
}

// askKeys answer a request the server sent mid-call. The text keys are the
// editor's; these are the ones that decide.
type askKeys struct {
	Send, SendReply, Reject, RejectSampling, Cancel, Later, AboutUp, AboutDown key.Binding
	FormNext, FormPrev, FormJSON                                               key.Binding
}

func newAskKeys() askKeys {
	return askKeys{
		Send:           bind([]string{"ctrl+s"}, "ctrl+s", "accept with this content"),
		SendReply:      bind([]string{"ctrl+s"}, "ctrl+s", "send this reply"),
		Reject:         bind([]string{"ctrl+x"}, "ctrl+x", "decline"),
		RejectSampling: bind([]string{"ctrl+x"}, "ctrl+x", "reject (JSON-RPC error)"),
		Cancel:         bind([]string{"ctrl+g"}, "ctrl+g", "cancel (dismiss)"),
		Later:          bind([]string{"esc"}, "esc", "answer later (A)"),
		AboutUp:        bind([]string{"shift+up"}, "shift+↑", "scroll the request up"),
		AboutDown:      bind([]string{"shift+down"}, "shift+↓", "scroll the request"),
		FormNext:       bind([]string{"tab", "down"}, "tab/↓", "next field"),
		FormPrev:       bind([]string{"shift+tab", "up"}, "shift+tab/↑", "previous field"),
		FormJSON:       bind([]string{"ctrl+t"}, "ctrl+t", "the content as JSON / back to the form"),
	}
}

// levelKeys pick a log level.
type levelKeys struct {
	Up, Down, Set, Close key.Binding
}

func newLevelKeys() levelKeys {
	return levelKeys{
		Up:    bind([]string{"up", "k"}, "↑/k", "up"),
		Down:  bind([]string{"down", "j"}, "↓/j", "down"),
		Set:   bind([]string{"enter"}, "enter", "send logging/setLevel"),
		Close: bind([]string{"esc", "q", "L"}, "esc", "close"),
	}
}

// scrollKeys move through a list or a body; several panes embed them.
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

func newScrollKeys() scrollKeys {
	return scrollKeys{
		Up:       bind([]string{"up", "k"}, "↑/k", "up"),
		Down:     bind([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   bind([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: bind([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"),
		Home:     bind([]string{"home", "g"}, "g/home", "first"),
		End:      bind([]string{"end", "G"}, "G/end", "last"),
	}
}

func (k scrollKeys) list() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}
}

type toolsKeys struct {
	scrollKeys
	Filter, ClearFilter, Call, Raw, DetailUp, DetailDown, Relist key.Binding
}

func newToolsKeys() toolsKeys {
	return toolsKeys{
		scrollKeys:  newScrollKeys(),
		Filter:      bind([]string{"/"}, "/", "filter tools"),
		ClearFilter: bind([]string{"esc"}, "esc", "clear filter"),
		Call:        bind([]string{"enter"}, "enter", "edit arguments for this tool"),
		Raw:         bind([]string{"v"}, "v", "raw JSON / readable schema"),
		DetailUp:    bind([]string{"K", "shift+up"}, "K", "scroll details up"),
		DetailDown:  bind([]string{"J", "shift+down"}, "J", "scroll details down"),
		Relist:      bind([]string{"R"}, "R", "re-list tools (tools/list on the wire)"),
	}
}

// catalogKeys drive the resources and prompts lists: the list, the
// details of the selected item, and what enter does with it.
type catalogKeys struct {
	scrollKeys
	Use, ReadURI, Templates, Raw, DetailUp, DetailDown, Relist key.Binding
	Subscribe                                                  key.Binding // resources only
}

func newResourcesKeys() catalogKeys {
	return catalogKeys{
		scrollKeys: newScrollKeys(),
		Use:        bind([]string{"enter"}, "enter", "read it (resources/read)"),
		ReadURI:    bind([]string{"u"}, "u", "read a typed URI"),
		Templates:  bind([]string{"t"}, "t", "resource templates"),
		Raw:        bind([]string{"v"}, "v", "raw JSON / readable details"),
		DetailUp:   bind([]string{"K", "shift+up"}, "K", "scroll details up"),
		DetailDown: bind([]string{"J", "shift+down"}, "J", "scroll details down"),
		Relist:     bind([]string{"R"}, "R", "re-list"),
		Subscribe:  bind([]string{"s"}, "s", "subscribe to its updates (resources/subscribe) / unsubscribe"),
	}
}

func newPromptsKeys() catalogKeys {
	k := newResourcesKeys()
	k.Use = bind([]string{"enter"}, "enter", "arguments, then prompts/get")
	return k
}

// newTemplatesKeys drive the resource templates list: a template is not
// read as it is, so enter and u both put its uriTemplate in the URI field
// for the user to fill in.
func newTemplatesKeys() catalogKeys {
	k := newResourcesKeys()
	k.Use = bind([]string{"enter"}, "enter", "fill in its URI, then read it")
	k.ReadURI = bind([]string{"u"}, "u", "fill in its URI, then read it")
	k.Templates = bind([]string{"t"}, "t", "back to the resources")
	return k
}

// uriKeys send or drop the URI typed for resources/read.
type uriKeys struct {
	Send, Cancel, Complete key.Binding
}

func newURIKeys() uriKeys {
	return uriKeys{
		Send:   bind([]string{"enter"}, "enter", "read this URI exactly as typed"),
		Cancel: bind([]string{"esc"}, "esc", "cancel"),
		Complete: bind([]string{"ctrl+space", "ctrl+@"}, "ctrl+space",
			"complete the template variable at the cursor (completion/complete)"),
	}
}

type editorKeys struct {
	Edit, Done, Send, Reset, PrevCall, NextCall, ScrollUp, ScrollDown, Progress key.Binding
	Clear, AddOptional, AddOptionalTyping, Complete                             key.Binding
}

func newEditorKeys() editorKeys {
	return editorKeys{
		Edit:       bind([]string{"enter", "e"}, "enter/e", "edit arguments"),
		Done:       bind([]string{"esc"}, "esc", "stop editing"),
		Send:       bind([]string{"ctrl+s"}, "ctrl+s", "send the call"),
		Reset:      bind([]string{"ctrl+r"}, "ctrl+r", "reset from the input schema"),
		PrevCall:   bind([]string{"ctrl+p"}, "ctrl+p", "arguments of the previous call"),
		NextCall:   bind([]string{"ctrl+n"}, "ctrl+n", "arguments of the next call"),
		ScrollUp:   bind([]string{"K", "shift+up"}, "K", "scroll problems up"),
		ScrollDown: bind([]string{"J", "shift+down"}, "J", "scroll problems down"),
		Progress:   bind([]string{"ctrl+t"}, "ctrl+t", "send calls with a progress token (on/off)"),
		Clear:      bind([]string{"ctrl+l"}, "ctrl+l", "clear the arguments (then type or paste)"),
		// o types an o while editing; alt+o adds there.
		AddOptional:       bind([]string{"o"}, "o", "add the next optional argument"),
		AddOptionalTyping: bind([]string{"alt+o"}, "alt+o", "add the next optional argument"),
		Complete:          bind([]string{"ctrl+space", "ctrl+@"}, "ctrl+space", "complete the prompt argument at the cursor (completion/complete)"),
	}
}

type resultKeys struct {
	scrollKeys
	Pin, Older, Newer, EditAgain, ShowFrames, Raw, Write, Mark, Compare, Attribute key.Binding
}

func newResultKeys() resultKeys {
	return resultKeys{
		scrollKeys: newScrollKeys(),
		Pin:        bind([]string{"P"}, "P", "pin this call as a golden fixture"),
		Older:      bind([]string{"["}, "[", "older call"),
		Newer:      bind([]string{"]"}, "]", "newer call"),
		EditAgain:  bind([]string{"e"}, "e", "edit this call again"),
		ShowFrames: bind([]string{"f"}, "f", "select this call's frames"),
		Raw:        bind([]string{"v"}, "v", "raw response / rendered result"),
		Write:      bind([]string{"w"}, "w", "write the response to a file"),
		Mark:       bind([]string{"m"}, "m", "mark this call to compare with"),
		Compare:    bind([]string{"c"}, "c", "compare this call with the marked one"),
		Attribute:  bind([]string{"a"}, "a", "attribute: one argument at a time from the marked call to this one"),
	}
}

type framesKeys struct {
	scrollKeys
	Partner, Body, Back, Raw, Filter, ClearFilter, Direction, Kind, Write, BodyUp, BodyDown,
	NextCall, PrevCall, Timeline, Reproduce, Mark, Compare, Attribute key.Binding
}

func newFramesKeys() framesKeys {
	return framesKeys{
		scrollKeys:  newScrollKeys(),
		Partner:     bind([]string{"p", "%"}, "p", "jump request ↔ response"),
		Body:        bind([]string{"enter"}, "enter", "scroll the body"),
		Back:        bind([]string{"esc"}, "esc", "back to the list"),
		Raw:         bind([]string{"v"}, "v", "pretty / raw bytes / rendered"),
		Filter:      bind([]string{"/"}, "/", "filter by method, tool=NAME, id=… or text"),
		ClearFilter: bind([]string{"x"}, "x", "clear all filters"),
		Direction:   bind([]string{"d"}, "d", "filter direction (all, →, ←)"),
		Kind:        bind([]string{"t"}, "t", "filter kind"),
		Write:       bind([]string{"w"}, "w", "write the body to a file"),
		BodyUp:      bind([]string{"K", "shift+up"}, "K", "scroll body up"),
		BodyDown:    bind([]string{"J", "shift+down"}, "J", "scroll body down"),
		NextCall:    bind([]string{"n"}, "n", "next request"),
		PrevCall:    bind([]string{"N"}, "N", "previous request"),
		Timeline:    bind([]string{"T"}, "T", "timeline: the handshake and every call"),
		Reproduce:   bind([]string{"r"}, "r", "reproduce this tools/call against a live server"),
		Mark:        bind([]string{"m"}, "m", "mark this tools/call to compare with"),
		Compare:     bind([]string{"c"}, "c", "compare this tools/call with the marked one"),
		Attribute:   bind([]string{"a"}, "a", "attribute: one argument at a time from the marked call to this one, on a live server"),
	}
}

// attributionKeys drive the attribution view: pick a step, pin it or edit it.
type attributionKeys struct {
	Up, Down, PageUp, PageDown, ScrollUp, ScrollDown, Pin, EditAgain, Close key.Binding
}

func newAttributionKeys() attributionKeys {
	return attributionKeys{
		Up:         bind([]string{"up", "k"}, "↑/k", "previous step"),
		Down:       bind([]string{"down", "j"}, "↓/j", "next step"),
		PageUp:     bind([]string{"pgup"}, "pgup", "page up"),
		PageDown:   bind([]string{"pgdown", "space"}, "pgdn", "page down"),
		ScrollUp:   bind([]string{"K", "shift+up"}, "K", "scroll the report up"),
		ScrollDown: bind([]string{"J", "shift+down"}, "J", "scroll the report down"),
		Pin:        bind([]string{"P"}, "P", "pin the selected step as a golden fixture"),
		EditAgain:  bind([]string{"e"}, "e", "edit the selected step's arguments and send again"),
		Close:      bind([]string{"esc", "q"}, "esc", "close (the steps stay in the result pane)"),
	}
}

// compareKeys drive the comparison of two calls: the results scroll
// together, the drift summary on its own.
type compareKeys struct {
	scrollKeys
	SummaryUp, SummaryDown, Pin, EditAgain, Close key.Binding
}

func newCompareKeys() compareKeys {
	return compareKeys{
		scrollKeys:  newScrollKeys(),
		SummaryUp:   bind([]string{"K", "shift+up"}, "K", "scroll the differences up"),
		SummaryDown: bind([]string{"J", "shift+down"}, "J", "scroll the differences down"),
		Pin:         bind([]string{"P"}, "P", "pin the new call as a golden fixture"),
		EditAgain:   bind([]string{"e"}, "e", "edit the arguments and send again"),
		Close:       bind([]string{"esc", "q"}, "esc", "close"),
	}
}

// pinKeys drive the pin dialog: name the fixture, review what jig proposes,
// save it. Enter moves forward at every stage; nothing is written before the
// review, and an existing file is only replaced with Overwrite.
type pinKeys struct {
	NextField, PrevField, Build, Save, Overwrite, Edit, Cancel, Close key.Binding
	scrollKeys
}

func newPinKeys() pinKeys {
	return pinKeys{
		NextField:  bind([]string{"tab", "down"}, "tab", "next field"),
		PrevField:  bind([]string{"shift+tab", "up"}, "shift+tab", "previous field"),
		Build:      bind([]string{"enter", "ctrl+s"}, "enter", "review (saves nothing yet)"),
		Save:       bind([]string{"enter", "ctrl+s"}, "enter", "save"),
		Overwrite:  bind([]string{"o"}, "o", "overwrite the file"),
		Edit:       bind([]string{"e"}, "e", "edit name/note/file"),
		Cancel:     bind([]string{"esc"}, "esc", "cancel"),
		Close:      bind([]string{"esc", "enter", "q"}, "esc", "close"),
		scrollKeys: newScrollKeys(),
	}
}

type inputKeys struct {
	Accept, Cancel key.Binding
}

func newInputKeys() inputKeys {
	return inputKeys{
		Accept: bind([]string{"enter"}, "enter", "apply filter"),
		Cancel: bind([]string{"esc"}, "esc", "cancel filter"),
	}
}

type overlayKeys struct {
	scrollKeys
	Close key.Binding
}

func newOverlayKeys() overlayKeys {
	return overlayKeys{scrollKeys: newScrollKeys(), Close: bind([]string{"esc", "q", "?", "i"}, "esc", "close")}
}

// editKeys are the text-editing keys of the argument editor and the filters.
type editKeys struct {
	Newline, Backspace, Delete, DeleteWord, KillEnd, KillStart,
	Left, Right, Up, Down, PageUp, PageDown, Home, End, Start, Finish, WordLeft, WordRight key.Binding
}

func newEditKeys() editKeys {
	return editKeys{
		Newline:    bind([]string{"enter"}, "enter", "new line"),
		Backspace:  bind([]string{"backspace", "ctrl+h"}, "backspace", "delete before the cursor"),
		Delete:     bind([]string{"delete", "ctrl+d"}, "delete", "delete under the cursor"),
		DeleteWord: bind([]string{"ctrl+w", "alt+backspace"}, "ctrl+w", "delete the word before"),
		KillEnd:    bind([]string{"ctrl+k"}, "ctrl+k", "delete to the end of the line"),
		KillStart:  bind([]string{"ctrl+u"}, "ctrl+u", "delete to the start of the line"),
		Left:       bind([]string{"left", "ctrl+b"}, "←", "left"),
		Right:      bind([]string{"right", "ctrl+f"}, "→", "right"),
		Up:         bind([]string{"up"}, "↑", "line up"),
		Down:       bind([]string{"down"}, "↓", "line down"),
		PageUp:     bind([]string{"pgup"}, "pgup", "page up"),
		PageDown:   bind([]string{"pgdown"}, "pgdn", "page down"),
		Home:       bind([]string{"home", "ctrl+a"}, "home", "start of the line"),
		End:        bind([]string{"end", "ctrl+e"}, "end", "end of the line"),
		Start:      bind([]string{"ctrl+home"}, "ctrl+home", "start of the text"),
		Finish:     bind([]string{"ctrl+end"}, "ctrl+end", "end of the text"),
		WordLeft:   bind([]string{"alt+left", "ctrl+left", "alt+b"}, "alt+←", "word left"),
		WordRight:  bind([]string{"alt+right", "ctrl+right", "alt+f"}, "alt+→", "word right"),
	}
}

func (k editKeys) list() []key.Binding {
	return []key.Binding{k.Left, k.Right, k.Up, k.Down, k.WordLeft, k.WordRight, k.Home, k.End, k.Start, k.Finish,
		k.PageUp, k.PageDown, k.Newline, k.Backspace, k.Delete, k.DeleteWord, k.KillEnd, k.KillStart}
}
