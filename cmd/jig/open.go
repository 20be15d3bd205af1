package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/record"
	"github.com/mcpjig/jig/session/replay"
	"github.com/mcpjig/jig/ui"
)

// openOptions are jig open's. The target flags name the server recorded
// calls are reproduced against; releaseChanged says --release was typed.
type openOptions struct {
	target         targetFlags
	file           string
	command        []string // the server's command after --
	text           bool
	releaseChanged bool
	secretEnv      []string
	dir            string // --dir: the sessions the picker lists, without FILE
}

const openLong = `Open a recorded session in the TUI: jig's own transcripts (from jig proxy,
--record, or the sessions directory), JSON-RPC line captures with a direction
per line, the MCP Inspector's request history, and agent transcripts — the
bug report as it arrives: Anthropic Messages API requests, responses and
claude.ai exports, OpenAI Chat Completions and Responses (JSON or JSONL),
Claude Code sessions, Claude Desktop mcp-server-*.log and VS Code MCP output
logs. The format is found from the content. See the README.

An agent transcript is a record, not a reproduction: each tool call is the
model's arguments exactly as written, and its result the client's rendering.
--text lists the calls and what the transcript did not pin for each.

On a tools/call, r reproduces it: jig connects to the server the recording
names (or the one given with the usual target flags), loads the arguments
exactly as the client sent them, and compares the new response with the
recorded one. The reproduction is not recorded unless --record FILE is given.`

const openExample = `  jig open run.jsonl
  jig open                                  # pick one of the recorded sessions, newest first
  jig open conversation.json --demo          # an agent transcript; r reproduces a call
  jig open ~/.claude/projects/-home-dev-shop/SESSION.jsonl -- node server.js
  jig open run.jsonl --demo --release 2     # reproduce against another server
  jig open "$(jig sessions --json | jq -r '.[0].path')"
  jig open run.jsonl --text | less`

func newOpenCmd(st *streams, runF runFunc[openOptions]) *cobra.Command {
	o := &openOptions{}
	cmd := &cobra.Command{
		Use:     "open [FILE] [flags] [-- command args...]",
		Short:   "Step through a recorded session frame by frame, and reproduce its calls",
		Long:    openLong,
		Example: openExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || cmd.ArgsLenAtDash() == 0 {
				// No file: pick one of the recorded sessions.
				o.command = args
				o.releaseChanged = cmd.Flags().Changed("release")
				return runF(cmd.Context(), o, st)
			}
			o.file = args[0]
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				if dash != 1 {
					return usageErr("open takes one FILE before --, got %d", dash)
				}
				o.command = args[1:]
			} else if urlAfter(cmd, args, 1) {
				o.command = args[1:]
			} else if len(args) > 1 {
				return usageErr("open takes one FILE; a server command goes after --: jig open %s -- %s", args[0], shellQuote(args[1]))
			}
			o.releaseChanged = cmd.Flags().Changed("release")
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().BoolVar(&o.text, "text", false, "print the frames as text instead of opening the TUI")
	cmd.Flags().StringVar(&o.dir, "dir", "", "without FILE: the sessions directory to pick a recording from (default $XDG_STATE_HOME/jig/sessions, as jig sessions)")
	o.target.bind(cmd)
	bindSecretEnv(cmd, &o.secretEnv)
	return cmd
}

// openRecording opens what jig open shows, or says what to open instead.
func openRecording(file string) (*importer.File, error) {
	f, err := importer.Open(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usageErr("open %s: no such file (jig sessions lists the recordings; jig open with no FILE picks one)", file)
	case err != nil:
		return nil, usageErr("open %s: %v", file, err)
	}
	return f, nil
}

