package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
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
}

const openLong = `Open a recorded session in the TUI: jig's own transcripts (from jig proxy,
--record, or the sessions directory), JSON-RPC line captures with a direction
per line, and the MCP Inspector's request history. See the README.

On a tools/call, r reproduces it: jig connects to the server the recording
names (or the one given with the usual target flags), loads the arguments
exactly as the client sent them, and compares the new response with the
recorded one. The reproduction is not recorded unless --record FILE is given.`

const openExample = `  jig open run.jsonl
  jig open run.jsonl --demo --release 2     # reproduce against another server
  jig open "$(jig sessions --json | jq -r '.[0].path')"
  jig open run.jsonl --text | less`

func newOpenCmd(st *streams, runF runFunc[openOptions]) *cobra.Command {
	o := &openOptions{}
	cmd := &cobra.Command{
		Use:     "open FILE [flags] [-- command args...]",
		Short:   "Step through a recorded session frame by frame, and reproduce its calls",
		Long:    openLong,
		Example: openExample,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				if dash != 1 {
					return usageErr("open takes one FILE before --, got %d", dash)
				}
				o.command = args[1:]
			} else if len(args) > 1 {
				return usageErr("open takes one FILE; a server command goes after --: jig open %s -- %s", args[0], shellQuote(args[1]))
			}
			o.releaseChanged = cmd.Flags().Changed("release")
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().BoolVar(&o.text, "text", false, "print the frames as text instead of opening the TUI")
	o.target.bind(cmd)
	return cmd
}

func runOpen(ctx context.Context, o *openOptions, st *streams) error {
	f, err := importer.Open(o.file)
	if err != nil {
		return usageErr("open %s: %v", o.file, err)
	}
	defer f.Close()
	for _, w := range f.Warnings {
		fmt.Fprintf(st.err, "jig: %s: %s\n", o.file, w)
	}
	if o.text {
		return writeFramesText(st, f)
	}
	cfg := ui.Config{Reader: f.Reader, Title: fmt.Sprintf("%s (%s, %d frames)", o.file, f.Format, f.Reader.Len()), Timeout: o.target.timeout}
	repro, err := o.reproduceOptions(f.Header.Target)
	if err != nil {
		return err
	}
	if repro != nil && o.target.record != "" && !o.target.noRecord {
		stop, err := o.target.startRecording(st, *repro, "reproduce")
		if err != nil {
			return err
		}
		defer stop()
	}
	cfg.Reproduce = repro
	cfg.Info = recordedInfo(f.Reader)
	model := ui.New(cfg)
	p := tea.NewProgram(model, tea.WithContext(ctx), tea.WithOutput(st.err), tea.WithInput(st.in))
	_, runErr := p.Run()
	model.Close()
	if runErr != nil && !errors.Is(runErr, tea.ErrInterrupted) {
		return fmt.Errorf("the TUI failed: %w", runErr)
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

// reproduceOptions is the server recorded calls are reproduced against:
// the one named on the command line, else the recording's own target (with
// --release applied to a demo target). Nil when neither names one.
func (o *openOptions) reproduceOptions(recorded json.RawMessage) (*session.Options, error) {
	tf := &o.target
	if tf.demo || tf.url != "" || tf.config != "" || len(o.command) > 0 {
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
	return frames.WriteText(st.out, f.Reader)
}
