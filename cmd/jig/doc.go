// Command jig is a terminal inspector for MCP servers: connect to a server,
// see its handshake, tools and frames, make exact calls, pin them as golden
// fixtures and replay them in CI.
//
// # How a command is built
//
// Every command has the same four parts (cli/cli's options+run seam), in one
// file named after the command:
//
//   - xxxOptions, a struct holding everything the command line says: its
//     flags, its positional arguments, the server's command after --, and
//     targetFlags / framesFlag / pinFlags when it connects, prints frames or
//     pins. Nothing else: no streams, no session.
//   - newXxxCmd(st *streams, runF runFunc[xxxOptions]) *cobra.Command, which
//     binds each flag into the struct (fl.StringVar(&o.field, ...)), and whose
//     RunE only moves the positional arguments (and facts only the FlagSet
//     knows, such as which flags were typed) into the options, then calls
//     runF(cmd.Context(), o, st). Long help and examples are constants beside it.
//   - runXxx(ctx, opts, st) error, the work. It validates the options first
//     (a usageErr names the flag and what to type instead), then connects
//     through withSession when it needs a server, and writes machine output
//     to st.out and everything else to st.err.
//   - A line in newRoot: newXxxCmd(st, runXxx).
//
// To add a flag: add a field to the options, bind it in newXxxCmd, use it in
// runXxx, and add a row to the command's table in flags_test.go (flags →
// options, through parseFlags, which passes a runFunc that only keeps the
// options). To add a command: write the four parts, register it in newRoot,
// add its table to flags_test.go and its row to the README's command table.
//
// # Exit codes
//
// exit.go is the only place that turns an outcome into a number. Commands
// return errors: a *session.UsageError (usageErr) is 2, a
// *session.ConnectError 3, a *session.RPCError 1; an *exitError carries any
// other code, with its message already printed when err is nil. A signal
// (SIGINT, SIGTERM, SIGHUP; a closed stdout's EPIPE for SIGPIPE) cancels
// the command's context with a *signalError as its cause (signals.go): the
// command ends through its context, its session closes (ending the
// server's process group), and run turns what failed into 128+n. Never
// exit from a command; only jig proxy, which passes signals on to the
// server it runs, listens for them itself.
//
// Keep functions a screen long (at most 60 lines; shape_test.go checks):
// split by what they decide, as runReplay is split into tallyOutcomes,
// accept and suggestAccept.
package main