func runOpen(ctx context.Context, o *openOptions, st *streams) error {
	red, err := runRedactor(st, o.secretEnv) // --text prints through it too
	if err != nil {
		return err
	}
	if o.file == "" {
		if o.file, err = pickSession(ctx, o, st); err != nil || o.file == "" {
			return err
		}
	}
	f, err := openRecording(o.file)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, w := range f.Warnings {
		fmt.Fprintf(st.err, "jig: %s: %s\n", o.file, w)
	}
	if o.text {
		return writeOpenText(st, o.file, f)
	}
	cfg := ui.Config{Reader: f.Reader, Title: fmt.Sprintf("%s (%s)", o.file, f.Format), Timeout: o.target.timeout,
		Record: f.Record()}
	repro, err := o.reproduceOptions(f.Header.Target)
	if err != nil {
		return err
	}
	shareRedactor(st, repro)
	cfg.Redact = red
	rec := o.recordReproductions(st, repro)
	defer rec.stop()
	if o.target.record != "" && repro != nil && !o.target.noRecord {
		// A file named is checked and created at once, as every
		// command's --record is; the default one only when r connects.
		if _, err := rec.start(); err != nil {
			return err
		}
	}
	if repro != nil && !o.target.noRecord {
		cfg.RecordReproduction = rec.start
	}
	o.setReproduce(&cfg, repro)
	describeRecording(&cfg, f)
	model := ui.New(cfg)
	p := tea.NewProgram(model, tea.WithContext(ctx), tea.WithOutput(st.rawErr), tea.WithInput(st.in))
	_, runErr := p.Run()
	model.Close()
	if in := interruption(ctx); in != nil {
		return in
	}
	if runErr != nil && !errors.Is(runErr, tea.ErrInterrupted) {
		return tuiFailed(runErr)
	}
	return nil
}

// describeRecording fills in what the TUI shows of f besides its frames:
// where it is cut, the agent's notes on each call, the recorded handshake,
// the recorded contract violations.
func describeRecording(cfg *ui.Config, f *importer.File) {
	if f.Cut != nil {
		cfg.Cut = fmt.Sprintf("CUT at line %d: %d B not read", f.Cut.Line, f.Cut.Bytes)
	}
	if f.Agent {
		cfg.CallNotes = func(i int) []string { return callNotes(f, i) }
	}
	cfg.Info = recordedInfo(f.Reader)
	if m := recordedViolations(f.Reader); m.Len() > 0 {
		cfg.Violations = m.Of
	}
}

// reproductions records the sessions r opens from jig open: the first
// start begins the recording of their Log, stop ends it.
type reproductions struct {
	mu     sync.Mutex
	o      *openOptions
	st     *streams
	repro  *session.Options
	closer func()
}

// recordReproductions is what records repro's sessions (nothing when nil).
func (o *openOptions) recordReproductions(st *streams, repro *session.Options) *reproductions {
	if repro != nil && repro.Log == nil {
		repro.Log = frames.NewLog(nil)
	}
	return &reproductions{o: o, st: st, repro: repro}
}

// start begins recording (once) and returns the file it records to.
func (r *reproductions) start() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closer == nil {
		c, err := r.o.target.startRecording(r.st, *r.repro, "reproduce")
		if err != nil {
			return "", err
		}
		r.closer = c
	}
	return r.o.target.recorded, nil
}

func (r *reproductions) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closer != nil {
		r.closer()
	}
}

// writeOpenText is jig open --text: the frames, and where the file is cut
// off when it is.
func writeOpenText(st *streams, file string, f *importer.File) error {
	if err := writeFramesText(st, f); err != nil {
		return err
	}
	if f.Cut != nil {
		// Beside the last frame too, where a reader of the text looks.
		fmt.Fprintf(st.out, "\n⚠ %s is cut off at line %d: its last %d bytes, from byte %d, are an incomplete record and were not read; the frames above are all that was read\n",
			file, f.Cut.Line, f.Cut.Bytes, f.Cut.Offset)
	}
	return nil
}

// recordedInfo is the handshake a recording holds, or nil.
func recordedInfo(r frames.Reader) *session.Info {
	m, ok := r.(interface{ Meta(string) json.RawMessage })
	if !ok {
		return nil
	}
	var info session.Info
	if raw := m.Meta(session.MetaSession); raw != nil && json.Unmarshal(raw, &info) == nil {
		return &info
	}
	return nil
}

