package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/frames/importer"
)

// checkOptions are jig check's.
type checkOptions struct {
	contracts  string
	recordings []string
	json       bool
}

const checkLong = `jig check holds every tools/call response in recordings to a contracts
file: per tool, JSON Schema for the result or its structuredContent (the
tool's own outputSchema, as the recording's tools/list gave it, by default)
and named rules. Each violation names the recording and frame, the tool,
the call, the path, the rule and the value. Exit 1 on a violation, 2 when
the contracts file or a recording cannot be used.

A contracts file (JSON, comments allowed, or YAML):

  {
    "tools": {
      "search_orders": {
        "rules": [
          {"rule": "iso8601", "path": "/structuredContent/orders/*/placed_at"},
          {"rule": "min-items", "path": "/structuredContent/orders", "value": 1},
          {"rule": "truncation-mentioned", "path": "/structuredContent/truncated"},
          {"rule": "range", "path": "/structuredContent/orders/*/total", "value": {"min": 1, "max": 10000}},
          {"rule": "max-age", "path": "/structuredContent/generated_at", "value": "1h"}
        ]
      },
      "*": {"rules": [{"rule": "not-empty"}]}
    }
  }

Rules: iso8601, not-empty (no path: the result's payload), min-items,
range, max-age, truncation-mentioned, and every fixture assertion (exists,
equals, matches, type, one-of, min-length, max-length, is-error-false,
flag-set, flag-not-set). A tool's "structured_content" or "result" is a
JSON Schema; "output_schema": false (for the file or a tool) skips the
tool's own outputSchema. "*" applies to every tool. Results with isError
and JSON-RPC errors are counted, not held to the rules (is-error-false
excepted).`

func newCheckCmd(st *streams, runF runFunc[checkOptions]) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check CONTRACTS RECORDING...",
		Short: "Hold recorded responses to contracts: schemas and rules per tool (exit 1 on a violation)",
		Long:  checkLong,
		Example: `  jig check contracts.json sessions/*.jsonl
  jig check contracts.yaml 'sessions/2026-12-01*' --json`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.contracts, o.recordings = args[0], args[1:]
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the violations and counts as JSON")
	return cmd
}

// checkReport is jig check --json's output.
type checkReport struct {
	Contracts  string               `json:"contracts"`
	Files      []checkedFile        `json:"files"`
	Counts     contract.Counts      `json:"counts"`
	Violations []contract.Violation `json:"violations"`
	// Uncalled are the contract's tools no recording called: nothing was
	// held to them.
	Uncalled []uncalledTool `json:"uncalled_tools"`
}

// uncalledTool is a tool of the contracts file no recording called.
type uncalledTool struct {
	Tool string `json:"tool"`
	// Listed says a tools/list of the recordings names it: the server has
	// it, the traffic did not call it. Unlisted and uncalled, the name is
	// a typo or another server's tool: exit 2.
	Listed bool   `json:"listed"`
	Detail string `json:"detail"`
}

type checkedFile struct {
	Path     string   `json:"path"`
	Format   string   `json:"format"`
	Frames   int      `json:"frames"`
	Warnings []string `json:"warnings,omitempty"`
	// Skipped says why the file's calls were not checked.
	Skipped string `json:"skipped,omitempty"`
}

func runCheck(ctx context.Context, o *checkOptions, st *streams) error {
	c, err := contract.Load(o.contracts)
	if err != nil {
		return usageErr("%v", err)
	}
	files, err := recordingFiles(o.recordings)
	if err != nil {
		return err
	}
	rep := checkReport{Contracts: o.contracts, Violations: []contract.Violation{}}
	var skipped []string
	seen := toolsSeen{called: map[string]int{}, listed: map[string]bool{}}
	for _, path := range files {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cf, counts, vs, err := checkFile(c, path, &seen, func(v contract.Violation) {
			if !o.json {
				fmt.Fprintln(st.out, v)
			}
		})
		if err != nil {
			return usageErr("%v", err)
		}
		rep.Files = append(rep.Files, cf)
		rep.Violations = append(rep.Violations, vs...)
		addCounts(&rep.Counts, counts)
		if cf.Skipped != "" {
			skipped = append(skipped, cmpOrPrefix(path, cf.Skipped))
		}
	}
	if len(skipped) == len(files) {
		// Nothing was held to the contracts: a CI job must not go green.
		return nothingRead("recordings", skipped)
	}
	if rep.Counts.Calls == 0 {
		return usageErr("recordings: no tools/call with a response in %s (%s); nothing was held to %s; name recordings that hold tool calls (jig traffic --record, jig proxy --record, or jig sessions to list them)",
			frames.Count(len(files)-len(skipped), "recording"), strings.Join(files, ", "), o.contracts)
	}
	rep.Uncalled = seen.uncalled(c)
	if o.json {
		if err := writeJSON(st.out, rep); err != nil {
			return err
		}
	} else {
		printCheckSummary(st, rep)
	}
	for _, u := range rep.Uncalled {
		if !u.Listed {
			return exitWith(exitUsage)
		}
	}
	if rep.Counts.Violations > 0 {
		return exitWith(exitServerError)
	}
	return nil
}

