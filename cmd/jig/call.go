package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/content"
	"github.com/mcpjig/jig/session/replay"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callOptions are jig call's.
type callOptions struct {
	target      targetFlags
	frames      framesFlag
	pin         pinFlags
	tool        string
	args        string // --args: JSON, @FILE or -
	json        bool
	progress    bool
	cancelAfter time.Duration
	command     []string // the server's command after --
}

const callLong = `Call a tool with exactly the arguments you give. jig checks only that they
are JSON; arguments that violate the tool's inputSchema are reported on stderr
and sent anyway, because reproducing a bad call is often the point.

--progress sends the call with _meta.progressToken (a different request on the
wire than one without, so it is off unless asked) and prints each
notifications/progress to stderr as it arrives. --cancel-after cancels the call
after that long on purpose: jig sends notifications/cancelled, as a client
whose user gave up would, and exits 4; a server that is merely slow hits
--timeout instead, which is exit 3.

The server's sampling/createMessage requests get a fixed, labelled reply and
its elicitation/create requests are declined: the CLI never waits for a human
(jig connect answers them in a dialog). --elicit accept-defaults|decline|cancel|
@answers.json and --sample @replies.json script the answers instead, in both
eras (in 2026-07-28 they answer input_required results; jig retries the call
with requestState echoed), and --pin keeps them in the fixture for its replay.

Exit codes: 0 success; 1 a JSON-RPC error or a result with isError; 2 usage
error; 3 the server could not be reached, crashed or timed out; 4 the call was
cancelled by --cancel-after; 130 ctrl+c (SIGINT), 143 SIGTERM, 129 SIGHUP: the
call was cancelled on the wire and the server stopped.`

const callExample = `  jig call search_orders --args '{"customer":"Acme Corp","since":"last month"}' --demo
  jig call echo --args @args.json -- node server.js
  echo '{"a":"x"}' | jig call get-sum --args - --frames -- node server.js
  jig call search_orders --args '{"customer":"acme","since":"2026-01-01","limit":500}' --demo \
      --pin fixtures/search-orders-truncated.json --note "limit is capped at 20 and says so"
  jig call trigger-long-running-operation --args '{"duration":5,"steps":5}' --progress --cancel-after 2s \
      -- node server-everything/dist/index.js stdio`

func newCallCmd(st *streams, runF runFunc[callOptions]) *cobra.Command {
	o := &callOptions{}
	cmd := &cobra.Command{
		Use:     "call TOOL [flags] [-- command args...]",
		Short:   "Call a tool with exactly the arguments you give",
		Long:    callLong,
		Example: callExample,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.tool, o.command = args[0], args[1:]
			if dash := cmd.ArgsLenAtDash(); dash > 1 {
				return usageErr("call takes one tool name before --, got %q", args[:dash])
			} else if dash < 0 && len(args) > 1 && !urlAfter(cmd, args, 1) {
				return usageErr("call takes one tool name; put a server command after -- (jig call %s -- %s)", o.tool, strings.Join(args[1:], " "))
			}
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.args, "args", "{}", "arguments as JSON, @FILE, or - for stdin; sent exactly as given")
	fl.BoolVar(&o.json, "json", false, "print the result (or error) object exactly as the server sent it")
	fl.BoolVar(&o.progress, "progress", false, "send _meta.progressToken and print each notifications/progress to stderr")
	fl.DurationVar(&o.cancelAfter, "cancel-after", 0, "cancel the call after this long (notifications/cancelled; exit 4)")
	o.pin.bind(cmd)
	return cmd
}

