package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/frames/stats"
)

// statsOptions are jig stats's.
type statsOptions struct {
	recordings []string
	tool       string
	json       bool
	noShapes   bool
}

const statsLong = `jig stats reads recordings (jig's own, streamed in bounded memory, and any
format jig open imports) and prints, per tool and per argument shape
(argument names, with numbers bucketed by powers of two so limit: 500 calls
are not mixed with limit: 10 calls): calls, JSON-RPC error and isError
rates, latency p50/p95/p99, response size, and for every field of the
results its array cardinalities, numeric moments (mean, sd, median, MAD),
categorical value frequencies with their entropy, truncation-flag rates,
and how often answers repeat (the same answer to other arguments, or the
same bytes: a stale cache).

Recordings that are cut off, agent transcripts (the client's rendering,
not the server's answers), files that are no recording, calls that got no
response, calls that shared an id with another in flight, responses to no
call in flight and tools whose schema changed within the recordings are
each counted and reported, never silently mixed in.`

func newStatsCmd(st *streams, runF runFunc[statsOptions]) *cobra.Command {
	o := &statsOptions{}
	cmd := &cobra.Command{
		Use:   "stats RECORDING... [--tool NAME] [--json]",
		Short: "Per-tool statistics of recorded calls: latency, sizes, cardinalities, values, error rates",
		Long:  statsLong,
		Example: `  jig stats ~/.local/state/jig/sessions/
  jig stats 'sessions/2026-12-*' --tool search_orders --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.recordings = args
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().StringVar(&o.tool, "tool", "", "only this tool")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the statistics as JSON")
	cmd.Flags().BoolVar(&o.noShapes, "no-shapes", false, "one group per tool, whatever the arguments")
	return cmd
}

// loaded is what reading recordings into a Collector found.
type loaded struct {
	Files      int      `json:"files"`
	Frames     int64    `json:"frames"`
	Unanswered int      `json:"unanswered_calls"`
	Cancelled  int      `json:"cancelled_calls"`
	Reused     int      `json:"reused_ids"`
	Stray      int      `json:"stray_responses"`
	Notes      []string `json:"notes,omitempty"`
}

// add counts a recording's feed, read, and notes what it could not use.
func (l *loaded) add(path string, feed *stats.Feed, info importer.Streamed) {
	l.Files++
	l.Unanswered += feed.Unanswered
	l.Cancelled += feed.Cancelled
	l.Reused += feed.Reused
	l.Stray += feed.Stray
	note := func(format string, a ...any) { l.Notes = append(l.Notes, path+": "+fmt.Sprintf(format, a...)) }
	if len(info.Warnings) > 0 {
		note("%s could not be read (%s); the rest is used", frames.Count(len(info.Warnings), "line"), info.Warnings[0])
	}
	if feed.Unanswered > 0 {
		note("%s got no response (the recording ends first); not counted", frames.Count(feed.Unanswered, "tool call"))
	}
	if feed.Forgotten > 0 {
		note("%d of them were let go unanswered while more than %d calls waited at once (a response after that is counted as answering no call)", feed.Forgotten, frames.MaxOpenCalls)
	}
	if feed.Cancelled > 0 {
		note("%s cancelled (notifications/cancelled) before any response; not counted", frames.Count(feed.Cancelled, "tool call"))
	}
	if feed.Reused > 0 {
		note("%s shared an id with another call still in flight: which response answers which cannot be told; not counted", frames.Count(feed.Reused, "tool call"))
	}
	if feed.Stray > 0 {
		note("%s answered no call in flight (its request is not in the recording, or was answered already); not counted", frames.Count(feed.Stray, "response"))
	}
}

// loadStats streams the recordings into c; what names them in an error
// ("recordings", "baseline"). When none of them is a recording, it is an
// error naming each file and why: statistics of nothing are no answer.
func loadStats(ctx context.Context, what string, args []string, c *stats.Collector) (loaded, error) {
	files, err := recordingFiles(args)
	if err != nil {
		return loaded{}, err
	}
	var l loaded
	var skipped []string
	for _, path := range files {
		if ctx.Err() != nil {
			return l, ctx.Err()
		}
		feed := c.Session()
		var n int64
		info, err := importer.StreamSpans(path, func(f *frames.Frame, spans []frames.Span) error {
			n++
			feed.AddSpans(f, spans)
			return nil
		})
		var ne *importer.NotRecordingError
		switch {
		case errors.As(err, &ne):
			l.Notes = append(l.Notes, fmt.Sprintf("%s: skipped: %v", path, err))
			skipped = append(skipped, err.Error())
			continue
		case err != nil:
			return l, usageErr("recording %s: %v", path, err)
		}
		if info.Agent {
			// Undo nothing: an agent transcript's calls are counted apart.
			l.Notes = append(l.Notes, fmt.Sprintf("%s: an agent transcript (%s): its results are the client's rendering, not the server's answers; its calls are in the statistics as recorded", path, info.Format))
		}
		feed.Close()
		l.Frames += n
		l.add(path, feed, info)
	}
	if l.Files == 0 && len(skipped) > 0 {
		return l, nothingRead(what, skipped)
	}
	if l.Files > 0 && len(c.ToolNames()) == 0 {
		return l, noCalls(what, files, skipped, l)
	}
	return l, nil
}

// noCalls is the error of a command whose recordings hold no tools/call
// answered: statistics of nothing look like a quiet server.
func noCalls(what string, files, skipped []string, l loaded) error {
	names := files
	if len(names) > 3 {
		names = append(names[:3:3], fmt.Sprintf("and %d more", len(files)-3))
	}
	msg := fmt.Sprintf("%s: no tools/call with a response in %s (%s: %s)", what,
		frames.Count(l.Files, "recording"), frames.Count(l.Frames, "frame"), strings.Join(names, ", "))
	for _, n := range l.Notes {
		msg += "; " + n
	}
	return usageErr("%s; name recordings that hold tool calls (jig traffic --record, jig proxy --record, or jig sessions to list them)", msg)
}

// unknownTool is the error of --tool naming a tool no recording called.
func unknownTool(tool string, called []string) error {
	return usageErr("--tool %s: no recording called it%s; the tools called are %s", tool, aside(didYouMean(tool, called)), strings.Join(called, ", "))
}

func runStats(ctx context.Context, o *statsOptions, st *streams) error {
	c := stats.New(stats.Options{NoShapes: o.noShapes, Workers: runtime.GOMAXPROCS(0)})
	l, err := loadStats(ctx, "recordings", o.recordings, c)
	if err != nil {
		return err
	}
	if o.tool != "" && c.Tool(o.tool) == nil {
		return unknownTool(o.tool, c.ToolNames())
	}
	rep := c.Report(o.tool)
	if o.json {
		return writeJSON(st.out, struct {
			Read loaded `json:"read"`
			stats.Report
		}{l, rep})
	}
	for _, n := range l.Notes {
		fmt.Fprintln(st.err, "jig stats:", n)
	}
	if len(rep.Tools) == 0 {
		what := "no tool calls"
		if o.tool != "" {
			what = "no calls of " + o.tool
		}
		fmt.Fprintf(st.err, "jig stats: %s in %s (%s)\n", what, frames.Count(l.Files, "recording"), frames.Count(l.Frames, "frame"))
		return nil
	}
	rep.WriteText(st.out)
	return nil
}