// recordedViolations are the contract violations a live check (jig proxy
// --contracts, the TUI) wrote into a jig recording, by response frame.
func recordedViolations(r frames.Reader) *contract.Marks {
	var metas []frames.Meta
	switch x := r.(type) {
	case *frames.Indexed:
		metas = x.Metas
	case *frames.Transcript:
		metas = x.Metas
	}
	m, _ := contract.MarksOf(metas)
	return m
}

// reproduceOptions is the server recorded calls are reproduced against:
// the one named on the command line, else the recording's own target (with
// --release applied to a demo target). Nil when neither names one.
// setReproduce gives the TUI the server r reproduces on, unless it is the
// recording's own target and that holds a redacted secret: jig never sends
// a placeholder as the value, so r says why instead.
func (o *openOptions) setReproduce(cfg *ui.Config, repro *session.Options) {
	cfg.Reproduce = repro
	if repro == nil || o.targetGiven() {
		return
	}
	if why := placeholderTarget(repro.Target); why != "" {
		cfg.Reproduce, cfg.RecordReproduction, cfg.ReproduceRefused = nil, nil, why
	}
}

// targetGiven reports whether the command line names the server to
// reproduce on (instead of the recording's own target).
func (o *openOptions) targetGiven() bool {
	tf := &o.target
	return tf.demo || tf.url != "" || tf.config != "" || len(o.command) > 0
}

// placeholderTarget says where a recorded target holds a placeholder jig
// wrote for a secret (its URL, command, a header, an env variable) and how
// to give the value, or "".
func placeholderTarget(t session.Target) string {
	where := ""
	if field, _ := replay.UnsentPlaceholder(t); field != "" {
		where = strings.TrimPrefix(field, "target.")
	}
	for _, kv := range []struct {
		what string
		m    map[string]string
	}{{"header", t.Headers}, {"env", t.Env}} {
		for k, v := range kv.m {
			if where == "" && strings.Contains(v, "[REDACTED") {
				where = kv.what + " " + k
			}
		}
	}
	if where == "" {
		return ""
	}
	// One status line, 80 columns: jig never sends a placeholder as the value.
	return "the recording's " + where + " has a redacted secret: reopen with --url URL (or -- CMD)"
}

func (o *openOptions) reproduceOptions(recorded json.RawMessage) (*session.Options, error) {
	tf := &o.target
	if o.targetGiven() {
		opts, err := tf.options(o.command)
		if err != nil {
			return nil, err
		}
		return &opts, nil
	}
	var t session.Target
	if len(recorded) == 0 || json.Unmarshal(recorded, &t) != nil || t.Transport == "" {
		return nil, nil
	}
	if t.Transport == session.TransportDemo && o.releaseChanged {
		t.Release = tf.release
	}
	return &session.Options{Target: t, ProtocolVersion: tf.protocol, Grace: tf.grace, Capabilities: tf.capabilities, Log: frames.NewLog(nil)}, nil
}

func writeFramesText(st *streams, f *importer.File) error {
	if f.Agent {
		if err := writeCallsText(st.out, f); err != nil {
			return err
		}
	}
	if err := frames.WriteText(st.out, f.Reader); err != nil {
		return err
	}
	return writeViolationsText(st.out, f.Reader)
}