// toolsSeen is the tools the recordings called and listed.
type toolsSeen struct {
	called map[string]int
	listed map[string]bool
}

func (s *toolsSeen) add(k *contract.Checker) {
	for t, n := range k.Called {
		s.called[t] += n
	}
	for t := range k.Listed {
		s.listed[t] = true
	}
}

// uncalled lists the contract's tools no recording called, with the
// nearest names called or listed.
func (s *toolsSeen) uncalled(c *contract.Contracts) []uncalledTool {
	out := []uncalledTool{}
	names := slices.Sorted(maps.Keys(c.Tools))
	known := slices.Sorted(maps.Keys(s.called))
	for t := range s.listed {
		if s.called[t] == 0 {
			known = append(known, t)
		}
	}
	for _, t := range names {
		if t == contract.Any || s.called[t] > 0 {
			continue
		}
		u := uncalledTool{Tool: t, Listed: s.listed[t]}
		if u.Listed {
			u.Detail = fmt.Sprintf("contract for %s: the recordings' tools/list names it, but no recording calls it: nothing was held to it", t)
		} else {
			u.Detail = fmt.Sprintf("contract for %s: no recording calls or lists a tool of that name%s: nothing was held to it; fix the name in %s (the tools called are %s)",
				t, aside(didYouMean(t, known)), c.File, strings.Join(slices.Sorted(maps.Keys(s.called)), ", "))
		}
		out = append(out, u)
	}
	return out
}

// checkFile checks one recording, streaming it.
func checkFile(c *contract.Contracts, path string, seen *toolsSeen, each func(contract.Violation)) (checkedFile, contract.Counts, []contract.Violation, error) {
	k := contract.NewChecker(c)
	k.File = path
	var vs []contract.Violation
	n := 0
	info, err := importer.Stream(path, func(f *frames.Frame) error {
		n++
		for _, v := range k.Add(f) {
			each(v)
			vs = append(vs, v)
		}
		return nil
	})
	k.Finish()
	seen.add(k)
	cf := checkedFile{Path: path, Format: string(info.Format), Frames: n, Warnings: info.Warnings}
	if err != nil {
		var ne *importer.NotRecordingError
		if errors.As(err, &ne) {
			cf.Skipped = err.Error()
			return cf, contract.Counts{}, nil, nil
		}
		return cf, k.Counts, vs, fmt.Errorf("recording %s: %w", path, err)
	}
	if info.Agent {
		// An agent transcript's results are the client's rendering of
		// what the server said: holding them to the server's contract
		// would blame the server for the client.
		cf.Skipped = "an agent transcript: its results are the client's rendering, not the server's responses; not checked"
		return cf, contract.Counts{}, nil, nil
	}
	return cf, k.Counts, vs, nil
}

func addCounts(to *contract.Counts, c contract.Counts) {
	to.Calls += c.Calls
	to.Checked += c.Checked
	to.Violating += c.Violating
	to.Violations += c.Violations
	to.Errors += c.Errors
	to.ToolErrors += c.ToolErrors
	to.Unusable += c.Unusable
	to.NoSchema += c.NoSchema
	to.Reused += c.Reused
	to.Stray += c.Stray
}

func printCheckSummary(st *streams, rep checkReport) {
	for _, f := range rep.Files {
		for _, w := range f.Warnings {
			fmt.Fprintf(st.err, "jig check: %s: %s\n", f.Path, w)
		}
		if f.Skipped != "" {
			fmt.Fprintf(st.err, "jig check: %s: %s\n", f.Path, f.Skipped)
		}
	}
	for _, u := range rep.Uncalled {
		fmt.Fprintf(st.err, "jig check: %s\n", u.Detail)
	}
	n := rep.Counts
	fmt.Fprintf(st.err, "jig check: %d tool calls in %d recording(s), %d held to %s: ", n.Calls, len(rep.Files), n.Checked, rep.Contracts)
	if n.Violations == 0 {
		fmt.Fprint(st.err, "no violations")
	} else {
		fmt.Fprintf(st.err, "%d violations in %d calls", n.Violations, n.Violating)
	}
	if n.Errors+n.ToolErrors > 0 {
		fmt.Fprintf(st.err, "; %d JSON-RPC errors and %d tool errors (isError) not held to the rules", n.Errors, n.ToolErrors)
	}
	if n.Unusable > 0 {
		fmt.Fprintf(st.err, "; %d responses no usable result", n.Unusable)
	}
	if n.Reused > 0 {
		fmt.Fprintf(st.err, "; %d calls shared an id with another still in flight, not checked (which response answers which cannot be told)", n.Reused)
	}
	if n.Stray > 0 {
		fmt.Fprintf(st.err, "; %d responses answered no call in flight, not checked", n.Stray)
	}
	if n.NoSchema > 0 {
		fmt.Fprintf(st.err, "; %d calls made before any tools/list (their outputSchema unknown)", n.NoSchema)
	}
	fmt.Fprintln(st.err)
}

// cmpOrPrefix is why, named by path unless it already starts with it.
func cmpOrPrefix(path, why string) string {
	if strings.HasPrefix(why, path+":") {
		return why
	}
	return path + ": " + why
}
