package main

import (
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

func newOpenCmd(st *streams) *cobra.Command {
	var asText bool
	tf := &targetFlags{}
	cmd := &cobra.Command{
		Use:   "open FILE [flags] [-- command args...]",
		Short: "Step through a recorded session frame by frame, and reproduce its calls",
		Long: `Open a recorded session in the TUI: jig's own transcripts (from jig proxy,
--record, or the sessions directory), JSON-RPC line captures with a direction
per line, and the MCP Inspector's request history. See the README.

On a tools/call, r reproduces it: jig connects to the server the recording
names (or the one given with the usual target flags), loads the arguments
exactly as the client sent them, and compares the new response with the
recorded one. The reproduction is not recorded unless --record FILE is given.`,
		Example: `  jig open run.jsonl
  jig open run.jsonl --demo --release 2     # reproduce against another server
  jig open "$(jig sessions --json | jq -r '.[0].path')"
  jig open run.jsonl --text | less`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var command []string
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				if dash != 1 {
					return usageErr("open takes one FILE before --, got %d", dash)
				}
				command = args[1:]
			} else if len(args) > 1 {
				return usageErr("open takes one FILE; a server command goes after --: jig open %s -- %s", args[0], shellQuote(args[1]))
			}
			f, err := importer.Open(args[0])
			if err != nil {
				return usageErr("open %s: %v", args[0], err)
			}
			defer f.Close()
			for _, w := range f.Warnings {
				fmt.Fprintf(st.err, "jig: %s: %s\n", args[0], w)
			}
			if asText {
				return writeFramesText(st, f)
			}
			cfg := ui.Config{Reader: f.Reader, Title: fmt.Sprintf("%s (%s, %d frames)", args[0], f.Format, f.Reader.Len()), Timeout: tf.timeout}
			repro, err := reproduceOptions(cmd, tf, command, f.Header.Target)
			if err != nil {
				return err
			}
			if repro != nil && tf.record != "" && !tf.noRecord {
				stop, err := tf.startRecording(st, *repro, "reproduce")
				if err != nil {
					return err
				}
				defer stop()
			}
			cfg.Reproduce = repro
			if m, ok := f.Reader.(interface{ Meta(string) json.RawMessage }); ok {
				var info session.Info
				if raw := m.Meta(session.MetaSession); raw != nil && json.Unmarshal(raw, &info) == nil {
					cfg.Info = &info
				}
			}
			model := ui.New(cfg)
			p := tea.NewProgram(model, tea.WithContext(cmd.Context()), tea.WithOutput(st.err), tea.WithInput(st.in))
			_, runErr := p.Run()
			model.Close()
			if runErr != nil && !errors.Is(runErr, tea.ErrInterrupted) {
				return fmt.Errorf("the TUI failed: %w", runErr)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asText, "text", false, "print the frames as text instead of opening the TUI")
	tf.bind(cmd)
	return cmd
}

// reproduceOptions is the server recorded calls are reproduced against:
// the one named on the command line, else the recording's own target (with
// --release applied to a demo target). Nil when neither names one.
func reproduceOptions(cmd *cobra.Command, tf *targetFlags, command []string, recorded json.RawMessage) (*session.Options, error) {
	if tf.demo || tf.url != "" || tf.config != "" || len(command) > 0 {
		opts, err := tf.options(command)
		if err != nil {
			return nil, err
		}
		return &opts, nil
	}
	var t session.Target
	if len(recorded) == 0 || json.Unmarshal(recorded, &t) != nil || t.Transport == "" {
		return nil, nil
	}
	if t.Transport == session.TransportDemo && cmd.Flags().Changed("release") {
		t.Release = tf.release
	}
	return &session.Options{Target: t, ProtocolVersion: tf.protocol, Grace: tf.grace, Capabilities: tf.capabilities, Log: frames.NewLog(nil)}, nil
}

func writeFramesText(st *streams, f *importer.File) error {
	return frames.WriteText(st.out, f.Reader)
}
