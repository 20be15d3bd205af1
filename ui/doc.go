// Package ui is jig's terminal interface: a header with the handshake, the
// tools and their schemas, an editor for exact arguments, the result of each
// call, and every frame side by side. It talks to a server only through
// package session and reads frames only through frames.Reader, so the same
// Model shows a live session or a recorded transcript (read-only).
//
// # Shape
//
// The root Model (app.go) holds the panes of the pane table (pane.go), at
// most one overlay (overlay.go: the help, the server's info, the dialogs),
// and a few state structs: the connection (connection.go), the calls
// (call.go), the server's requests for a human (ask.go), the pin dialog
// (pin.go), the reproduction of a recorded call (reproduce.go). Its Update
// only routes:
//
//   - a key goes to the actions of the open overlay, or to the app's keys
//     around the focused pane's actions (global.go); while a text field has
//     the keyboard, a key that types text goes to the field;
//   - every other message names its one handler in its route method
//     (messages.go), and every command is built to return such a message
//     (commands.go), so no message can be left out of a switch;
//   - what a pane wants from the rest of the app it queues in the outbox as
//     a message, handled right after the key that caused it.
//
// A key is an action (action.go): its key.Binding (keys.go) with the help
// text, what it does, and, when it cannot be used now, why not. The footer
// and the help are drawn by bubbles/help from the same actions, and a key
// pressed when it cannot be used says why in the status line.
//
// The layout (layout.go) is measured from what is drawn: the header's and
// footer's heights, the border's frame size.
//
// # Adding a pane
//
//  1. Write one file with the pane's type and a constructor
//     func newXPane(env *paneEnv) *xPane. The pane implements the pane
//     interface: title, actions, update, view, setSize, setFocus, typing.
//     It reads what it needs from env (the styles, the frames, the calls,
//     the connection) and asks the root for what is not its own by sending
//     a routed message through env.out (statusMsg, sendCallMsg, …).
//  2. Declare its keys in keys.go as key.Bindings with their help text, and
//     return them from actions() with on(binding, do) and, where a key does
//     nothing now, .only(ok, "why not").
//  3. Add one line to paneTable in pane.go: its name and the slot it shares
//     when the panes are side by side. Its number key is its place in the
//     table, and the tab bar, the focus keys, tab, the help and the mouse
//     wheel find it from there.
//
// Work the pane starts itself (a request of its own) runs as a command made
// with env.toSelf, whose reply comes back to the pane's update wherever the
// focus is by then; connectedEvent tells every pane when a session opens or
// ends. TestAPaneIsOneLineInTheTable adds a pane exactly this way.
package ui
