package stats

import (
	"cmp"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/mcpjig/jig/frames"
)

// definitionCounts names each definition's digest and its calls, most
// calls first ("88c6fc1e 11 calls, 4c855d74 1 call").
// serverCounts is "name N calls, …", most calls first.
func serverCounts(m map[string]int64) string {
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = cmp.Or(k, "a server not named") + " " + frames.Count(m[k], "call")
	}
	return strings.Join(parts, ", ")
}

func definitionCounts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = cmp.Or(k, "none listed") + " " + frames.Count(m[k], "call")
	}
	return strings.Join(parts, ", ")
}

// WriteText writes the report as jig stats prints it: per tool its
// outcomes, per argument shape its outcomes, repeats and fields.
func (rep Report) WriteText(w io.Writer) {
	for _, t := range rep.Tools {
		fmt.Fprintf(w, "%s: %s\n", t.Tool, outcomeLine(t.Outcomes))
		switch {
		case len(t.Servers) > 1:
			fmt.Fprintf(w, "  %d servers answered calls of a tool named %s (%s): their calls are mixed in these figures; give jig stats one server's recordings\n",
				len(t.Servers), t.Tool, serverCounts(t.Servers))
			if len(t.Schemas) > 1 {
				fmt.Fprintf(w, "  %d definitions of it were listed (%s)\n", len(t.Schemas), definitionCounts(t.Schemas))
			}
		case len(t.Schemas) > 1:
			fmt.Fprintf(w, "  its schema changed within the recordings: %d definitions (%s)\n", len(t.Schemas), definitionCounts(t.Schemas))
		}
		for _, s := range t.Shapes {
			fmt.Fprintf(w, "  shape %s: %s\n", s.Shape, outcomeLine(s.Outcomes))
			if s.Results > 0 {
				fmt.Fprintf(w, "    repeats: %s same answer to other arguments, %s identical bytes\n", share(s.SameAnswerRate), share(s.IdenticalRate))
			}
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, f := range s.Fields {
				if line := fieldLine(f); line != "" {
					fmt.Fprintf(tw, "    %s\t%s\n", f.Path, line)
				}
			}
			tw.Flush()
		}
	}
}

func outcomeLine(o Outcomes) string {
	s := fmt.Sprintf("%d calls", o.Calls)
	if o.Calls == 1 {
		s = "1 call"
	}
	if o.Calls == 0 {
		return s
	}
	s += fmt.Sprintf(", errors %s, isError %s", share(o.ErrorRate), share(o.ToolErrorRate))
	if o.Unusable > 0 {
		s += fmt.Sprintf(", %d unusable responses", o.Unusable)
	}
	l := o.LatencyMS
	if l.N > 0 {
		a := approx(l)
		s += fmt.Sprintf(", latency p50 %s%s p95 %s%s p99 %s%s ms", a, fnum(l.Median), a, fnum(l.P95), a, fnum(l.P99))
	}
	if o.SizeBytes.N > 0 {
		s += fmt.Sprintf(", size p50 %s%s", approx(o.SizeBytes), frames.HumanSize(int(o.SizeBytes.Median)))
	}
	if !l.Exact || !o.SizeBytes.Exact {
		s += fmt.Sprintf(" (≈: over %d values, quantiles within %g%%)", ExactLimit, 100*RelativeError)
	}
	return s
}

// approx marks a figure of a summary past ExactLimit values.
func approx(s Summary) string {
	if s.Exact {
		return ""
	}
	return "≈"
}

func fieldLine(f FieldReport) string {
	if len(f.Types) == 1 && f.Types["object"] > 0 {
		return "" // its fields say what it holds
	}
	var parts []string
	if f.PresentRate < 0.999 {
		parts = append(parts, "in "+share(f.PresentRate))
	}
	if len(f.Types) > 1 {
		var ts []string
		for _, k := range []string{"string", "number", "boolean", "null", "object", "array"} {
			if n := f.Types[k]; n > 0 {
				ts = append(ts, fmt.Sprintf("%s %d", k, n))
			}
		}
		parts = append(parts, "types "+strings.Join(ts, ", "))
	}
	if f.Items != nil {
		parts = append(parts, fmt.Sprintf("items median %s%s IQR %s–%s (min %s, max %s)", approx(*f.Items), fnum(f.Items.Median), fnum(f.Items.Q1), fnum(f.Items.Q3), fnum(f.Items.Min), fnum(f.Items.Max)))
	}
	if n := f.Numbers; n != nil {
		parts = append(parts, fmt.Sprintf("mean %s sd %s median %s%s MAD %s", fnum(n.Mean), fnum(n.SD), approx(*n), fnum(n.Median), fnum(n.MAD)))
	}
	if f.TrueRate != nil {
		parts = append(parts, "true "+share(*f.TrueRate))
	}
	if len(f.Values) > 0 && f.Entropy != nil {
		var vs []string
		for i, v := range f.Values {
			if i == 4 {
				vs = append(vs, fmt.Sprintf("… %d values", len(f.Values)))
				break
			}
			vs = append(vs, fmt.Sprintf("%q %s", shorten(v.Value, 24), share(v.Share)))
		}
		parts = append(parts, strings.Join(vs, ", ")+fmt.Sprintf(" (entropy %.2f bits)", *f.Entropy))
	}
	if f.Texts > 0 {
		parts = append(parts, frames.Count(f.Texts, "text"))
	}
	return strings.Join(parts, "; ")
}

// share is a rate as jig stats prints it: "0%", "<0.1%", "12.5%".
func share(x float64) string {
	switch {
	case x == 0:
		return "0%"
	case x < 0.001:
		return "<0.1%"
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", 100*x), "0"), ".") + "%"
}

// shorten cuts s to n runes, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
