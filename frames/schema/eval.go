package schema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// evaluated is what a schema that passed evaluated of an object or array,
// for unevaluatedProperties and unevaluatedItems: the property names, the
// items before index items (or all of them), and single items (contains).
type evaluated struct {
	props map[string]bool
	items int
	all   bool
	idx   map[int]bool
}

func (e *evaluated) merge(o *evaluated) {
	if o == nil {
		return
	}
	for p := range o.props {
		if e.props == nil {
			e.props = map[string]bool{}
		}
		e.props[p] = true
	}
	e.items = max(e.items, o.items)
	e.all = e.all || o.all
	for i := range o.idx {
		if e.idx == nil {
			e.idx = map[int]bool{}
		}
		e.idx[i] = true
	}
}

func (e *evaluated) prop(p string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[p] = true
}

// A validation walks one instance; scope is the dynamic scope, the
// resources entered on the way to the current schema ($dynamicRef).
type validation struct {
	d     *document
	scope []*resource
}

func at(path []string, tok string) []string {
	return append(path[:len(path):len(path)], tok)
}

func leaf(path []string, format string, a ...any) Violation {
	return Violation{Path: Pointer(path), Message: fmt.Sprintf(format, a...)}
}

// eval validates v against n. It returns every violation, and what n
// evaluated when it passed (nil unless the document needs it).
func (c *validation) eval(n *node, v any, path []string) ([]Violation, *evaluated) {
	if n.boolean != nil {
		if *n.boolean {
			return nil, c.everything(v)
		}
		return []Violation{leaf(path, "false schema")}, nil
	}
	if n.unchecked {
		return nil, c.everything(v)
	}
	if len(c.scope) == 0 || c.scope[len(c.scope)-1] != n.res {
		c.scope = append(c.scope, n.res)
		defer func() { c.scope = c.scope[:len(c.scope)-1] }()
	}
	var ev *evaluated
	if c.d.track {
		ev = &evaluated{}
	}

	// A value of the wrong type, or not one of the values allowed, says all
	// there is to say about it.
	if n.types != 0 && !hasType(n.types, v) {
		return []Violation{leaf(path, "got %s, want %s", typeName(v), wantTypes(n.types))}, nil
	}
	if n.hasConst && !equal(v, n.constV) {
		if isCompound(n.constV) {
			return []Violation{leaf(path, "'const' failed")}, nil
		}
		return []Violation{leaf(path, "value must be %s", display(n.constV))}, nil
	}
	if n.hasEnum && !inEnum(v, n.enum) {
		return []Violation{leaf(path, "%s", enumMessage(n.enum))}, nil
	}
	if s, ok := v.(string); ok && n.checkFmt != nil {
		if err := n.checkFmt(s); err != nil {
			return []Violation{leaf(path, "%s is not valid %s: %v", quote(s), n.format, err)}, nil
		}
	}

	var errs []Violation
	apply := func(sub *node) bool {
		e, a := c.eval(sub, v, path)
		errs = append(errs, e...)
		if len(e) == 0 && ev != nil {
			ev.merge(a)
		}
		return len(e) == 0
	}
	if n.ref != nil {
		if n.refOnly {
			return c.eval(n.ref, v, path)
		}
		apply(n.ref)
	}
	switch x := v.(type) {
	case map[string]any:
		errs = append(errs, c.object(n, x, path, ev)...)
	case []any:
		errs = append(errs, c.array(n, x, path, ev)...)
	case string:
		errs = append(errs, stringChecks(n, x, path)...)
	case json.Number:
		errs = append(errs, numberChecks(n, x, path)...)
	}
	if n.dynRef != nil {
		apply(c.dynamicTarget(n))
	}
	if n.recRef != nil {
		apply(c.recursiveTarget(n))
	}
	if n.not != nil {
		if e, _ := c.eval(n.not, v, path); len(e) == 0 {
			errs = append(errs, leaf(path, "'not' failed"))
		}
	}
	for _, s := range n.allOf {
		apply(s)
	}
	if len(n.anyOf) > 0 {
		var all []Violation
		matched := false
		for _, s := range n.anyOf {
			e, a := c.eval(s, v, path)
			if len(e) == 0 {
				matched = true
				if ev == nil {
					break // nothing to record: one is enough
				}
				ev.merge(a)
			}
			all = append(all, e...)
		}
		if !matched {
			errs = append(errs, all...)
		}
	}
	if len(n.oneOf) > 0 {
		var all []Violation
		var matched []int
		var first *evaluated
		for i, s := range n.oneOf {
			e, a := c.eval(s, v, path)
			if len(e) == 0 {
				matched = append(matched, i)
				if first == nil {
					first = a
				}
				if len(matched) == 2 {
					break
				}
			}
			all = append(all, e...)
		}
		switch len(matched) {
		case 0:
			errs = append(errs, all...)
		case 1:
			if ev != nil {
				ev.merge(first)
			}
		default:
			errs = append(errs, leaf(path, "'oneOf' failed, subschemas %d, %d matched", matched[0], matched[1]))
		}
	}
	if n.ifS != nil {
		e, a := c.eval(n.ifS, v, path)
		if len(e) == 0 {
			if ev != nil {
				ev.merge(a)
			}
			if n.thenS != nil {
				apply(n.thenS)
			}
		} else if n.elseS != nil {
			apply(n.elseS)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, dep := range n.depSchemas {
			if _, ok := obj[dep.prop]; ok {
				apply(dep.n)
			}
		}
		if n.unevalProps != nil {
			for _, name := range sortedKeys(obj) {
				if ev.props[name] {
					continue
				}
				e, _ := c.eval(n.unevalProps, obj[name], at(path, name))
				errs = append(errs, e...)
				ev.prop(name)
			}
		}
	}
	if arr, ok := v.([]any); ok && n.unevalItems != nil {
		if !ev.all {
			for i := ev.items; i < len(arr); i++ {
				if ev.idx[i] {
					continue
				}
				e, _ := c.eval(n.unevalItems, arr[i], at(path, strconv.Itoa(i)))
				errs = append(errs, e...)
			}
		}
		ev.all = true
	}
	if len(errs) > 0 {
		return errs, nil
	}
	return nil, ev
}

// everything is what a true schema evaluated: all of an object or array.
func (c *validation) everything(v any) *evaluated {
	if !c.d.track {
		return nil
	}
	ev := &evaluated{}
	switch x := v.(type) {
	case map[string]any:
		for p := range x {
			ev.prop(p)
		}
	case []any:
		ev.all = true
	}
	return ev
}

// dynamicTarget is where a $dynamicRef leads: its static target, unless
// that is a $dynamicAnchor, in which case the outermost resource of the
// dynamic scope with the same $dynamicAnchor wins.
func (c *validation) dynamicTarget(n *node) *node {
	if n.dynAnchor == "" {
		return n.dynRef
	}
	for _, r := range c.scope {
		if r.dynamic[n.dynAnchor] {
			if t := c.d.nodes[r.anchors[n.dynAnchor]]; t != nil {
				return t
			}
		}
	}
	return n.dynRef
}

// recursiveTarget is where a $recursiveRef leads (draft 2019-09): its
// target, unless that has "$recursiveAnchor": true, in which case the
// outermost resource of the dynamic scope with it too.
func (c *validation) recursiveTarget(n *node) *node {
	if !n.recRef.res.recursive || n.recRef.loc != n.recRef.res.loc {
		return n.recRef
	}
	for _, r := range c.scope {
		if r.recursive {
			if t := c.d.nodes[r.loc]; t != nil {
				return t
			}
		}
	}
	return n.recRef
}

func (c *validation) object(n *node, obj map[string]any, path []string, ev *evaluated) []Violation {
	var errs []Violation
	if n.minProps >= 0 && len(obj) < n.minProps {
		errs = append(errs, leaf(path, "minProperties: got %d, want %d", len(obj), n.minProps))
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		errs = append(errs, leaf(path, "maxProperties: got %d, want %d", len(obj), n.maxProps))
	}
	if missing := missingOf(obj, n.required); len(missing) == 1 {
		errs = append(errs, leaf(path, "missing property %s", quote(missing[0])))
	} else if len(missing) > 1 {
		errs = append(errs, leaf(path, "missing properties %s", quoteAll(missing)))
	}
	for _, dep := range n.depRequired {
		if _, ok := obj[dep.prop]; !ok {
			continue
		}
		if missing := missingOf(obj, dep.required); len(missing) > 0 {
			errs = append(errs, leaf(path, "properties %s required, if %s exists", quoteAll(missing), quote(dep.prop)))
		}
	}
	names := sortedKeys(obj)
	var extra []string
	for _, name := range names {
		pv := obj[name]
		done := false
		if s, ok := n.props[name]; ok {
			done = true
			e, _ := c.eval(s, pv, at(path, name))
			errs = append(errs, e...)
		}
		for _, p := range n.patterns {
			if p.re.MatchString(name) {
				done = true
				e, _ := c.eval(p.n, pv, at(path, name))
				errs = append(errs, e...)
			}
		}
		if !done {
			switch {
			case n.addPropsOff:
				done = true
				extra = append(extra, name)
			case n.addProps != nil:
				done = true
				e, _ := c.eval(n.addProps, pv, at(path, name))
				errs = append(errs, e...)
			}
		}
		if done && ev != nil {
			ev.prop(name)
		}
	}
	if len(extra) > 0 {
		errs = append(errs, leaf(path, "additional properties %s not allowed", quoteAll(extra)))
	}
	if n.propNames != nil {
		for _, name := range names {
			e, _ := c.eval(n.propNames, name, nil)
			if len(e) == 0 {
				continue
			}
			msgs := make([]string, len(e))
			for i, v := range e {
				msgs[i] = v.Message
			}
			sort.Strings(msgs)
			errs = append(errs, leaf(path, "invalid property name %s: %s", quote(name), strings.Join(msgs, "; ")))
		}
	}
	return errs
}

func missingOf(obj map[string]any, required []string) []string {
	var missing []string
	for _, r := range required {
		if _, ok := obj[r]; !ok {
			missing = append(missing, r)
		}
	}
	return missing
}

func (c *validation) array(n *node, arr []any, path []string, ev *evaluated) []Violation {
	var errs []Violation
	if n.minItems >= 0 && len(arr) < n.minItems {
		errs = append(errs, leaf(path, "minItems: got %d, want %d", len(arr), n.minItems))
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		errs = append(errs, leaf(path, "maxItems: got %d, want %d", len(arr), n.maxItems))
	}
	if n.unique {
		if i, j := duplicate(arr); i >= 0 {
			errs = append(errs, leaf(path, "items at %d and %d are equal", i, j))
		}
	}
	done := min(len(n.prefix), len(arr))
	for i := range done {
		e, _ := c.eval(n.prefix[i], arr[i], at(path, strconv.Itoa(i)))
		errs = append(errs, e...)
	}
	switch {
	case n.addItemsOff:
		if len(arr) > done {
			errs = append(errs, leaf(path, "last %d additionalItem(s) not allowed", len(arr)-done))
		}
		done = len(arr)
	case n.items != nil:
		for i := done; i < len(arr); i++ {
			e, _ := c.eval(n.items, arr[i], at(path, strconv.Itoa(i)))
			errs = append(errs, e...)
		}
		done = len(arr)
	}
	if ev != nil {
		ev.items = max(ev.items, done)
	}
	if n.contains != nil {
		var matched []int
		for i, item := range arr {
			if e, _ := c.eval(n.contains, item, at(path, strconv.Itoa(i))); len(e) == 0 {
				matched = append(matched, i)
				if ev != nil && n.draft >= draft2020 {
					if ev.idx == nil {
						ev.idx = map[int]bool{}
					}
					ev.idx[i] = true
				}
			}
		}
		switch {
		case n.minContains >= 0 && len(matched) < n.minContains:
			errs = append(errs, leaf(path, "%s match contains schema, want at least %d", itemsAt(matched), n.minContains))
		case n.minContains < 0 && len(matched) == 0:
			errs = append(errs, leaf(path, "no items match contains schema"))
		}
		if n.maxContains >= 0 && len(matched) > n.maxContains {
			errs = append(errs, leaf(path, "%s match contains schema, want at most %d", itemsAt(matched), n.maxContains))
		}
	}
	return errs
}

// itemsAt says how many items matched, and which: "2 items (at 0, 3)".
func itemsAt(idx []int) string {
	if len(idx) == 0 {
		return "no items"
	}
	at := make([]string, len(idx))
	for i, x := range idx {
		at[i] = strconv.Itoa(x)
	}
	what := "items"
	if len(idx) == 1 {
		what = "item"
	}
	return fmt.Sprintf("%d %s (at %s)", len(idx), what, strings.Join(at, ", "))
}

func stringChecks(n *node, s string, path []string) []Violation {
	var errs []Violation
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if n.minLen >= 0 && l < n.minLen {
			errs = append(errs, leaf(path, "minLength: got %d, want %d", l, n.minLen))
		}
		if n.maxLen >= 0 && l > n.maxLen {
			errs = append(errs, leaf(path, "maxLength: got %d, want %d", l, n.maxLen))
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		errs = append(errs, leaf(path, "%s does not match pattern %s", quote(s), quote(n.patternSrc)))
	}
	return errs
}

func numberChecks(n *node, num json.Number, path []string) []Violation {
	d, ok := parseDecimal(string(num))
	if !ok {
		return nil
	}
	var errs []Violation
	check := func(b *bound, kw string, fails func(c int) bool) {
		if b != nil && fails(d.cmp(b.d)) {
			errs = append(errs, leaf(path, "%s: got %s, want %s", kw, num, b.text))
		}
	}
	check(n.minimum, "minimum", func(c int) bool { return c < 0 })
	check(n.maximum, "maximum", func(c int) bool { return c > 0 })
	check(n.exclMin, "exclusiveMinimum", func(c int) bool { return c <= 0 })
	check(n.exclMax, "exclusiveMaximum", func(c int) bool { return c >= 0 })
	if n.multipleOf != nil && !d.multipleOf(n.multipleOf.d) {
		errs = append(errs, leaf(path, "multipleOf: got %s, want %s", num, n.multipleOf.text))
	}
	return errs
}

func hasType(types uint8, v any) bool {
	t := typeBit(typeName(v))
	if types&t != 0 {
		return true
	}
	if t == tNumber && types&tInteger != 0 {
		d, ok := numberOf(v)
		return ok && d.isInteger()
	}
	return false
}

func wantTypes(types uint8) string {
	var want []string
	for i, name := range typeNames {
		if types&(1<<i) != 0 {
			want = append(want, name)
		}
	}
	return strings.Join(want, " or ")
}

// equal is JSON equality: numbers by value (1 and 1.0 are equal), objects
// whatever their key order.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		dx, ok1 := numberOf(x)
		dy, ok2 := numberOf(b)
		return ok1 && ok2 && dx.cmp(dy) == 0
	default:
		return a == b // nil, bool, string
	}
}

// duplicate returns the first two equal items, or -1, -1.
func duplicate(a []any) (int, int) {
	for j := 1; j < len(a); j++ {
		for i := range j {
			if equal(a[i], a[j]) {
				return i, j
			}
		}
	}
	return -1, -1
}

func inEnum(v any, enum []any) bool {
	for _, e := range enum {
		if equal(v, e) {
			return true
		}
	}
	return false
}

func isCompound(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func enumMessage(enum []any) string {
	if len(enum) == 0 {
		return "no value is allowed (enum is empty)"
	}
	want := make([]string, len(enum))
	for i, e := range enum {
		if isCompound(e) {
			return "'enum' failed"
		}
		want[i] = display(e)
	}
	if len(want) == 1 {
		return "value must be " + want[0]
	}
	return "value must be one of " + strings.Join(want, ", ")
}

// display shows a primitive value the way violations quote it.
func display(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case nil:
		return "null"
	case map[string]any, []any:
		return "value"
	default:
		return fmt.Sprint(x)
	}
}

// quote puts s in single quotes, Go-escaped, with ' escaped and " not.
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, `'`, `\'`) + "'"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
