package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/replay"
)

// surfaceSaveOptions are jig surface save's.
type surfaceSaveOptions struct {
	target  targetFlags
	frames  framesFlag
	output  string
	force   bool
	command []string
	// targetArgs are the target flags as typed, for the diff command the
	// save suggests.
	targetArgs []string
}

// surfaceDiffOptions are jig surface diff's: a pinned surface file, and a
// second file or a live target.
type surfaceDiffOptions struct {
	target       targetFlags
	frames       framesFlag
	pinned, now  string // now: a second surface file, or "" for the target
	command      []string
	json         bool
	showCosmetic bool
	failOn       string
	update       bool
	reason       string
	only         []string
	capsChanged  bool // --capabilities was given
}

const surfaceLong = `A server's surface is everything it lists about itself: every tool, resource,
resource template and prompt exactly as listed, its capabilities and its
instructions. jig surface save writes it as one file to commit; jig surface
diff compares that file with what the server lists now (or with a second
file), and says what changed, classified: tools and arguments removed,
renamed or added, newly required arguments, types narrowed or widened, enum
values removed or added, constraints tightened or loosened, descriptions
edited (as a line diff), annotations flipped (readOnly → destructive). The
same classification as jig replay's tool-definition drift; jig replay
--surface FILE fails a run on any change FILE has not accepted.

diff lists the server with the client capabilities the file recorded (servers
list tools by them) unless --capabilities is given.

Exit codes: 0 nothing at or above --fail-on changed; 1 changes; 2 a usage
error or a file that is not a surface; 3 the server could not be reached.`

const surfaceExample = `  jig surface save --demo > surface.json
  jig surface save --url http://127.0.0.1:3901/mcp --output surface.json
  jig surface diff surface.json --demo --release 2
  jig surface diff surface.json -- node server.js
  jig surface diff old.json new.json --json
  jig surface diff surface.json --demo --release 2 --update --reason "v2 documents the date format"`

func newSurfaceCmd(st *streams, runSave runFunc[surfaceSaveOptions], runDiff runFunc[surfaceDiffOptions]) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "surface",
		Short:   "Save a server's whole listed surface, and diff it against what the server lists now",
		Long:    surfaceLong,
		Example: surfaceExample,
		Args:    cobra.NoArgs,
	}
	so := &surfaceSaveOptions{}
	save := &cobra.Command{
		Use:   "save [flags] [-- command args...]",
		Short: "Print (or --output) the server's surface as a file to commit",
		RunE: func(cmd *cobra.Command, args []string) error {
			so.command = args
			so.targetArgs = targetArgs(cmd.Flags())
			return runSave(cmd.Context(), so, st)
		},
	}
	so.target.bind(save)
	so.target.oneShot = true // it asks once and ends: no list_changed subscription
	so.frames.bind(save)
	save.Flags().StringVarP(&so.output, "output", "o", "", "write the surface to FILE instead of stdout (an existing FILE only with --force)")
	save.Flags().BoolVar(&so.force, "force", false, "with --output: overwrite an existing file")
	cmd.AddCommand(save, newSurfaceDiffCmd(st, runDiff))
	return cmd
}

func newSurfaceDiffCmd(st *streams, runDiff runFunc[surfaceDiffOptions]) *cobra.Command {
	o := &surfaceDiffOptions{}
	diff := &cobra.Command{
		Use:   "diff SURFACE [SURFACE2 | flags | -- command args...]",
		Short: "Compare a saved surface with the server's (or with a second file), classified",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			o.pinned = args[0]
			switch {
			case urlAfter(cmd, args, 1):
				// A bare URL is the server at it, as everywhere a target goes.
				o.command = args[1:]
			case dash < 0 && len(args) == 2:
				o.now = args[1]
			case dash < 0 && len(args) > 2, dash > 1:
				return usageErr("surface diff takes a surface file and a second file or a target; put a server command after -- (jig surface diff surface.json -- node server.js)")
			case len(args) > 1:
				o.command = args[1:]
			}
			o.capsChanged = cmd.Flags().Changed("capabilities")
			return runDiff(cmd.Context(), o, st)
		},
	}
	o.target.bind(diff)
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(diff)
	fl := diff.Flags()
	fl.BoolVar(&o.json, "json", false, "print the diff as JSON")
	fl.BoolVar(&o.showCosmetic, "show-cosmetic", false, "list the items that differ only cosmetically")
	fl.StringVar(&o.failOn, "fail-on", "warn", "the change that fails: warn (any change) or breaking")
	fl.BoolVar(&o.update, "update", false, "accept the changes into SURFACE (needs --reason; refused when CI is set)")
	fl.StringVar(&o.reason, "reason", "", "with --update: why the changes are intended, recorded in the file's history")
	fl.StringArrayVar(&o.only, "only", nil, `with --update: accept only this item ("tool search_orders"; repeatable)`)
	return diff
}

