package attribute

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpjig/jig/frames"
)

// An Effect is how a result changed from one step to the next, computed
// from the two summaries.
type Effect struct {
	// Changes say what moved: "orders 0 → 10", "PARTIAL (truncated: true)".
	Changes []string
	// Same says the two results are equal (apart from _meta).
	Same bool
	// Class is the kind of change, without its amounts ("orders+ partial+"),
	// so that one variable's effects in different contexts can be compared:
	// when they differ, the variable interacts with the others.
	Class string
	// unchanged is what stayed, for "no change (orders 0 → 0)".
	unchanged string
}

// String is the changes joined, or "no change".
func (e Effect) String() string {
	if e.Same {
		if e.unchanged != "" {
			return "no change (" + e.unchanged + ")"
		}
		return "no change"
	}
	return strings.Join(e.Changes, ", ")
}

// Compare says how the result summarized by to differs from from's.
func Compare(from, to Summary) Effect {
	if from.Digest == to.Digest {
		e := Effect{Same: true}
		if p := to.primary(); p != nil {
			e.unchanged = fmt.Sprintf("%s %d → %d", p.Name(), p.N, p.N)
		}
		return e
	}
	var e Effect
	var class []string
	add := func(c, text string) {
		class = append(class, c)
		if text != "" {
			e.Changes = append(e.Changes, text)
		}
	}
	switch {
	case from.Code == 0 && to.Code != 0:
		add("error+", fmt.Sprintf("JSON-RPC error %d (%s)", to.Code, to.Message))
	case from.Code != 0 && to.Code == 0:
		add("error-", fmt.Sprintf("no longer JSON-RPC error %d", from.Code))
	case from.Code != to.Code:
		add("error~", fmt.Sprintf("JSON-RPC error %d → %d", from.Code, to.Code))
	}
	if from.IsError != to.IsError {
		add(fmt.Sprintf("isError=%v", to.IsError), fmt.Sprintf("isError %v → %v", from.IsError, to.IsError))
	}
	counted := arrayChanges(from, to, add)
	fp, tp := len(from.Partial) > 0, len(to.Partial) > 0
	switch {
	case !fp && tp:
		add("partial+", "PARTIAL ("+strings.Join(to.Partial, ", ")+")")
	case fp && !tp:
		add("partial-", "no longer partial")
	case fp && tp && counted:
		e.Changes = append(e.Changes, strings.Join(to.Partial, ", ")+" stays")
	}
	if from.Text != to.Text && from.Text != "" && to.Text != "" {
		add("text~", fmt.Sprintf("text %q → %q", from.Text, to.Text))
	}
	if len(class) == 0 {
		add("other~", fmt.Sprintf("the result changed, not its counts or flags (%s → %s)", frames.HumanSize(from.Size), frames.HumanSize(to.Size)))
	}
	e.Class = strings.Join(class, " ")
	return e
}

// arrayChanges adds the change of each array's count, or of what its rows
// are when the count stayed; it reports whether a count changed.
func arrayChanges(from, to Summary, add func(class, text string)) bool {
	// The content blocks are counted only when nothing else is: that a
	// text block's JSON changed is said by its arrays.
	fr, tr := from.rows(), to.rows()
	if from.primary() != nil || to.primary() != nil {
		fr, tr = withoutContent(fr), withoutContent(tr)
	}
	byName := func(rows []Array, name string) *Array {
		for i := range rows {
			if rows[i].Name() == name {
				return &rows[i]
			}
		}
		return nil
	}
	var names []string
	for _, a := range append(append([]Array(nil), fr...), tr...) {
		if !slices.Contains(names, a.Name()) {
			names = append(names, a.Name())
		}
	}
	counted := false
	for _, n := range names {
		a, b := byName(fr, n), byName(tr, n)
		var an, bn int
		if a != nil {
			an = a.N
		}
		if b != nil {
			bn = b.N
		}
		switch {
		case an < bn:
			add(n+"+", fmt.Sprintf("%s %d → %d", n, an, bn))
			counted = true
		case an > bn:
			add(n+"-", fmt.Sprintf("%s %d → %d", n, an, bn))
			counted = true
		case a != nil && b != nil && an > 0 && n != "content":
			if d := fieldChanges(a.Fields, b.Fields); d != "" {
				add(n+"~", fmt.Sprintf("%s %d → %d, other rows: %s", n, an, bn, d))
			}
		}
	}
	return counted
}

// fieldChanges says which members' values changed across an array's rows:
// `customer_name "Acme Corp" → "acme"`.
func fieldChanges(a, b map[string][]string) string {
	var keys []string
	for k := range a {
		if _, ok := b[k]; ok && !slices.Equal(a[k], b[k]) {
			keys = append(keys, k)
		}
	}
	// Members with one value in every row say what the rows are (whose
	// orders): they come first.
	single := func(k string) bool { return len(a[k]) == 1 && len(b[k]) == 1 }
	slices.SortFunc(keys, func(x, y string) int {
		if single(x) != single(y) {
			if single(x) {
				return -1
			}
			return 1
		}
		return strings.Compare(x, y)
	})
	var parts []string
	for _, k := range keys {
		// A member with one value in every row says it all; the mixed ones
		// (statuses) are only named when nothing else changed.
		if len(parts) == 2 || len(parts) > 0 && !single(k) {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", k, quoteAll(a[k]), quoteAll(b[k])))
	}
	return strings.Join(parts, "; ")
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

func withoutContent(rows []Array) []Array {
	var out []Array
	for _, a := range rows {
		if a.Path != "content" {
			out = append(out, a)
		}
	}
	return out
}
