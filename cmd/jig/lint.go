package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/lint"
	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/lintprobe"
)

// lintOptions are jig lint's.
type lintOptions struct {
	target    targetFlags
	frames    framesFlag
	command   []string
	format    string
	json      bool
	output    string
	failOn    string
	disable   []string
	rulesFile string
	surface   string
	sarifURI  string
	listRules bool
	// formatChanged: --format was given (it must agree with --json).
	formatChanged      bool
	probe, allowWrites bool
}

// lintConfigFile is the rules file jig lint reads from the working
// directory when --rules is not given.
const lintConfigFile = ".jig-lint.json"

const lintLong = `jig lint reads everything a server lists (its tools, their schemas,
descriptions and annotations, its prompts) and reports the faults a model
trips over before any transcript shows them: a date typed as a bare string,
a cap the schema never declares, a truncation flag nobody explained, a
matching rule nobody wrote down, two tools a model confuses, annotations
that contradict a tool's name, schemas common clients mishandle, names the
spec does not allow. Each finding has a rule id, a severity, the JSON
Pointer it is about, and a fix; jig lint --list-rules says why each rule
matters.

--probe also calls the tools annotated read-only with boundary arguments
derived from their schemas (an unparseable date, a limit of 1000, a known
name in another case) and reports what they silently accepted, with the
evidence ("since='last month' accepted, 0 results, no error"). It never
calls a tool not annotated readOnlyHint: true unless --allow-writes is given,
and makes at most 200 calls.

Rules are configured by .jig-lint.json in the working directory (or --rules
FILE): {"disable": [...], "severity": {"rule": "error"}, "ignore": [{"rule":
..., "item": "tool NAME", "path": ..., "reason": ...}],
"max_description_tokens": 500}; --disable turns rules off for one run.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 a
usage error or a bad rules file; 3 the server could not be reached.`

const lintExample = `  jig lint --demo
  jig lint --format sarif -- node server.js > lint.sarif
  jig lint --config mcp.json --server github --fail-on warning
  jig lint --surface surface.json --json
  jig lint --demo --probe
  jig lint --list-rules`

func newLintCmd(st *streams, run runFunc[lintOptions]) *cobra.Command {
	o := &lintOptions{}
	cmd := &cobra.Command{
		Use:     "lint [flags] [-- command args...]",
		Short:   "Find the faults in a server's interface a model trips over (text, --json, SARIF, JUnit)",
		Long:    lintLong,
		Example: lintExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.command = args
			o.formatChanged = cmd.Flags().Changed("format")
			return run(cmd.Context(), o, st)
		},
	}
	o.target.bind(cmd)
	o.target.oneShot = true // it asks once and ends: no list_changed subscription
	o.frames.bind(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.format, "format", "text", "text, json, sarif (SARIF 2.1.0, for GitHub code scanning) or junit")
	fl.BoolVar(&o.json, "json", false, "the same as --format json")
	fl.StringVarP(&o.output, "output", "o", "", "write the report to FILE instead of stdout")
	fl.StringVar(&o.failOn, "fail-on", "error", "the lowest severity that fails the run: error, warning, info, or none")
	fl.StringSliceVar(&o.disable, "disable", nil, "turn off these rules (comma-separated or repeated)")
	fl.StringVar(&o.rulesFile, "rules", "", "the rules file (default: "+lintConfigFile+" in the working directory, if there is one)")
	fl.StringVar(&o.surface, "surface", "", "lint a surface file (jig surface save) instead of a live server")
	fl.StringVar(&o.sarifURI, "sarif-uri", "", "the file SARIF results point at (default: --config, the server's script, or --surface)")
	fl.BoolVar(&o.listRules, "list-rules", false, "list the rules with their severity and why, and exit")
	fl.BoolVar(&o.probe, "probe", false, "also call read-only tools with boundary arguments and report what they silently accept")
	fl.BoolVar(&o.allowWrites, "allow-writes", false, "with --probe: also call tools not annotated read-only")
	return cmd
}