func runCall(ctx context.Context, o *callOptions, st *streams) error {
	argv, err := readArgs(o.args, st.in)
	if err != nil {
		return err
	}
	if err := o.pin.check(); err != nil {
		return err
	}
	if o.cancelAfter < 0 {
		return usageErr("--cancel-after %s: give a positive duration, e.g. 2s", o.cancelAfter)
	}
	if o.cancelAfter > 0 && o.pin.file != "" {
		return usageErr("--cancel-after and --pin: a cancelled call has no response to pin")
	}
	// Values the user marked secret are known before anything crosses, so
	// the recording and the terminal never hold them.
	named, err := secretEnv(o.pin.secretEnv)
	if err != nil {
		return err
	}
	for _, s := range named {
		st.redact.Add(s.Value)
	}
	if o.pin.append {
		return runAppend(ctx, o, st, argv)
	}
	base := ctx
	return withSession(ctx, st, &o.target, o.command, &o.frames, o.tool, func(_ context.Context, s *session.Session) error {
		// --timeout bounds the connection (withSession's clock) and then
		// each request on its own clock: a slow start is not charged to
		// the call, and a timeout names the request that was on the wire.
		return o.call(base, st, s, argv)
	})
}

// call lists the tools (to check the arguments against the schema and to pin
// the tool's definition), sends the call and reports its outcome.
func (o *callOptions) call(ctx context.Context, st *streams, s *session.Session, argv json.RawMessage) error {
	lctx, lcancel := session.WithTimeout(ctx, o.target.timeout)
	rawTools, typed, err := s.ListTools(lctx)
	lcancel()
	if err != nil {
		return err
	}
	unlisted := o.checkTool(st, s, typed, argv)
	cctx, ccancel := session.WithTimeout(ctx, o.target.timeout)
	defer ccancel()
	ex, err := callWith(cctx, st, s, o.tool, argv, o.progress, o.cancelAfter)
	var cancelled *session.CancelledError
	if errors.As(err, &cancelled) {
		return o.cancelled(st, ex, cancelled)
	}
	if failed := s.ScriptFailures(); len(failed) > 0 {
		return o.scriptFailed(st, failed, ex, err)
	}
	if o.pin.file != "" && unlisted != "" {
		// A fixture of a name the server does not list pins its answer
		// to a typo (an "Unknown tool" error) as the expected result.
		fmt.Fprintf(st.err, "jig: nothing pinned to %s: the server lists no tool named %q%s; check the name with jig tools\n", o.pin.file, o.tool, unlisted)
		_ = o.report(st, ex, err)
		return &exitError{code: exitUsage}
	}
	if _, isRPC := err.(*session.RPCError); o.pin.file != "" && ex != nil && (err == nil || isRPC) {
		opts, oerr := o.target.options(o.command)
		if oerr != nil {
			return oerr
		}
		pctx, pcancel := session.WithTimeout(ctx, o.target.timeout)
		defer pcancel()
		if perr := o.pin.pin(pctx, st, s, opts, replay.FindTool(rawTools, o.tool), ex, o); perr != nil {
			return perr
		}
	}
	return o.report(st, ex, err)
}

// checkTool warns of a call that will not go as typed: a tool the server
// does not list (it returns what to say of it, for the pin that will not
// be written: the nearest name or the first listed), or arguments that
// violate its input schema. Either way the call is sent.
func (o *callOptions) checkTool(st *streams, s *session.Session, typed []*mcp.Tool, argv json.RawMessage) string {
	t := s.Tool(o.tool)
	if t != nil {
		warnViolations(st.err, o.tool, t.InputSchema, argv)
		return ""
	}
	names := make([]string, len(typed))
	for i, t := range typed {
		names[i] = t.Name
	}
	near := aside(didYouMean(o.tool, names))
	fmt.Fprintf(st.err, "jig: warning: the server did not list a tool named %q%s; sending the call anyway\n", o.tool, near)
	if near == "" {
		return " (it lists " + strings.Join(firstNames(names, 6), ", ") + ")"
	}
	return near
}

// scriptFailed reports a call whose server jig's script answered with an
// error of its own: what the server said next is about jig's script, not
// the server, and no expected result, so nothing is pinned.
func (o *callOptions) scriptFailed(st *streams, failed []string, ex *session.Exchange, err error) error {
	for _, f := range failed {
		fmt.Fprintf(st.err, "jig: %s\n", f)
	}
	if o.pin.file != "" {
		fmt.Fprintf(st.err, "jig: nothing pinned to %s: the result would pin jig's failure as the server's expected answer\n", o.pin.file)
	}
	switch {
	case o.json || ex == nil || len(ex.Result) == 0:
		_ = o.report(st, ex, err)
	case inputRequired(ex.Result):
		// 2026-07-28: the server's last word is its question; jig could
		// not answer it, so it never sent the call again.
		fmt.Fprintf(st.out, "no result: the server asked for input (an input_required round after %s; --frames shows it) and jig's script could not answer it, so jig did not send the call again\n", frames.HumanDuration(ex.Latency))
	default:
		fmt.Fprintf(st.out, "result after %s — what the server answered once jig's script had failed it (see above), not its answer to your input\n", frames.HumanDuration(ex.Latency))
		content.RenderTool(textLines{st.out}, ex.Result, nil)
	}
	return &exitError{code: exitUsage}
}

