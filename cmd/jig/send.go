package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session"
)

// sendOptions are jig send's.
type sendOptions struct {
	target  targetFlags
	frames  framesFlag
	raw     []string // --raw: a message, or @FILE; repeatable, sent in order
	wait    time.Duration
	json    bool
	command []string // the server's command after --
}

const sendLong = `Send messages the SDK's typed calls cannot express — an unknown method, a
notification, a request with malformed params, a batch, or bytes that are not
JSON at all — on a live session, exactly as typed, after the handshake. Every
frame that crosses is recorded like any other (--frames, --record, jig open),
and jig prints what the server did: its answer, or silence, or its exit.

Ids are yours: a string id such as "raw-1" can never be one of jig's own
(the SDK numbers its requests 1, 2, 3…); a number is sent as typed unless
jig's own request with that id is still waiting for its answer.

jig waits --wait for the answer to a request, and the whole of --wait after a
message without an id (whatever the server sends then is its answer).
Over stdio a JSON text typed over several lines is sent as one line (a
newline ends a message there); other bytes are sent as typed.

Exit codes: 0 a result (or nothing to answer); 1 a JSON-RPC error; 2 usage
error; 3 the server could not be reached, exited, or did not answer a
request within --wait.`

const sendExample = `  jig send --raw '{"jsonrpc":"2.0","id":"raw-1","method":"tools/frobnicate"}' --demo
  jig send --raw '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}' -- node server.js
  jig send --raw '{"jsonrpc":"2.0","id":"raw-2","method":"tools/call","params":{"name":7}}' --url http://127.0.0.1:3000/mcp
  jig send --raw 'not json at all' --wait 2s -- node server.js
  jig send --raw @message.json --frames -- node server.js`

func newSendCmd(st *streams, runF runFunc[sendOptions]) *cobra.Command {
	o := &sendOptions{}
	cmd := &cobra.Command{
		Use:     "send --raw MESSAGE [flags] [-- command args...]",
		Short:   "Send raw JSON-RPC (or any bytes) on a live session and show what the server does",
		Long:    sendLong,
		Example: sendExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.raw, "raw", nil, "the message to send as typed, or @FILE (repeatable: sent in order, each after the last one's answer)")
	fl.DurationVar(&o.wait, "wait", 5*time.Second, "how long to wait for an answer (after a message without an id: how long to watch)")
	fl.BoolVar(&o.json, "json", false, "print each answer exactly as the server sent it")
	return cmd
}

func runSend(ctx context.Context, o *sendOptions, st *streams) error {
	if len(o.raw) == 0 {
		return usageErr("jig send needs --raw MESSAGE (or --raw @FILE), e.g. --raw '{\"jsonrpc\":\"2.0\",\"id\":\"raw-1\",\"method\":\"ping\"}'")
	}
	if o.wait <= 0 {
		return usageErr("--wait %s: give a positive duration, e.g. 5s", o.wait)
	}
	msgs := make([][]byte, len(o.raw))
	for i, r := range o.raw {
		b, err := readRaw(r)
		if err != nil {
			return err
		}
		msgs[i] = b
	}
	worst := worstCode(exitOK)
	err := withSession(ctx, st, &o.target, o.command, &o.frames, "send", func(ctx context.Context, s *session.Session) error {
		for _, m := range msgs {
			res, err := s.SendRaw(ctx, m, session.RawOptions{Wait: o.wait})
			if err != nil {
				return err
			}
			worst.add(o.report(st, s.Log, res))
			if strings.HasPrefix(res.Ended, "the server exited") {
				break
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return worst.err()
}

// readRaw is a --raw value: the message itself, or the bytes of @FILE.
func readRaw(v string) ([]byte, error) {
	if !strings.HasPrefix(v, "@") {
		return []byte(v), nil
	}
	b, err := frames.ReadRegular(v[1:], frames.MaxFixtureFile)
	if err != nil {
		return nil, usageErr("--raw %s: %v", v, err)
	}
	return b, nil
}

// report prints what the server did with one message: every frame that
// crossed while jig waited on stderr, the answer on stdout. It returns the
// exit code the outcome is worth.
func (o *sendOptions) report(st *streams, log *frames.Log, res *session.RawResult) int {
	start := log.Frame(0).Time
	for i := res.From; i < res.To; i++ {
		fmt.Fprintf(st.err, "jig: %s\n", frames.Summary(log, i, start))
	}
	switch {
	case len(res.Answers) > 0:
		// A batch: each frame that answered its requests, matched by id.
		code := exitOK
		for _, a := range res.Answers {
			o.writeAnswer(st, a)
			if answersWithError(a) {
				code = exitServerError
			}
		}
		if res.Ended != "" {
			fmt.Fprintf(st.err, "jig: frame #%d: %s\n", res.Sent.Seq, res.Ended)
		}
		return code
	case res.Answer != nil:
		o.writeAnswer(st, res.Answer)
		if res.Answer.Kind == frames.KindError {
			return exitServerError
		}
		return exitOK
	case res.Sent == nil:
		fmt.Fprintf(st.err, "jig: %s\n", res.Ended)
		return exitUnreachable
	}
	fmt.Fprintf(st.err, "jig: frame #%d: %s\n", res.Sent.Seq, res.Ended)
	if strings.HasPrefix(res.Ended, "the server exited") || (res.Sent.Kind == frames.KindRequest && strings.HasPrefix(res.Ended, "no answer")) {
		return exitUnreachable
	}
	return exitOK
}

// writeAnswer prints an answer on stdout: as it came with --json, else
// indented.
func (o *sendOptions) writeAnswer(st *streams, a *frames.Frame) {
	if o.json {
		writeRaw(st.out, a.Raw)
		return
	}
	pretty, _ := frames.Indent(a.Raw)
	writeRaw(st.out, pretty)
}

// answersWithError says whether an answer is an error, or a batch holding one.
func answersWithError(a *frames.Frame) bool {
	if a.Kind != frames.KindBatch {
		return a.Kind == frames.KindError
	}
	var items []json.RawMessage
	if json.Unmarshal(a.Raw, &items) != nil {
		return false
	}
	for _, it := range items {
		e := frames.Frame{Raw: it}
		e.Classify()
		if e.Kind == frames.KindError {
			return true
		}
	}
	return false
}