func runLint(ctx context.Context, o *lintOptions, st *streams) error {
	threshold, err := o.check()
	if err != nil {
		return err
	}
	if err := checkOutput("--output", o.output, spaced("--output"), "lint.txt", false, false); err != nil {
		return err
	}
	if o.listRules {
		return writeRules(st, o)
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	sf, evidence, err := o.list(ctx, st)
	if err != nil {
		return err
	}
	fs := lint.Lint(sf, cfg, evidence...)
	r := lint.Report{Format: 1, Server: sf.Server.Name, Version: sf.Server.Version, Tools: len(sf.Tools), Prompts: len(sf.Prompts),
		Probed: o.probe, Findings: fs, Counts: lint.Count(fs)}
	if err := o.write(st, r, sf); err != nil {
		return err
	}
	if lint.Worst(fs) >= threshold {
		return exitWith(exitServerError)
	}
	return nil
}

// check validates the flags and returns the severity that fails the run.
func (o *lintOptions) check() (lint.Severity, error) {
	if o.json {
		if o.formatChanged && o.format != "json" {
			return 0, usageErr("--json and --format %s disagree: give one", o.format)
		}
		o.format = "json"
	}
	switch o.format {
	case "text", "json", "sarif", "junit":
	default:
		return 0, usageErr("--format %q: use text, json, sarif or junit", o.format)
	}
	switch {
	case o.allowWrites && !o.probe:
		return 0, usageErr("--allow-writes applies only with --probe")
	case o.probe && o.surface != "":
		return 0, usageErr("--probe calls a live server's tools: give a target, not --surface")
	}
	if o.failOn == "none" {
		return lint.Error + 1, nil
	}
	s, err := lint.ParseSeverity(o.failOn)
	if err != nil {
		return 0, usageErr("--fail-on: %v, or none", err)
	}
	return s, nil
}

// list is the surface to lint: the --surface file, or the live server's;
// with --probe, the evidence of calls to its tools too.
func (o *lintOptions) list(ctx context.Context, st *streams) (*surface.Surface, []lint.Finding, error) {
	if o.surface != "" {
		sf, err := loadSurface(o.surface)
		return sf, nil, err
	}
	var sf *surface.Surface
	var evidence []lint.Finding
	err := withSession(ctx, st, &o.target, o.command, &o.frames, "lint", func(ctx context.Context, s *session.Session) error {
		var err error
		if sf, err = s.Surface(ctx); err != nil || !o.probe {
			return err
		}
		res := lintprobe.Run(ctx, s, sf, lintprobe.Options{AllowWrites: o.allowWrites})
		fmt.Fprintf(st.err, "probe: %d call%s to %d tool%s (%s)\n", res.Calls, frames.Plural(res.Calls), len(res.Called), frames.Plural(len(res.Called)), strings.Join(res.Called, ", "))
		for _, s := range res.Skipped {
			fmt.Fprintln(st.err, "probe: not called:", s)
		}
		evidence = res.Findings
		return nil
	})
	return sf, evidence, err
}

// write prints the report in the chosen format, or writes it to --output.
func (o *lintOptions) write(st *streams, r lint.Report, sf *surface.Surface) error {
	var b bytes.Buffer
	var err error
	switch o.format {
	case "json":
		err = lint.WriteJSON(&b, r)
	case "sarif":
		err = lint.WriteSARIF(&b, r, lint.SARIFOptions{URI: o.location(), ToolVersion: session.Version})
	case "junit":
		err = lint.WriteJUnit(&b, r, lint.Items(sf))
	default:
		err = lint.WriteText(&b, r)
	}
	if err != nil {
		return err
	}
	if o.output != "" {
		return writePrivate(o.output, st.redact.Bytes(b.Bytes()))
	}
	_, err = st.out.Write(b.Bytes())
	return err
}

// config reads the rules file and folds --disable in.
func (o *lintOptions) config() (lint.Config, error) {
	path, explicit := o.rulesFile, o.rulesFile != ""
	if !explicit {
		path = lintConfigFile
	}
	var cfg lint.Config
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if cfg, err = lint.ParseConfig(data); err != nil {
			return cfg, usageErr("%s: %v", path, err)
		}
	case !explicit && errors.Is(err, fs.ErrNotExist):
	default:
		return cfg, usageErr("--rules: %v", err)
	}
	for _, id := range o.disable {
		id = strings.TrimSpace(id)
		if err := lint.KnownRule(id); err != nil {
			return cfg, usageErr("--disable: %v", err)
		}
		cfg.Disable = append(cfg.Disable, id)
	}
	return cfg, nil
}

// location is the file SARIF results are pinned to: what the user named,
// the MCP config, the server's script, or the surface file.
func (o *lintOptions) location() string {
	if o.sarifURI != "" {
		return o.sarifURI
	}
	rel := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			if wd, err := os.Getwd(); err == nil {
				if r, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(r, "..") {
					return filepath.ToSlash(r)
				}
			}
		}
		return filepath.ToSlash(p)
	}
	switch {
	case o.surface != "":
		return rel(o.surface)
	case o.target.config != "":
		return rel(o.target.config)
	}
	for _, a := range o.command[min(1, len(o.command)):] {
		if st, err := os.Stat(a); err == nil && !st.IsDir() {
			return rel(a)
		}
	}
	if len(o.command) > 0 {
		return filepath.ToSlash(o.command[0])
	}
	return ""
}

func writeRules(st *streams, o *lintOptions) error {
	var b bytes.Buffer
	if o.format == "json" {
		if err := writeJSON(&b, lint.Rules); err != nil {
			return err
		}
		st.out.Write(b.Bytes())
		return nil
	}
	for _, r := range lint.Rules {
		probe := ""
		if r.Probe {
			probe = " (needs --probe)"
		}
		fmt.Fprintf(&b, "%-34s %-7s %s%s\n%34s fix: %s\n", r.ID, r.Severity, r.Why, probe, "", r.Fix)
	}
	st.out.Write(b.Bytes())
	return nil
}
