package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/importer"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/attribute"
	"github.com/mcpjig/jig/session/replay"
)

// attributeOptions are jig attribute's.
type attributeOptions struct {
	target  targetFlags
	frames  framesFlag
	a, b    string   // FILE#SEQ
	command []string // the server's command after --
	tool    string   // --tool: the server's tool, when the recorded names do not say
	pinDir  string
	pin     string // --pin FILE: every step, in order, as one scenario
	json    bool
}

const attributeLong = `Attribute the difference between two recorded calls of one tool to the
arguments that changed, one at a time. A and B are FILE#SEQ, a tools/call
request or response frame of any file jig open reads (an agent transcript
too), or FILE alone for its last tools/call.

The seed transcript's second call changed customer, since and limit at
once; any of the three could have turned an empty result into twenty rows.
jig builds the single-variable paths from A's arguments to B's: with up to 4
arguments differing, every subset of the changes (so every order of them is
a path); beyond 4, each argument alone from A, then B. It runs each set of
arguments once against the live server, in one session with nothing else in
flight, and reports which change moved the result and how, computed from the
results (array counts, truncated and other partial markers, isError, JSON-RPC
error codes, size), and where an argument's effect depends on the others.

Every step's frames are recorded (--record FILE, or the sessions directory);
--pin-dir DIR pins every step as a golden fixture. A server that fails
mid-run keeps the finished steps and names the one that failed (exit 3).

Exit codes: 0 every step ran; 2 bad input; 3 the server could not be
reached or stopped answering.`

const attributeExample = `  jig attribute conversation.json#2 conversation.json#4 --demo
  jig attribute session.jsonl#7 session.jsonl#11 -- node server.js
  jig attribute run.jsonl#5 run.jsonl#9 --url http://127.0.0.1:3901/mcp --pin-dir fixtures/attribution`

func newAttributeCmd(st *streams, runF runFunc[attributeOptions]) *cobra.Command {
	o := &attributeOptions{}
	cmd := &cobra.Command{
		Use:     "attribute A B [flags] [-- command args...]",
		Short:   "Change one argument at a time from call A to call B, and say which change moved the result",
		Long:    attributeLong,
		Example: attributeExample,
		Args:    cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.a, o.b = args[0], args[1]
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				if dash != 2 {
					return usageErr("attribute takes two calls A B before --, got %d", dash)
				}
				o.command = args[2:]
			} else if len(args) > 2 {
				return usageErr("attribute takes two calls A B; a server command goes after --: jig attribute %s %s -- %s", args[0], args[1], shellQuote(args[2]))
			}
			return runF(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.frames.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.tool, "tool", "", "the server's tool to call (default: the tool both calls name, mapped to the server's)")
	fl.StringVar(&o.pinDir, "pin-dir", "", "pin every step as a golden fixture of its own in DIR (TOOL-N-STEP.json)")
	fl.StringVar(&o.pin, "pin", "", "pin the whole attribution as one scenario fixture: every step in order, replayed in one session")
	fl.BoolVar(&o.json, "json", false, "print the plan, every step and the findings as JSON")
	return cmd
}

func runAttribute(ctx context.Context, o *attributeOptions, st *streams) error {
	a, aFile, err := loadRecorded(o.a)
	if err != nil {
		return err
	}
	b, bFile, err := loadRecorded(o.b)
	if err != nil {
		return err
	}
	if err := o.chooseTarget(aFile); err != nil {
		return err
	}
	if o.pinDir != "" {
		if err := os.MkdirAll(o.pinDir, 0o755); err != nil {
			return usageErr("--pin-dir %s: %v", o.pinDir, err)
		}
	}
	if o.pin != "" {
		if err := checkOutput("--pin", o.pin, spaced("--pin"), "attribution.json", false, false); err != nil {
			return err
		}
		if _, err := os.Stat(o.pin); err == nil {
			return usageErr("--pin %s: the fixture exists; pick another file", o.pin)
		}
	}
	ends := [2]attribute.End{end(o.a, a, aFile), end(o.b, b, bFile)}
	return withSession(ctx, st, &o.target, o.command, &o.frames, "attribute", func(ctx context.Context, s *session.Session) error {
		tool, err := o.serverTool(ctx, s, a, b)
		if err != nil {
			return err
		}
		plan, err := attribute.NewPlan(tool, a.Arguments, b.Arguments)
		if err != nil {
			// Which call's arguments: the error starts with "the first" or "the second".
			return usageErr("attribute %s %s: %v (edit them into an object, or pick another call)", o.a, o.b, err)
		}
		fmt.Fprintf(st.err, "jig: %s: %d calls to make (%d arguments differ)\n", tool, len(plan.Points), len(plan.Vars))
		run, runErr := attribute.Execute(ctx, s, plan, func(step *attribute.Step) {
			pt := plan.Points[step.Point]
			fmt.Fprintf(st.err, "jig: step %d/%d %s: %s\n", step.Point+1, len(plan.Points), pt.Label(len(plan.Vars)), stepOutcome(step))
		})
		if err := o.report(st, run, ends); err != nil {
			return err
		}
		if o.pinDir != "" {
			if err := o.pinSteps(ctx, st, s, run); err != nil {
				return err
			}
		}
		if o.pin != "" {
			if err := o.pinScenario(ctx, st, s, run); err != nil {
				return err
			}
		}
		if o.target.recorded != "" {
			fmt.Fprintf(st.err, "jig: every step's frames are in %s (jig open %s)\n", o.target.recorded, shellQuote(o.target.recorded))
		}
		return runErr
	})
}

