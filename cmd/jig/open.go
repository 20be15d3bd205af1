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
	cmd := &cobra.Command{
		Use:   "open FILE",
		Short: "Step through a recorded session frame by frame",
		Long: `Open a recorded session in the TUI: jig's own transcripts (from jig proxy,
--record, or the sessions directory), JSON-RPC line captures with a direction
per line, and the MCP Inspector's request history. See the README.`,
		Example: `  jig open run.jsonl
  jig open "$(jig sessions --json | jq -r '.[0].path')"
  jig open run.jsonl --text | less`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
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
			cfg := ui.Config{Reader: f.Reader, Title: fmt.Sprintf("%s (%s, %d frames)", args[0], f.Format, f.Reader.Len())}
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
	return cmd
}

func writeFramesText(st *streams, f *importer.File) error {
	return frames.WriteText(st.out, f.Reader)
}