// inputRequired reports whether a result is a 2026-07-28 input_required
// round (a question to the client, not the call's result).
func inputRequired(result json.RawMessage) bool {
	var r struct {
		ResultType string `json:"resultType"`
	}
	return json.Unmarshal(result, &r) == nil && r.ResultType == "input_required"
}

// cancelled says why the call was cancelled: --cancel-after (exit 4) or a
// signal (128+n; the session is closed after this, ending the server).
func (o *callOptions) cancelled(st *streams, ex *session.Exchange, c *session.CancelledError) error {
	id := ""
	if ex != nil && ex.Request != nil {
		id = " for request id=" + ex.Request.ID
	}
	var se *signalError
	if errors.As(c.Cause, &se) {
		if se.sig != syscall.SIGPIPE {
			fmt.Fprintf(st.err, "jig: tools/call %s interrupted by %s after %s: jig sent notifications/cancelled%s and stops the server\n",
				o.tool, frames.SignalName(se.sig), c.After.Round(time.Millisecond), id)
		}
		return &exitError{code: exitCode(se)}
	}
	fmt.Fprintf(st.err, "jig: tools/call %s cancelled after %s as --cancel-after asked: jig sent notifications/cancelled%s; no response will come (the server may still send progress)\n",
		o.tool, c.After.Round(time.Millisecond), id)
	return &exitError{code: exitCancelled}
}

// report prints the call's result or JSON-RPC error on stdout.
func (o *callOptions) report(st *streams, ex *session.Exchange, err error) error {
	if rpc, ok := err.(*session.RPCError); ok {
		if o.json && rpc.Raw != nil {
			writeRaw(st.out, rpc.Raw)
		} else {
			fmt.Fprintf(st.out, "JSON-RPC error %d: %s\n", rpc.Code, rpc.Message)
		}
		return &exitError{code: exitServerError}
	}
	if err != nil {
		return err
	}
	if o.json {
		writeRaw(st.out, ex.Result)
	} else {
		printResult(st.out, ex)
	}
	if isErrorResult(ex.Result) {
		return &exitError{code: exitServerError}
	}
	return nil
}

// callWith sends the call, printing progress to stderr when asked, and
// cancels it after cancelAfter when that is set.
func callWith(ctx context.Context, st *streams, s *session.Session, tool string, args json.RawMessage, progress bool, cancelAfter time.Duration) (*session.Exchange, error) {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	armed := time.Now()
	if cancelAfter > 0 {
		t := time.AfterFunc(cancelAfter, func() { cancel(session.ErrCancelled) })
		defer t.Stop()
	}
	var opts session.CallOptions
	var mu sync.Mutex // progress arrives on the SDK's goroutine
	done := false
	if progress {
		start := time.Now()
		opts.OnProgress = func(p session.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if !done {
				fmt.Fprintf(st.err, "jig: progress %s (after %s)\n", p, time.Since(start).Round(time.Millisecond))
			}
		}
	}
	ex, err := s.CallToolWith(cctx, tool, args, opts)
	mu.Lock()
	done = true
	mu.Unlock()
	var cancelled *session.CancelledError
	if cancelAfter > 0 && errors.As(err, &cancelled) {
		// The session's clock starts when the call is sent, a little after
		// the timer was armed; "cancelled after" counts from the arming, so
		// it is never less than what --cancel-after asked.
		cancelled.After = time.Since(armed)
	}
	return ex, err
}

