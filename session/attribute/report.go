package attribute

import (
	"github.com/mcpjig/jig/frames"

	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// An End is one of the two calls being attributed, as the recording has it.
type End struct {
	// Label names it ("conversation.json#2").
	Label string
	// Recorded summarizes its recorded result, when there is one; Rendering
	// says that result is the client's rendering (an agent transcript), not
	// the server's response.
	Recorded  *Summary
	Rendering bool
}

// Lines are the report, one line each, for the CLI to print and the TUI to
// draw: what differs, what each change did, which changes interact, and
// every step with its frames.
func (r *Run) Lines(a, b End) []string {
	var out []string
	p := r.Plan
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	n := len(p.Vars)
	vars := make([]string, n)
	for i, v := range p.Vars {
		vars[i] = v.Describe()
	}
	add("%s: from %s to %s, on %s", p.Tool, a.Label, b.Label, r.Server)
	switch n {
	case 0:
		add("the arguments are the same: a difference in the results has no cause in the arguments (look at the server's state, the time, or the client's rendering)")
	case 1:
		add("1 argument differs: %s", vars[0])
	default:
		add("%d arguments differ: %s", n, strings.Join(vars, ", "))
	}
	how := fmt.Sprintf("each alone from A, then B (more than %d differ, so not every order)", MaxExhaustive)
	if p.Exhaustive && n > 1 {
		how = fmt.Sprintf("every order of the %d changes (%d paths)", n, factorial(n))
	}
	add("%d calls, one argument changed at a time, everything else held still: %s; one session, one attempt each, nothing else in flight", len(p.Points), how)
	add("")
	out = append(out, r.endLines("A", a, 0)...)
	out = append(out, r.endLines("B", b, len(p.Points)-1)...)
	if f := r.Failed(); f != nil {
		add("")
		add("the server stopped answering at step %d (%s): %v", f.Point+1, p.Points[f.Point].Label(n), f.Err)
		add("the %d steps before it are kept below; %d were not run", len(r.Steps)-1, len(p.Points)-len(r.Steps))
	}
	findings := r.Analyze()
	if n > 0 {
		add("")
		add("each alone, from A:")
		for _, f := range findings {
			if f.Alone != nil {
				add("  %s alone: %s", f.Var.Name, f.Alone)
			}
		}
		var after []string
		for _, f := range findings {
			for _, c := range f.After {
				if f.Alone == nil || c.Effect.Class == f.Alone.Class {
					continue // the same kind of effect as alone: the order did not matter
				}
				after = append(after, fmt.Sprintf("  %s after %s: %s", f.Var.Name, strings.Join(c.After, " + "), c.Effect))
			}
		}
		if len(after) > 0 {
			add("")
			add("where the order matters (the effect differs from the change alone):")
			out = append(out, after...)
		}
		add("")
		add("attribution:")
		for _, f := range findings {
			add("  %s", f.Sentence)
		}
		if n > 1 {
			add("  %s", r.verdict(findings))
		}
	}
	if paths := r.Paths(); len(paths) > 1 {
		add("")
		add("paths (A → B, one change per arrow):")
		for _, pth := range paths {
			add("  %-*s %s", width(paths), strings.Join(pth.Order, " → "), r.chain(pth.Points))
		}
	}
	add("")
	add("steps:")
	lw, aw := 1, 1
	for _, pt := range p.Points {
		lw, aw = max(lw, len(pt.Label(n))), max(aw, len(compact(pt.Arguments)))
	}
	for _, s := range r.Steps {
		out = append(out, r.stepLine(s, lw, aw))
	}
	for i := len(r.Steps); i < len(p.Points); i++ {
		add("  %-2d %-*s %-*s  not run", i+1, lw, p.Points[i].Label(n), aw, compact(p.Points[i].Arguments))
	}
	return out
}

// endLines describe one end: its arguments, what the live server answered,
// and what the recording showed, when the two differ.
func (r *Run) endLines(name string, e End, point int) []string {
	pt := r.Plan.Points[point]
	live := "not run"
	if s := r.step(point); s != nil {
		live = s.Summary.String()
	}
	out := []string{fmt.Sprintf("%s  %s  %s", name, compact(pt.Arguments), live)}
	if e.Recorded == nil {
		return out
	}
	what := "the recording showed"
	if e.Rendering {
		what = "the transcript showed (the client's rendering)"
	}
	rec := e.Recorded.short()
	if s := r.step(point); s != nil && s.Summary.short() == rec {
		out = append(out, fmt.Sprintf("   %s: %s; the live server answers the same", what, rec))
	} else if s != nil {
		out = append(out, fmt.Sprintf("   %s: %s; the live server answers %s", what, rec, s.Summary.short()))
	}
	return out
}

// verdict says in one line what the transcript's simultaneous change hid.
func (r *Run) verdict(findings []Finding) string {
	var alone, after, none []string
	for _, f := range findings {
		switch {
		case f.Alone == nil:
		case !f.Alone.Same:
			alone = append(alone, f.Var.Name)
		case len(f.After) > 0 && slices.ContainsFunc(f.After, func(c InContext) bool { return !c.Effect.Same }):
			after = append(after, f.Var.Name)
		default:
			none = append(none, f.Var.Name)
		}
	}
	parts := []string{fmt.Sprintf("so: the %d changes were made at once; ", len(findings))}
	switch {
	case len(alone) == len(findings):
		parts = append(parts, fmt.Sprintf("each of %s moves the result alone", strings.Join(alone, " and ")))
	case len(alone) == 1:
		parts = append(parts, fmt.Sprintf("alone, only %s moves the result", alone[0]))
	case len(alone) > 1:
		parts = append(parts, fmt.Sprintf("alone, only %s move the result", strings.Join(alone, " and ")))
	default:
		parts = append(parts, "alone, none of them moves the result")
	}
	if len(after) > 0 {
		parts = append(parts, fmt.Sprintf("; %s act only after another change", strings.Join(after, " and ")))
	}
	if len(none) > 0 && r.Plan.Exhaustive {
		parts = append(parts, fmt.Sprintf("; %s changes nothing in any order", strings.Join(none, " and ")))
	}
	return strings.Join(parts, "")
}

func (r *Run) stepLine(s *Step, lw, aw int) string {
	pt := r.Plan.Points[s.Point]
	frames := ""
	if s.Exchange != nil && s.Exchange.Request != nil {
		frames = fmt.Sprintf("#%d", s.Exchange.Request.Seq)
		if s.Exchange.Response != nil {
			frames += fmt.Sprintf(" → #%d", s.Exchange.Response.Seq)
		}
	}
	what := s.Summary.String()
	if s.Err != nil {
		what = "FAILED: " + s.Err.Error()
	}
	return fmt.Sprintf("  %-2d %-*s %-*s  %-11s %s", s.Point+1, lw, pt.Label(len(r.Plan.Vars)), aw, compact(pt.Arguments), frames, what)
}

// chain is a path's summaries: "orders 0 → 10* → 10* → 20*" (* partial);
// results without an array are numbered in order of appearance (r1, r2).
func (r *Run) chain(points []int) string {
	var parts []string
	name := ""
	seen := map[string]int{}
	for _, s := range r.Steps {
		if _, ok := seen[s.Summary.Digest]; !ok && s.Answered() {
			seen[s.Summary.Digest] = len(seen) + 1
		}
	}
	for _, i := range points {
		s := r.step(i)
		if s == nil {
			parts = append(parts, "?")
			continue
		}
		v := "·"
		switch p := s.Summary.primary(); {
		case s.Summary.Code != 0:
			v = fmt.Sprintf("error %d", s.Summary.Code)
		case p != nil:
			v, name = fmt.Sprint(p.N), p.Name()
		case s.Summary.IsError:
			v = fmt.Sprintf("r%d (isError)", seen[s.Summary.Digest])
		default:
			v = fmt.Sprintf("r%d", seen[s.Summary.Digest])
		}
		if len(s.Summary.Partial) > 0 {
			v += "*"
		}
		parts = append(parts, v)
	}
	out := strings.Join(parts, " → ")
	if name != "" {
		out = name + " " + out
	}
	if strings.Contains(out, "*") {
		out += "   (* partial)"
	}
	return out
}

func width(paths []Path) int {
	w := 0
	for _, p := range paths {
		w = max(w, len(strings.Join(p.Order, " → ")))
	}
	return w + 1
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

func compact(raw json.RawMessage) string { return frames.CompactString(raw) }

// WriteText prints the report.
func (r *Run) WriteText(w io.Writer, a, b End) error {
	_, err := io.WriteString(w, strings.Join(r.Lines(a, b), "\n")+"\n")
	return err
}
