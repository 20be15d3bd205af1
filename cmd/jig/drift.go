package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames/stats"
)

// driftOptions are jig drift's.
type driftOptions struct {
	baseline []string
	current  []string
	gates    string
	reports  []string
	json     bool
	tool     string
	noShapes bool
	all      bool
	opts     stats.DriftOptions
}

const driftLong = `jig drift compares the current calls with a baseline's, per tool and per
argument shape, signal by signal: latency, response size (and size dropping
while latency stays flat), JSON-RPC error and isError rates, each field's
array cardinality, numbers, categorical values, types, presence and
truncation-flag rate, free text's lexical similarity, how often answers
repeat for other arguments or byte for byte (a stale cache), and whether the
tool's schema changed. Every comparison is one of drift, no drift, or not
enough data (fewer than --min-sample values on a side), with the numbers.

By default changes are judged robustly — a rank test for whether values
moved, the median with its MAD and IQR for how far — because real responses
are skewed; --method z uses means and standard deviations instead. A change
is drift when its test statistic reaches --z and it is at least --min-effect
(relative, for medians and means) or --min-share (points, for rates).

Without --gate, jig drift exits 1 when any group drifted. With --gate
FILE, it exits 1 when a gate fails or has not enough data (unless the gate
allows it), and the drift is reported, not judged:

  {"search_orders": {"p95_latency_ms": "<300",
                     "cardinality(/structuredContent/orders)": "drop<40%",
                     "error_rate": "<1%"},
   "*": {"drift": "none"}}`