// readArgs returns the arguments' exact bytes. They are parsed only to check
// they are JSON; invalid JSON is a usage error that shows where it breaks.
func readArgs(v string, stdin io.Reader) (json.RawMessage, error) {
	src := "--args"
	data := []byte(v)
	switch {
	case v == "-":
		src = "--args - (stdin)"
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, usageErr("%s: %v", src, err)
		}
		data = b
	case strings.HasPrefix(v, "@"):
		src = "--args " + v
		b, err := frames.ReadRegular(v[1:], frames.MaxFixtureFile)
		if err != nil {
			return nil, usageErr("%s: %v", src, err)
		}
		data = b
	}
	data = bytes.TrimSpace(data)
	if err := checkJSON(data); err != nil {
		return nil, usageErr("%s: %v", src, err)
	}
	return data, nil
}

// checkJSON reports where a JSON text breaks, with a caret under the spot.
func checkJSON(data []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		err = fmt.Errorf("trailing data after the JSON value at byte %d", dec.InputOffset())
		return err
	}
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("arguments must be a JSON object, got %s", jsonKind(v))
		}
		return nil
	}
	off := int64(len(data))
	if se, ok := err.(*json.SyntaxError); ok {
		off = se.Offset
	}
	line, col := 1, 1
	lineStart := 0
	for i := 0; i < int(off)-1 && i < len(data); i++ {
		if data[i] == '\n' {
			line, col, lineStart = line+1, 1, i+1
		} else {
			col++
		}
	}
	end := bytes.IndexByte(data[lineStart:], '\n')
	text := data[lineStart:]
	if end >= 0 {
		text = data[lineStart : lineStart+end]
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = fmt.Errorf("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid JSON at line %d, column %d: %v\n    %s\n    %s^", line, col, err, text, strings.Repeat(" ", max(col-1, 0)))
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a value"
}

// warnViolations prints each schema violation with its path; the call is
// still sent exactly as typed.
func warnViolations(w io.Writer, tool string, inputSchema any, args json.RawMessage) {
	sb, err := json.Marshal(inputSchema)
	if err != nil || inputSchema == nil {
		return
	}
	vs, err := schema.Validate(sb, args)
	if err != nil {
		fmt.Fprintf(w, "jig: warning: %s's inputSchema does not compile (%v); arguments not checked\n", tool, err)
		return
	}
	if len(vs) == 0 {
		return
	}
	fmt.Fprintf(w, "jig: warning: the arguments violate %s's inputSchema (sending them unchanged anyway):\n", tool)
	for _, v := range vs {
		fmt.Fprintf(w, "  %s\n", v)
	}
}

func writeRaw(w io.Writer, raw json.RawMessage) {
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	fmt.Fprintf(w, "%s\n", raw)
}

func isErrorResult(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}

// printResult prints a tools/call result for reading, as the TUI draws it
// (package content renders both): each content block by type,
// structuredContent, isError and partial results flagged.
func printResult(w io.Writer, ex *session.Exchange) {
	if content.IsError(ex.Result) {
		fmt.Fprintf(w, "TOOL ERROR after %s — %s\n", frames.HumanDuration(ex.Latency), content.ToolErrorWhat(ex.Result))
	} else {
		fmt.Fprintf(w, "result after %s\n", frames.HumanDuration(ex.Latency))
	}
	content.RenderTool(textLines{w}, ex.Result, nil)
}

// textLines prints a rendering plain: lines as they are, bodies indented.
type textLines struct{ w io.Writer }

func (t textLines) Line(r content.Role, text string) {
	if r == content.Partial {
		text = strings.TrimSpace(text) // its padding is for the TUI's badge
	}
	fmt.Fprintln(t.w, strings.TrimRight(text, " "))
}

func (t textLines) Body(b []byte) { fmt.Fprintln(t.w, indent(string(b))) }

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// firstNames are the first n names, with how many more: "a, b, … (12 more)".
func firstNames(names []string, n int) []string {
	if len(names) == 0 {
		return []string{"no tools"}
	}
	if len(names) <= n {
		return names
	}
	return append(append([]string(nil), names[:n]...), fmt.Sprintf("… (%d more)", len(names)-n))
}