func runSurfaceSave(ctx context.Context, o *surfaceSaveOptions, st *streams) error {
	if o.force && o.output == "" {
		return usageErr("--force only applies with --output FILE")
	}
	if err := checkOutput("--output", o.output, spaced("--output"), "surface.json", true, o.force); err != nil {
		return err
	}
	return withSession(ctx, st, &o.target, o.command, &o.frames, "surface", func(ctx context.Context, s *session.Session) error {
		sf, err := s.Surface(ctx)
		if err != nil {
			return err
		}
		b, err := sf.Marshal()
		if err != nil {
			return err
		}
		if o.output == "" {
			_, err = st.out.Write(b)
			return err
		}
		if err := writePrivate(o.output, st.redact.Bytes(b)); err != nil {
			return err
		}
		fmt.Fprintf(st.err, "wrote %s: the surface of %s (%s); compare it later with: jig surface diff %s\n", o.output,
			frames.ServerLabel(sf.Server.Name, sf.Server.Version), surfaceCounts(sf),
			strings.Join(append(append([]string{shellQuote(o.output)}, o.targetArgs...), dashed(o.command)...), " "))
		return nil
	})
}

// surfaceCounts is "3 tools, 2 resources, 1 resource template, 4 prompts"
// for a saved surface: the counts jig tools, resources and prompts print.
func surfaceCounts(sf *surface.Surface) string {
	out := frames.Count(len(sf.Tools), "tool")
	if n := len(sf.Resources); n > 0 {
		out += ", " + frames.Count(n, "resource")
	}
	if n := len(sf.ResourceTemplates); n > 0 {
		out += ", " + frames.Count(n, "resource template")
	}
	if len(sf.Prompts) > 0 {
		out += ", " + frames.Count(len(sf.Prompts), "prompt")
	}
	return out
}