// writeViolationsText lists the contract violations recorded with the
// frames, after them, each naming its frame.
func writeViolationsText(w io.Writer, r frames.Reader) error {
	m := recordedViolations(r)
	if m.Len() == 0 {
		return nil
	}
	var b strings.Builder
	frameWord := "frames"
	if m.Len() == 1 {
		frameWord = "frame"
	}
	fmt.Fprintf(&b, "\ncontract violations recorded (on %d %s):\n", m.Len(), frameWord)
	for i := range r.Len() {
		for _, v := range m.Of(r.Frame(i).Seq) {
			fmt.Fprintf(&b, "  ✗ %s\n", v)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCallsText lists an agent transcript's tool calls before its frames:
// what the model asked for, what the client showed back, and what the
// transcript did not pin, so that the reader knows what a reproduction
// must hold still.
func writeCallsText(w io.Writer, f *importer.File) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", f.Record())
	for _, c := range f.Calls {
		seqs := fmt.Sprintf("#%d", f.Frame(c.Request).Seq)
		if c.Response >= 0 {
			seqs += fmt.Sprintf(" → #%d", f.Frame(c.Response).Seq)
		}
		fmt.Fprintf(&b, "call %d · %s · %s", c.N, seqs, c.Where)
		if c.Context != "" {
			fmt.Fprintf(&b, " · %s", c.Context)
		}
		if !c.Time.IsZero() {
			fmt.Fprintf(&b, " · %s", c.Time.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(&b, "\n  %s %s\n", c.Name, oneLine(c.Arguments))
		if c.Said != "" {
			fmt.Fprintf(&b, "  the assistant said: %q\n", c.Said)
		}
		switch {
		case c.Wire:
		case c.Rendering != nil:
			fmt.Fprintf(&b, "  the client showed back: %s\n", c.Rendering.Summary())
		default:
			b.WriteString("  the transcript holds no result\n")
		}
		b.WriteString("  not pinned by the transcript:\n")
		for _, s := range f.NotPinned(c) {
			fmt.Fprintf(&b, "    %s\n", s)
		}
	}
	b.WriteString("\nframes:\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// callNotes are the TUI's lines on the transcript's call at frame i.
func callNotes(f *importer.File, i int) []string {
	c := f.Call(i)
	if c == nil {
		return nil
	}
	out := []string{fmt.Sprintf("call %d of the transcript, at %s", c.N, c.Where)}
	if c.Said != "" {
		out = append(out, fmt.Sprintf("the assistant said: %q", c.Said))
	}
	if c.ArgumentsProblem != "" {
		out = append(out, "the arguments "+c.ArgumentsProblem+": edit them into an object to reproduce the call")
	}
	out = append(out, "not pinned by the transcript:")
	for _, s := range f.NotPinned(*c) {
		out = append(out, "  "+s)
	}
	return out
}

// oneLine is JSON on one line, for listings; text that is not JSON is
// quoted as it is.
func oneLine(raw []byte) string {
	if len(raw) == 0 {
		return "(no arguments)"
	}
	out, ok := frames.Compact(raw)
	if !ok {
		return fmt.Sprintf("%q", raw)
	}
	return string(out)
}

// pickSession is jig open without FILE: on a terminal, a picker of the
// recorded sessions, newest first ("" if the user picked none); elsewhere
// (or with --text) a usage error that lists the newest and says how to
// name one.
func pickSession(ctx context.Context, o *openOptions, st *streams) (string, error) {
	so := sessionsOptions{dir: o.dir}
	dir, err := so.directory()
	if err != nil {
		return "", err
	}
	list, err := record.List(dir)
	if err != nil {
		return "", usageErr("sessions directory %s: %v", dir, err)
	}
	if len(list) == 0 {
		return "", usageErr("open: no FILE given, and there are no recorded sessions in %s to pick from: give a recording (jig open FILE), or record one with jig proxy -- COMMAND or --record FILE", dir)
	}
	if o.text || !isTerminal(st) {
		var b strings.Builder
		for i, s := range list[:min(len(list), 5)] {
			fmt.Fprintf(&b, "\n  %s  %s  %s", s.Started.Local().Format("2006-01-02 15:04:05"), frames.ShortenMiddle(s.Target, 40), s.Path)
			if i == 0 {
				b.WriteString("   (newest)")
			}
		}
		return "", usageErr("open: no FILE given; on a terminal jig open shows a picker, here name one (jig sessions lists all %d):%s", len(list), st.redact.String(b.String()))
	}
	picker := ui.NewSessionPicker(dir, list, st.redact)
	p := tea.NewProgram(picker, tea.WithContext(ctx), tea.WithOutput(st.rawErr), tea.WithInput(st.in))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrInterrupted) {
		return "", tuiFailed(err)
	}
	if in := interruption(ctx); in != nil {
		return "", in
	}
	return picker.Chosen(), nil
}
