package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/importer"
)

// compareOptions are jig compare's.
type compareOptions struct {
	a, b         string // FILE#SEQ or FILE
	showCosmetic bool
}

const compareLong = `Compare two recorded tools/call exchanges, in one transcript or two.
A and B are FILE#SEQ, the sequence number of a tools/call request or response
frame (jig open FILE shows them), or FILE alone for the last tools/call in it.

jig first says which arguments differ, and so what the differences can be
put down to: with the same arguments B is the same request answered again,
and a change in its answer is drift; with one argument moved, the differences
are what that change did; with several, any of them. Then it prints A's and
B's values wherever the responses differ, judged as a fixture replay would
(cosmetic differences are counted, not listed, without --show-cosmetic).

Exit status: 0 when a replay of A would pass on B, 1 when it would fail,
2 bad input.`

func newCompareCmd(st *streams, runF runFunc[compareOptions]) *cobra.Command {
	o := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Compare two recorded tools/call exchanges: arguments first, then how the responses differ",
		Long:  compareLong,
		Example: `  jig compare run.jsonl#7 run.jsonl#11
  jig compare before.jsonl after.jsonl`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.a, o.b = args[0], args[1]
			return runF(cmd.Context(), o, st)
		},
	}
	cmd.Flags().BoolVar(&o.showCosmetic, "show-cosmetic", false, "list the cosmetic differences too")
	return cmd
}

func runCompare(ctx context.Context, o *compareOptions, st *streams) error {
	a, err := loadCall(o.a)
	if err != nil {
		return err
	}
	b, err := loadCall(o.b)
	if err != nil {
		return err
	}
	if a.Name != b.Name {
		fmt.Fprintf(st.err, "jig: %s calls %s and %s calls %s: the results are compared anyway\n", o.a, a.Name, o.b, b.Name)
	}
	differ, rep, err := fixture.CompareCalls(a, b)
	if err != nil {
		return usageErr("compare %s %s: %v", o.a, o.b, err)
	}
	fmt.Fprintf(st.out, "A: %s\nB: %s\n%s\n%s\n\n", describeCall(a), describeCall(b), fixture.Attribution(differ), fixture.ComparisonVerdict(differ, rep))
	if err := fixture.WriteComparison(st.out, rep, o.showCosmetic); err != nil {
		return err
	}
	if len(differ) > 1 && a.Name == b.Name {
		fmt.Fprintf(st.err, "jig: %d arguments moved at once; to change them one at a time against a live server: jig attribute %s %s --demo (or --url URL, or -- command)\n",
			len(differ), shellQuote(o.a), shellQuote(o.b))
	}
	if rep.Worst() >= fixture.Breaking {
		return &exitError{code: exitServerError}
	}
	return nil
}

// describeCall is one line naming a call: where it was, what it asked.
func describeCall(c fixture.Call) string {
	args := strings.TrimSpace(string(c.Arguments))
	if len(args) > 120 {
		args = args[:120] + "…"
	}
	if args == "" {
		args = "{}"
	}
	return fmt.Sprintf("%s tools/call %s %s", c.Label, c.Name, args)
}

// loadCall reads the answered call a FILE#SEQ or FILE argument names.
// Every error names the input and the next step, and exits 2.
func loadCall(arg string) (fixture.Call, error) {
	c, f, err := loadRecorded(arg)
	if err != nil {
		return c, err
	}
	if !c.Answered() {
		i := strings.LastIndex(c.Label, "#")
		cut := ""
		if f.Cut != nil {
			cut = fmt.Sprintf("; the file is cut off at line %d (%d bytes not read), so its response may be in what is missing", f.Cut.Line, f.Cut.Bytes)
		}
		return fixture.Call{}, usageErr("%s: the tools/call %s has no recorded response, so there is nothing to compare%s (pick an answered call: jig open %s)",
			arg, c.Label[i:], cut, shellQuote(c.Label[:i]))
	}
	return c, nil
}

// loadRecorded reads the call a FILE#SEQ or FILE argument names, answered
// or not, and the file it is in (closed: its header and calls stay).
func loadRecorded(arg string) (fixture.Call, *importer.File, error) {
	path, seq, hasSeq := arg, int64(0), false
	if i := strings.LastIndex(arg, "#"); i >= 0 {
		if n, err := strconv.ParseInt(arg[i+1:], 10, 64); err == nil {
			path, seq, hasSeq = arg[:i], n, true
		} else if _, statErr := os.Stat(arg); statErr != nil {
			return fixture.Call{}, nil, usageErr("%s: %q is not a frame number (use FILE#SEQ, e.g. run.jsonl#7, or FILE alone for its last tools/call)", arg, arg[i+1:])
		}
	}
	f, err := importer.Open(path)
	if err != nil {
		return fixture.Call{}, nil, usageErr("%s: %v (give a transcript written by jig --record, jig proxy, or listed by jig sessions)", arg, err)
	}
	defer f.Close()
	r := f.Reader
	var i int
	if hasSeq {
		i = sort.Search(r.Len(), func(i int) bool { return r.Frame(i).Seq >= seq })
		if i >= r.Len() || r.Frame(i).Seq != seq {
			return fixture.Call{}, nil, usageErr("%s: there is no frame #%d (the frames are #%s; list the calls with: jig open %s --text | grep tools/call)",
				arg, seq, seqRange(r), shellQuote(path))
		}
	} else if i = lastCall(r); i < 0 {
		return fixture.Call{}, nil, usageErr("%s: the transcript holds no tools/call (open it to look: jig open %s)", arg, shellQuote(path))
	}
	c, err := fixture.RecordedCall(r, i)
	if err != nil {
		return fixture.Call{}, nil, usageErr("%s: %v (list the calls with: jig open %s --text | grep tools/call)", arg, err, shellQuote(path))
	}
	// The call is labelled with the address the user gave (FILE#SEQ may be
	// its response), naming the request it answers when that is another frame.
	if req := c.Label; hasSeq && req != "#"+strconv.FormatInt(seq, 10) {
		c.Label = fmt.Sprintf("%s (the response to request %s)", arg, req)
	} else {
		c.Label = path + req
	}
	return c, f, nil
}

// lastCall is the index of the last tools/call request sent to the server, or -1.
func lastCall(r frames.Reader) int {
	for i := r.Len() - 1; i >= 0; i-- {
		if f := r.Frame(i); f.Kind == frames.KindRequest && f.Dir == frames.ClientToServer && f.Method == "tools/call" {
			return i
		}
	}
	return -1
}

func seqRange(r frames.Reader) string {
	if r.Len() == 0 {
		return "none"
	}
	return fmt.Sprintf("%d–%d", r.Frame(0).Seq, r.Frame(r.Len()-1).Seq)
}
