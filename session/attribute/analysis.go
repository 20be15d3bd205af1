package attribute

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Finding is what the run says about one variable.
type Finding struct {
	Var Variable
	// Alone is the variable's effect changed alone from the first call;
	// nil when that step did not run.
	Alone *Effect
	// After are its effects changed after others (exhaustive plans only),
	// smallest contexts first.
	After []InContext
	// Sentence says it in words.
	Sentence string
}

// InContext is a variable's effect when it is changed after the variables
// in After already were.
type InContext struct {
	After  []string
	Effect Effect
}

// Analyze says, for each variable, what changing it did: alone from the
// first call and, when the plan is exhaustive, after every other set of
// changes; and whether its effect depends on the others (an interaction).
func (r *Run) Analyze() []Finding {
	var out []Finding
	for _, v := range r.Plan.Vars {
		f := Finding{Var: v}
		if e, ok := r.effect(nil, v.Name); ok {
			f.Alone = &e
		}
		if r.Plan.Exhaustive {
			for _, pt := range r.Plan.Points {
				if len(pt.Set) == 0 || slices.Contains(pt.Set, v.Name) {
					continue
				}
				if e, ok := r.effect(pt.Set, v.Name); ok {
					f.After = append(f.After, InContext{After: pt.Set, Effect: e})
				}
			}
		}
		f.Sentence = r.sentence(f)
		out = append(out, f)
	}
	return out
}

// effect is v's effect changed after the variables in set.
func (r *Run) effect(set []string, v string) (Effect, bool) {
	from := map[string]bool{}
	for _, n := range set {
		from[n] = true
	}
	i := r.Plan.index(from)
	from[v] = true
	j := r.Plan.index(from)
	a, b := r.step(i), r.step(j)
	if i < 0 || j < 0 || a == nil || b == nil {
		return Effect{}, false
	}
	e := Compare(a.Summary, b.Summary)
	r.annotate(&e, v, b.Summary)
	return e, true
}

// annotate adds what the numbers say about a variable's effect: a number
// asked for and not given (a cap), a string that comes back in every row
// exactly as written (an exact match).
func (r *Run) annotate(e *Effect, name string, to Summary) {
	var v Variable
	for _, x := range r.Plan.Vars {
		if x.Name == name {
			v = x
		}
	}
	p := to.primary()
	if p == nil || e.Same {
		return
	}
	if asked, err := strconv.ParseFloat(string(v.To), 64); err == nil && float64(p.N) < asked && len(to.Partial) > 0 {
		e.Changes = append(e.Changes, fmt.Sprintf("%d of the %s asked for: a cap of %d, said only by %s", p.N, v.To, p.N, to.Partial[0]))
	}
	var s string
	if json.Unmarshal(v.To, &s) == nil {
		for _, field := range sortedKeys(p.Fields) {
			if vals := p.Fields[field]; len(vals) == 1 && vals[0] == s {
				e.Changes = append(e.Changes, fmt.Sprintf("each row's %s is %q, exactly as written: an exact match", field, s))
				break
			}
		}
	}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Interacts reports whether the variable's effect after some other change
// differs in kind from its effect alone: then the order of changes matters.
func (f Finding) Interacts() bool {
	for _, c := range f.After {
		if f.Alone != nil && c.Effect.Class != f.Alone.Class {
			return true
		}
	}
	return false
}

// sentence says what a finding means.
func (r *Run) sentence(f Finding) string {
	name := f.Var.Name
	if f.Alone == nil {
		return name + ": its step did not run"
	}
	var moved []InContext
	differs := map[string]bool{}
	for _, c := range f.After {
		if !c.Effect.Same {
			moved = append(moved, c)
		}
		if c.Effect.Class != f.Alone.Class {
			for _, n := range c.After {
				differs[n] = true
			}
		}
	}
	switch {
	case !f.Alone.Same && len(differs) == 0:
		return fmt.Sprintf("%s alone moves the result: %s", name, f.Alone)
	case !f.Alone.Same:
		return fmt.Sprintf("%s alone moves the result (%s), and what it does depends on %s", name, f.Alone, strings.Join(names(differs, r.Plan), ", "))
	case len(moved) > 0:
		c := moved[0]
		return fmt.Sprintf("%s alone changes nothing; it acts only after %s: %s", name, strings.Join(c.After, " and "), c.Effect)
	case r.Plan.Exhaustive:
		return fmt.Sprintf("%s changes nothing, alone or after any other change", name)
	}
	return fmt.Sprintf("%s alone changes nothing (with more than %d arguments differing, jig tried each alone, not every order)", name, MaxExhaustive)
}

// names are the variables in set, in plan order.
func names(set map[string]bool, p *Plan) []string {
	var out []string
	for _, v := range p.Vars {
		if set[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// Path is one order of changes with the summary at each point.
type Path struct {
	Order []string
	// Points index Plan.Points: A, then each change, ending at B.
	Points []int
}

// Paths are every order of changes, for an exhaustive plan.
func (r *Run) Paths() []Path {
	var out []Path
	for _, order := range r.Plan.Orders() {
		p := Path{Order: order}
		set := map[string]bool{}
		p.Points = append(p.Points, r.Plan.index(set))
		for _, n := range order {
			set[n] = true
			p.Points = append(p.Points, r.Plan.index(set))
		}
		out = append(out, p)
	}
	return out
}