func newDriftCmd(st *streams, runF runFunc[driftOptions]) *cobra.Command {
	o := &driftOptions{}
	cmd := &cobra.Command{
		Use:   "drift --baseline RECORDINGS --current RECORDINGS [--gate FILE] [--report json=FILE,junit=FILE]",
		Short: "Statistical drift of current calls against a baseline's, per tool and argument shape; CI gates",
		Long:  driftLong,
		Example: `  jig drift --baseline 'sessions/2026-11-*' --current 'sessions/2026-12-01*'
  jig drift --baseline base/ --current today/ --gate gates.json --report json=drift.json,junit=drift.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runF(cmd.Context(), o, st) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&o.baseline, "baseline", nil, "baseline recordings: a file, a directory or a quoted glob (repeatable)")
	fl.StringArrayVar(&o.current, "current", nil, "current recordings: a file, a directory or a quoted glob (repeatable)")
	fl.StringVar(&o.gates, "gate", "", "a gates file: per tool, thresholds that fail the run (exit 1)")
	fl.StringSliceVar(&o.reports, "report", nil, "write reports: json=FILE, junit=FILE (comma-separated or repeated)")
	fl.BoolVar(&o.json, "json", false, "print the comparison as JSON")
	fl.StringVar(&o.tool, "tool", "", "only this tool")
	fl.BoolVar(&o.noShapes, "no-shapes", false, "one group per tool, whatever the arguments")
	fl.BoolVar(&o.all, "all", false, "print every comparison, not only drift")
	fl.IntVar(&o.opts.MinSample, "min-sample", 30, "the fewest values a side needs for a verdict")
	fl.Float64Var(&o.opts.Z, "z", 4, "the test statistic a change must reach to be drift")
	fl.Float64Var(&o.opts.MinEffect, "min-effect", 0.1, "the smallest relative change of a median or mean that is drift")
	fl.Float64Var(&o.opts.MinShare, "min-share", 0.02, "the smallest change of a rate or share (0.02: two points) that is drift")
	fl.Float64Var(&o.opts.MinLatencyMS, "min-latency-ms", 5, "the smallest latency change that is drift")
	fl.StringVar(&o.opts.Method, "method", stats.MethodRobust, "robust (rank test, median, MAD, IQR) or z (mean and standard deviation)")
	return cmd
}

// checkDriftOptions refuses options that cannot make a comparison.
func checkDriftOptions(o *driftOptions) error {
	switch {
	case len(o.baseline) == 0 || len(o.current) == 0:
		return usageErr("give both --baseline and --current recordings (files, directories or quoted globs)")
	case o.opts.Method != stats.MethodRobust && o.opts.Method != stats.MethodZ:
		return usageErr("--method %q: use robust or z", o.opts.Method)
	case o.opts.MinSample < 2:
		return usageErr("--min-sample %d: give 2 or more", o.opts.MinSample)
	}
	return nil
}

func runDrift(ctx context.Context, o *driftOptions, st *streams) error {
	if err := checkDriftOptions(o); err != nil {
		return err
	}
	reports, err := parseReports(o.reports)
	if err != nil {
		return err
	}
	var gates *stats.Gates
	if o.gates != "" {
		if gates, err = stats.LoadGates(o.gates); err != nil {
			return usageErr("%v", err)
		}
	}
	sopts := stats.Options{NoShapes: o.noShapes, Workers: runtime.GOMAXPROCS(0)}
	base, cur := stats.New(sopts), stats.New(sopts)
	lb, err := loadStats(ctx, "--baseline", o.baseline, base)
	if err != nil {
		return err
	}
	lc, err := loadStats(ctx, "--current", o.current, cur)
	if err != nil {
		return err
	}
	if o.tool != "" && base.Tool(o.tool) == nil && cur.Tool(o.tool) == nil {
		return unknownTool(o.tool, union(base.ToolNames(), cur.ToolNames()))
	}
	rep := stats.Compare(base, cur, o.opts)
	if o.tool != "" {
		rep = rep.Only(o.tool)
	}
	var gr *stats.GateReport
	if gates != nil {
		g := gates.Evaluate(base, cur, rep)
		gr = &g
	}
	out := driftOutput{Baseline: lb, Current: lc, Drift: rep, Gates: gr}
	if err := writeReports(reports, out); err != nil {
		return err
	}
	if o.json {
		if err := writeJSON(st.out, out); err != nil {
			return err
		}
	} else {
		printDriftOutput(st, out, o.all)
	}
	return driftExit(st, gr, rep)
}

// driftExit is jig drift's outcome: 2 for a gate that named no tool called
// (it checked nothing), 1 for a gate that failed or lacked data, or, with
// no gates, for drift or for a comparison in which no group had enough
// data on both sides (nothing compared is no "no drift").
func driftExit(st *streams, gr *stats.GateReport, rep stats.DriftReport) error {
	switch {
	case gr != nil && gr.NoTool > 0:
		fmt.Fprintf(st.err, "jig drift: %s: %d gate(s) named no tool called on either side (see above); fix the tool name, or record calls of it\n", gr.File, gr.NoTool)
		return exitWith(exitUsage)
	case gr != nil && gr.NoPath > 0:
		fmt.Fprintf(st.err, "jig drift: %s: %d gate(s) named a path no call of the tool has on either side (see above); fix the path\n", gr.File, gr.NoPath)
		return exitWith(exitUsage)
	case gr != nil && !gr.Passed():
		return exitWith(exitServerError)
	case gr == nil && rep.Drifted > 0:
		return exitWith(exitServerError)
	case gr == nil && rep.Stable == 0:
		fmt.Fprintf(st.err, "jig drift: nothing was compared: no group had %d calls on both sides (--min-sample); record more calls, or compare per tool with --no-shapes\n", rep.Options.MinSample)
		return exitWith(exitServerError)
	}
	return nil
}

// union is the sorted names in either list.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// driftOutput is jig drift's JSON and its JSON report.
type driftOutput struct {
	Baseline loaded            `json:"baseline"`
	Current  loaded            `json:"current"`
	Drift    stats.DriftReport `json:"drift"`
	Gates    *stats.GateReport `json:"gates,omitempty"`
}

// printDriftOutput prints the comparison as text: what the recordings held
// that was not used on stderr, the drift and the gates on stdout.
func printDriftOutput(st *streams, out driftOutput, all bool) {
	for _, n := range out.Baseline.Notes {
		fmt.Fprintln(st.err, "jig drift: baseline:", n)
	}
	for _, n := range out.Current.Notes {
		fmt.Fprintln(st.err, "jig drift: current:", n)
	}
	printDrift(st.out, out.Drift, all)
	if out.Gates != nil {
		printGates(st.out, *out.Gates)
	}
}

func printDrift(w io.Writer, rep stats.DriftReport, all bool) {
	for _, g := range rep.Groups {
		if g.Verdict != stats.Drift && !all {
			continue
		}
		fmt.Fprintf(w, "%s %s: %s (%d baseline, %d current calls)", g.Tool, g.Shape, strings.ToUpper(string(g.Verdict)), g.BaselineCalls, g.CurrentCalls)
		if g.Note != "" {
			fmt.Fprintf(w, ": %s", g.Note)
		}
		fmt.Fprintln(w)
		for _, f := range g.Findings {
			if f.Verdict != stats.Drift && !all {
				continue
			}
			where := f.Signal
			if f.Path != "" {
				where += " " + f.Path
			}
			z := ""
			if f.Z != 0 {
				z = fmt.Sprintf(", z %.1f", f.Z)
			}
			fmt.Fprintf(w, "  %s: %s%s: %s\n", where, f.Verdict, z, f.Detail)
		}
	}
	fmt.Fprintf(w, "%d groups drifted, %d did not, %d had not enough data (fewer than %d calls on a side)\n",
		rep.Drifted, rep.Stable, rep.NotEnough, rep.Options.MinSample)
}
