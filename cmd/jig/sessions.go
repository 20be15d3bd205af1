package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/record"
)

// sessionsOptions are jig sessions's and jig sessions prune's.
type sessionsOptions struct {
	dir       string
	json      bool
	olderThan time.Duration
	keep      int
	dryRun    bool
}

func newSessionsCmd(st *streams, runList, runPrune runFunc[sessionsOptions]) *cobra.Command {
	o := &sessionsOptions{}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List recorded sessions, newest first",
		Long: `jig sessions lists the sessions recorded by jig proxy and by jig's own
commands: when each started, what it talked to, how many frames it holds, and
where the file is. Open one with jig open FILE.`,
		Args: noArgsOrCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return runList(cmd.Context(), o, st) },
	}
	cmd.PersistentFlags().StringVar(&o.dir, "dir", "", "the sessions directory (default $XDG_STATE_HOME/jig/sessions)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the list as JSON")
	prune := &cobra.Command{
		Use:     "prune",
		Short:   "Delete old recorded sessions",
		Example: "  jig sessions prune --older-than 720h\n  jig sessions prune --keep 50",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return runPrune(cmd.Context(), o, st) },
	}
	prune.Flags().DurationVar(&o.olderThan, "older-than", 0, "delete sessions started longer ago than this (720h is 30 days)")
	prune.Flags().IntVar(&o.keep, "keep", 0, "keep only the newest N sessions")
	prune.Flags().BoolVar(&o.dryRun, "dry-run", false, "print what would be deleted, delete nothing")
	cmd.AddCommand(prune)
	return cmd
}

func (o *sessionsOptions) directory() (string, error) {
	if o.dir != "" {
		return o.dir, nil
	}
	d, err := record.StateDir()
	if err != nil {
		return "", usageErr("%v", err)
	}
	return d, nil
}

func runSessions(ctx context.Context, o *sessionsOptions, st *streams) error {
	dir, err := o.directory()
	if err != nil {
		return err
	}
	list, err := record.List(dir)
	if err != nil {
		return usageErr("sessions directory %s: %v", dir, err)
	}
	if o.json {
		enc := json.NewEncoder(st.out)
		enc.SetIndent("", "  ")
		if list == nil {
			list = []record.Session{}
		}
		return enc.Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintf(st.err, "no recorded sessions in %s (record one with jig proxy -- COMMAND)\n", dir)
		return nil
	}
	tw := tabwriter.NewWriter(st.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED\tMODE\tTARGET\tSERVER\tFRAMES\tSIZE\tPATH")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", s.Started.Local().Format("2006-01-02 15:04:05"), s.Mode,
			frames.ShortenMiddle(s.Target, 48), orDash(frames.ShortenMiddle(s.Server, 32)), s.Frames, frames.HumanSize(int(s.Size)), s.Path)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func runPrune(ctx context.Context, o *sessionsOptions, st *streams) error {
	if o.olderThan <= 0 && o.keep <= 0 {
		return usageErr("prune needs --older-than DURATION or --keep N (or both)")
	}
	dir, err := o.directory()
	if err != nil {
		return err
	}
	if o.dryRun {
		list, err := record.List(dir)
		if err != nil {
			return usageErr("sessions directory %s: %v", dir, err)
		}
		n := 0
		for i, s := range list {
			if (o.olderThan > 0 && time.Since(s.Started) > o.olderThan) || (o.keep > 0 && i >= o.keep) {
				fmt.Fprintf(st.out, "would delete %s\n", s.Path)
				n++
			}
		}
		fmt.Fprintf(st.err, "%s (of %d in %s); nothing was deleted (--dry-run)\n", o.wouldMatch(n), len(list), dir)
		return nil
	}
	removed, err := record.Prune(dir, o.olderThan, o.keep, time.Now())
	for _, p := range removed {
		fmt.Fprintf(st.out, "deleted %s\n", p)
	}
	if err != nil {
		return usageErr("pruning %s: %v", dir, err)
	}
	fmt.Fprintf(st.err, "%s deleted\n", frames.Count(len(removed), "session"))
	return nil
}

// wouldMatch says how many sessions a dry run matched, and by what rule
// when none did, so an empty answer is never silence.
func (o *sessionsOptions) wouldMatch(n int) string {
	if n > 0 {
		return fmt.Sprintf("%s would be deleted", frames.Count(n, "session"))
	}
	var rules []string
	if o.olderThan > 0 {
		rules = append(rules, "started more than "+o.olderThan.String()+" ago")
	}
	if o.keep > 0 {
		rules = append(rules, fmt.Sprintf("beyond the newest %d", o.keep))
	}
	return "no session matches (" + strings.Join(rules, ", or ") + ")"
}