// writePrivate writes a file jig owns (0600), whole or not at all: a
// surface being replaced stays valid until the new one is complete.
func writePrivate(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := frames.CreatePrivate(tmp)
	if err != nil {
		return usageErr("%s: %v", path, err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// check validates diff's own flags and returns the severity that fails.
func (o *surfaceDiffOptions) check() (fixture.Severity, error) {
	var threshold fixture.Severity
	switch o.failOn {
	case "warn":
		threshold = fixture.Warn
	case "breaking":
		threshold = fixture.Breaking
	default:
		return 0, usageErr("--fail-on %q: use warn or breaking", o.failOn)
	}
	switch {
	case o.update && o.reason == "":
		return 0, usageErr(`--update needs --reason "why these changes are intended"; reviewers read it in the file's history`)
	case o.update && os.Getenv("CI") != "":
		return 0, usageErr("--update is refused because CI=%s is set: surface changes are accepted by a person, not by a pipeline", os.Getenv("CI"))
	case !o.update && (o.reason != "" || len(o.only) > 0):
		return 0, usageErr("--reason and --only apply only with --update")
	case o.update && o.now != "":
		return 0, usageErr("--update accepts what a server lists now: give a target, not a second file")
	}
	return threshold, nil
}

func runSurfaceDiff(ctx context.Context, o *surfaceDiffOptions, st *streams) error {
	threshold, err := o.check()
	if err != nil {
		return err
	}
	pinned, err := loadSurface(o.pinned)
	if err != nil {
		return err
	}
	now, err := o.current(ctx, st, pinned)
	if err != nil {
		return err
	}
	d := surface.Compare(pinned, now)
	if o.update {
		return o.accept(st, pinned, now, d)
	}
	var b bytes.Buffer
	if o.json {
		err = d.WriteJSON(&b)
	} else {
		err = d.WriteText(&b, o.showCosmetic)
	}
	if err != nil {
		return err
	}
	st.out.Write(b.Bytes())
	if d.Worst() >= threshold {
		return exitWith(exitServerError)
	}
	return nil
}

// loadSurface reads a surface file; one jig cannot use is a usage error.
func loadSurface(path string) (*surface.Surface, error) {
	sf, err := surface.Load(path)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return sf, nil
}

// current is the surface to compare with: the second file, or the live
// server's, listed declaring the capabilities the pinned file recorded.
func (o *surfaceDiffOptions) current(ctx context.Context, st *streams, pinned *surface.Surface) (*surface.Surface, error) {
	if o.now != "" {
		return loadSurface(o.now)
	}
	if !o.capsChanged && pinned.ClientCapabilities != nil {
		o.target.capabilities = slices.Clone(pinned.ClientCapabilities)
	}
	var now *surface.Surface
	err := withSession(ctx, st, &o.target, o.command, &o.frames, "surface", func(ctx context.Context, s *session.Session) error {
		var err error
		now, err = s.Surface(ctx)
		return err
	})
	return now, err
}

// accept writes the accepted changes into the pinned file (--update).
func (o *surfaceDiffOptions) accept(st *streams, pinned, now *surface.Surface, d surface.Diff) error {
	items := o.only
	if len(items) == 0 {
		items = d.Items()
	}
	if len(items) == 0 {
		fmt.Fprintf(st.out, "%s: no changes to accept\n", o.pinned)
		return nil
	}
	next, err := surface.Accept(pinned, now, items, o.reason, time.Now())
	if err != nil {
		return usageErr("%s: %v", o.pinned, err)
	}
	b, err := next.Marshal()
	if err != nil {
		return err
	}
	if err := writePrivate(o.pinned, st.redact.Bytes(b)); err != nil {
		return err
	}
	for _, it := range items {
		fmt.Fprintf(st.out, "accepted %s\n", it)
	}
	fmt.Fprintf(st.out, "%s: %d change(s) accepted; %d left\n", o.pinned, len(items), len(d.Changes)-len(items))
	return nil
}

// checkSurface is jig replay --surface: the server's surface listed now,
// compared with the file, every change not accepted there failing the run.
//
// It returns what a JSON report carries of the check, for jig review: the
// file, the revision compared and the surface listed (nil when it could not
// be listed).
func (o *replayOptions) checkSurface(ctx context.Context, st *streams, cases []replay.Case, ropts replay.Options, code *worstCode) *fixture.SurfaceRecord {
	data, err := frames.ReadRegular(o.surface, surface.MaxFileSize)
	var pinned *surface.Surface
	if err == nil {
		pinned, err = surface.Parse(data)
	}
	if err != nil {
		fmt.Fprintf(st.err, "jig: --surface %v\n", &surface.FileError{File: o.surface, Err: err})
		code.add(exitUsage)
		return nil
	}
	target, err := replay.OneTarget(cases, ropts.Override)
	if err != nil {
		fmt.Fprintf(st.err, "jig: --surface %s: %v\n", o.surface, err)
		code.add(exitUsage)
		return nil
	}
	caps := o.target.capabilities
	if !o.capsChanged && pinned.ClientCapabilities != nil {
		caps = pinned.ClientCapabilities
	}
	opts := session.Options{Target: target, Capabilities: caps, Roots: ropts.Roots, Grace: ropts.Grace, Auth: ropts.Auth,
		Log: frames.NewLog(nil), Redact: st.redact}
	cctx, cancel := context.WithTimeout(ctx, ropts.Timeout)
	defer cancel()
	now, err := listSurface(cctx, opts)
	if err != nil {
		fmt.Fprintf(st.err, "jig: --surface %s: listing %s: %v\n", o.surface, target, err)
		code.add(exitCode(err))
		return nil
	}
	d := surface.Compare(pinned, now)
	fmt.Fprintf(st.out, "\nSurface (%s): %s\n", o.surface, d.Summary())
	if len(d.Changes) > 0 {
		d.WriteText(st.out, o.showCosmetic)
		fmt.Fprintf(st.out, "If these changes are intended, accept them with:\n  jig surface diff %s %s --update --reason \"...\"\n",
			shellQuote(o.surface), strings.Join(append(slices.Clone(o.targetArgs), dashed(o.command)...), " "))
		report := ""
		for _, r := range o.reports {
			if k, p, ok := strings.Cut(r, "="); ok && k == "json" {
				report = p
			}
		}
		if report != "" {
			fmt.Fprintf(st.out, "or one by one, with the fixtures' drift:\n  jig review %s\n", shellQuote(report))
		} else {
			fmt.Fprintf(st.out, "or one by one, with the fixtures' drift: replay with --report json=drift.json, then jig review drift.json\n")
		}
		code.add(exitServerError)
	}
	rec, err := surface.Record(o.surface, data, now)
	if err != nil {
		fmt.Fprintf(st.err, "jig: --surface %s: %v\n", o.surface, err)
		return nil
	}
	return rec
}

// listSurface opens a session only to list the server's surface.
func listSurface(ctx context.Context, opts session.Options) (*surface.Surface, error) {
	s, err := session.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Surface(ctx)
}

// dashed is a server command as the command line gives it: after --, quoted.
func dashed(command []string) []string {
	if len(command) == 0 {
		return nil
	}
	if len(command) == 1 && isURL(command[0]) {
		return []string{shellQuote(command[0])} // the bare URL it was given as
	}
	out := []string{"--"}
	for _, c := range command {
		out = append(out, shellQuote(c))
	}
	return out
}