// chooseTarget falls back to the server the recording names, when the
// command line names none and the recording is jig's own.
func (o *attributeOptions) chooseTarget(f *importer.File) error {
	tf := &o.target
	if tf.demo || tf.url != "" || tf.config != "" || len(o.command) > 0 {
		return nil
	}
	var t session.Target
	if !f.Agent && json.Unmarshal(f.Header.Target, &t) == nil && t.Transport == session.TransportDemo {
		tf.demo, tf.release = true, max(t.Release, 1)
		return nil
	}
	return usageErr("attribute %s %s: name the server to run the steps against: --demo, --url URL, --config FILE --server NAME, or -- command args (a transcript is a record of a run, not a server)", o.a, o.b)
}

// serverTool is the tool both calls mean, as the server names it.
func (o *attributeOptions) serverTool(ctx context.Context, s *session.Session, a, b fixture.Call) (string, error) {
	_, tools, err := s.ListTools(ctx)
	if err != nil {
		return "", err
	}
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	if o.tool != "" {
		if s.Tool(o.tool) == nil {
			return "", usageErr("--tool %s: the server lists no such tool (its tools: %s)", o.tool, strings.Join(names, ", "))
		}
		return o.tool, nil
	}
	ma, mb := importer.MatchTool(a.Name, names), importer.MatchTool(b.Name, names)
	for _, m := range []struct {
		arg string
		m   importer.ToolMatch
	}{{o.a, ma}, {o.b, mb}} {
		if !m.m.OK() {
			return "", usageErr("%s calls %s: %s (its tools: %s); name the tool with --tool", m.arg, m.m.Written, m.m.How, strings.Join(names, ", "))
		}
	}
	if ma.Name != mb.Name {
		return "", usageErr("%s calls %s and %s calls %s: attribution changes the arguments of one tool; pick two calls of the same tool", o.a, ma.Name, o.b, mb.Name)
	}
	return ma.Name, nil
}

func stepOutcome(s *attribute.Step) string {
	if s.Err != nil {
		return "FAILED: " + s.Err.Error()
	}
	return s.Summary.String()
}

// end describes one recorded call for the report.
func end(label string, c fixture.Call, f *importer.File) attribute.End {
	e := attribute.End{Label: label, Rendering: f.Agent && f.Format != importer.FormatClaudeDesktopLog && f.Format != importer.FormatVSCodeLog}
	if c.Answered() {
		s := attribute.Summarize(c.Result, c.Error)
		e.Recorded = &s
	}
	return e
}

