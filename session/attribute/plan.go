// Package attribute turns two calls of one tool whose arguments differ in
// several places into a controlled experiment: it changes one argument at a
// time, from the first call's arguments to the second's, runs every step
// against a live server with everything else held still (one session, one
// attempt each, nothing else in flight), and says which change moved the
// result and how.
//
// It exists because of the seed transcript: the agent's second call moved
// customer, since and limit at once, and each of the three was on its own
// enough to turn an empty result into twenty rows. A difference in results
// can only be attributed to an input when exactly one input changed.
package attribute

import (
	"github.com/mcpjig/jig/frames"

	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A Variable is one top-level argument that differs between the two calls.
type Variable struct {
	Name string
	// From and To are its values in the first and second call, exactly as
	// written; nil where the call does not have it.
	From, To json.RawMessage
}

// Describe is "since ("last month" → "2026-01-01")", "limit (absent → 500)".
func (v Variable) Describe() string {
	return fmt.Sprintf("%s (%s → %s)", v.Name, literal(v.From), literal(v.To))
}

func literal(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	s := frames.CompactString(raw)
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}

// A Point is one set of arguments the plan runs: the first call's
// arguments with the variables in Set taken from the second call.
type Point struct {
	// Set names the variables taken from the second call, in Vars order.
	Set       []string
	Arguments json.RawMessage
}

// Label is "A" for no change, "B" for all of them, else the changed names
// joined with " + ".
func (p Point) Label(n int) string {
	switch len(p.Set) {
	case 0:
		return "A"
	case n:
		return "B"
	}
	return strings.Join(p.Set, " + ")
}

// Plan is what an attribution runs.
type Plan struct {
	Tool string
	Vars []Variable
	// Points are every distinct argument set to run: the first is the
	// first call's arguments (A), the last the second call's (B).
	Points []Point
	// Exhaustive says every subset of the variables is a point, so every
	// order of the changes is a path through the points (N ≤ MaxExhaustive).
	// Otherwise the points are A, each variable alone, and B.
	Exhaustive bool
}

// MaxExhaustive is the largest number of differing arguments for which
// every order of changes is tried (2^4 = 16 calls, 24 orders); beyond it
// each variable is tried alone from the first call.
const MaxExhaustive = 4

// NewPlan builds the single-variable paths from call a's arguments to call
// b's. Both must be JSON objects (or empty).
func NewPlan(tool string, a, b json.RawMessage) (*Plan, error) {
	ka, va, err := members(a)
	if err != nil {
		return nil, fmt.Errorf("the first call's arguments %v", err)
	}
	kb, vb, err := members(b)
	if err != nil {
		return nil, fmt.Errorf("the second call's arguments %v", err)
	}
	p := &Plan{Tool: tool}
	for _, k := range ka {
		if to, ok := vb[k]; !ok || canonical(to) != canonical(va[k]) {
			p.Vars = append(p.Vars, Variable{Name: k, From: va[k], To: to})
		}
	}
	for _, k := range kb {
		if _, ok := va[k]; !ok {
			p.Vars = append(p.Vars, Variable{Name: k, To: vb[k]})
		}
	}
	n := len(p.Vars)
	p.Exhaustive = n <= MaxExhaustive
	var sets [][]int
	if p.Exhaustive {
		// Every subset, by size, so that each point's one-smaller
		// neighbours come before it.
		for size := 0; size <= n; size++ {
			sets = append(sets, combinations(n, size)...)
		}
	} else {
		sets = append(sets, nil)
		for i := range n {
			sets = append(sets, []int{i})
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		sets = append(sets, all)
	}
	for _, set := range sets {
		pt := Point{Set: []string{}}
		for _, i := range set {
			pt.Set = append(pt.Set, p.Vars[i].Name)
		}
		pt.Arguments = p.arguments(ka, va, set)
		p.Points = append(p.Points, pt)
	}
	return p, nil
}

// arguments are a's arguments with the variables at set taken from b: a
// changed value replaces a's in place, a removed one is dropped, an added
// one goes at the end, each value byte for byte as its call wrote it.
func (p *Plan) arguments(keys []string, vals map[string]json.RawMessage, set []int) json.RawMessage {
	take := map[string]Variable{}
	for _, i := range set {
		take[p.Vars[i].Name] = p.Vars[i]
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(k string, v json.RawMessage) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		b.Write(bytes.TrimSpace(v))
	}
	for _, k := range keys {
		v, changed := take[k]
		switch {
		case !changed:
			put(k, vals[k])
		case v.To != nil:
			put(k, v.To)
		}
	}
	for _, v := range p.Vars {
		if _, changed := take[v.Name]; changed && v.From == nil {
			put(v.Name, v.To)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// index is the point whose set is exactly names, or -1.
func (p *Plan) index(names map[string]bool) int {
	for i, pt := range p.Points {
		if len(pt.Set) != len(names) {
			continue
		}
		ok := true
		for _, n := range pt.Set {
			ok = ok && names[n]
		}
		if ok {
			return i
		}
	}
	return -1
}

// Orders is every order of the variables when the plan is exhaustive (N!
// of them), each a path from A to B; nil otherwise.
func (p *Plan) Orders() [][]string {
	if !p.Exhaustive {
		return nil
	}
	names := make([]string, len(p.Vars))
	for i, v := range p.Vars {
		names[i] = v.Name
	}
	var out [][]string
	var perm func(prefix, rest []string)
	perm = func(prefix, rest []string) {
		if len(rest) == 0 {
			out = append(out, append([]string(nil), prefix...))
			return
		}
		for i := range rest {
			next := append(append([]string(nil), rest[:i]...), rest[i+1:]...)
			perm(append(prefix, rest[i]), next)
		}
	}
	perm(nil, names)
	return out
}

// combinations are the size-element subsets of 0..n-1, in order.
func combinations(n, size int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == size {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// members parses an arguments object into its keys, in document order, and
// each key's value exactly as written. Empty or null arguments are {}.
func members(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	vals := map[string]json.RawMessage{}
	if len(t) == 0 || string(t) == "null" {
		return nil, vals, nil
	}
	if t[0] != '{' {
		var v any
		if json.Unmarshal(t, &v) != nil {
			return nil, nil, fmt.Errorf("are not valid JSON")
		}
		return nil, nil, fmt.Errorf("are a JSON %s, not an object", kindOf(v))
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("are not valid JSON: %v", err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("are not valid JSON: %v", err)
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("are not valid JSON: %v", err)
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, nil, fmt.Errorf("are not valid JSON: %v", err)
	}
	return keys, vals, nil
}

// canonical is a JSON value with keys sorted and numbers normalized, so
// that 500 and 500.0, or keys in another order, are the same value.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return "value"
}