func (o *attributeOptions) report(st *streams, run *attribute.Run, ends [2]attribute.End) error {
	if !o.json {
		return run.WriteText(st.out, ends[0], ends[1])
	}
	type step struct {
		Step      int             `json:"step"`
		Label     string          `json:"label"`
		Arguments json.RawMessage `json:"arguments"`
		Request   int64           `json:"request_frame,omitempty"`
		Response  int64           `json:"response_frame,omitempty"`
		Summary   string          `json:"summary,omitempty"`
		Failed    string          `json:"failed,omitempty"`
	}
	out := struct {
		Tool      string               `json:"tool"`
		From      string               `json:"from"`
		To        string               `json:"to"`
		Server    string               `json:"server"`
		Variables []attribute.Variable `json:"variables"`
		Steps     []step               `json:"steps"`
		Findings  []string             `json:"findings"`
		Report    []string             `json:"report"`
	}{Tool: run.Plan.Tool, From: ends[0].Label, To: ends[1].Label, Server: run.Server, Variables: run.Plan.Vars, Report: run.Lines(ends[0], ends[1])}
	for _, s := range run.Steps {
		pt := run.Plan.Points[s.Point]
		j := step{Step: s.Point + 1, Label: pt.Label(len(run.Plan.Vars)), Arguments: pt.Arguments, Summary: stepOutcome(s)}
		if s.Err != nil {
			j.Failed, j.Summary = s.Err.Error(), ""
		}
		if s.Exchange != nil && s.Exchange.Request != nil {
			j.Request = s.Exchange.Request.Seq
		}
		if s.Exchange != nil && s.Exchange.Response != nil {
			j.Response = s.Exchange.Response.Seq
		}
		out.Steps = append(out.Steps, j)
	}
	for _, f := range run.Analyze() {
		out.Findings = append(out.Findings, f.Sentence)
	}
	enc := json.NewEncoder(st.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// pinSteps pins every answered step as a golden fixture, without probing:
// a probe would send more calls, and the steps must stay the only ones.
func (o *attributeOptions) pinSteps(ctx context.Context, st *streams, s *session.Session, run *attribute.Run) error {
	opts, err := o.target.options(o.command)
	if err != nil {
		return err
	}
	tool := s.Tool(run.Plan.Tool)
	var def json.RawMessage
	if tool != nil {
		def, _ = json.Marshal(tool)
	}
	for _, step := range run.Steps {
		if !step.Answered() || step.Exchange == nil {
			continue
		}
		pt := run.Plan.Points[step.Point]
		label := pt.Label(len(run.Plan.Vars))
		slug := strings.NewReplacer(" + ", "+", " ", "-", "/", "-").Replace(label)
		file := filepath.Join(o.pinDir, fmt.Sprintf("%s-%d-%s.json", run.Plan.Tool, step.Point+1, slug))
		f, err := replay.Pin(ctx, s, step.Exchange, replay.PinOptions{
			Scenario: fmt.Sprintf("%s step %d (%s)", run.Plan.Tool, step.Point+1, label),
			Note:     fmt.Sprintf("attribution step %d: %s, from %s toward %s", step.Point+1, label, o.a, o.b),
			Target:   opts.Target,
			Tool:     def,
			Probe:    0,
		})
		if err != nil {
			return err
		}
		if err := f.Save(file); err != nil {
			return usageErr("--pin-dir %s: %v", o.pinDir, err)
		}
		if a := replay.AdviseReplay(file, f); a.Command != "jig replay "+file {
			fmt.Fprintf(st.err, "jig: pinned step %d as %s; %s\n", step.Point+1, file, a.Line())
		} else {
			fmt.Fprintf(st.err, "jig: pinned step %d as %s\n", step.Point+1, file)
		}
	}
	return nil
}

// pinScenario pins every answered step, in order, as one scenario: replayed,
// it makes the same one-argument steps in one session and fails on drift in
// any of them.
func (o *attributeOptions) pinScenario(ctx context.Context, st *streams, s *session.Session, run *attribute.Run) error {
	opts, err := o.target.options(o.command)
	if err != nil {
		return err
	}
	var exs []*session.Exchange
	for _, step := range run.Steps {
		if step.Answered() && step.Exchange != nil {
			exs = append(exs, step.Exchange)
		}
	}
	def, _ := json.Marshal(s.Tool(run.Plan.Tool))
	f, err := replay.PinScenario(ctx, s, exs, replay.PinOptions{
		Scenario: strings.TrimSuffix(filepath.Base(o.pin), filepath.Ext(o.pin)),
		Note:     fmt.Sprintf("attribution of %s from %s to %s, one argument at a time (%d steps)", run.Plan.Tool, o.a, o.b, len(exs)),
		Target:   opts.Target,
		Tool:     def,
		Probe:    0,
	})
	if err != nil {
		return err
	}
	if dir := filepath.Dir(o.pin); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return usageErr("--pin %s: %v", o.pin, err)
		}
	}
	if err := f.Save(o.pin); err != nil {
		return usageErr("--pin %s: %v", o.pin, err)
	}
	fmt.Fprintf(st.err, "jig: pinned the %d steps as one scenario in %s; %s\n", len(exs), o.pin, replay.AdviseReplay(o.pin, f).Line())
	return nil
}
