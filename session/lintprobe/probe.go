// Package lintprobe is jig lint --probe: it calls a server's read-only
// tools with boundary arguments derived from their schemas — an
// unparseable date, a limit far over any cap, a known name in another case
// — and turns what they silently accepted into lint findings with the
// evidence of the call ("since='last month' accepted, 0 results, no
// error"). It never calls a tool not annotated readOnlyHint: true unless
// told to, and bounds how many calls it makes.
package lintprobe

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/lint"
	"github.com/mcpjig/jig/frames/schema"
	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session"
)

// Options bound a probe.
type Options struct {
	// AllowWrites lets the probe call tools not annotated read-only.
	AllowWrites bool
	// MaxCalls bounds the calls of the whole probe (default 200);
	// CallTimeout each one (default 10 s).
	MaxCalls    int
	CallTimeout time.Duration
}

// Caller is what the probe needs of a session.
type Caller interface {
	CallTool(ctx context.Context, name string, args json.RawMessage) (*session.Exchange, error)
}

// Result says what the probe did, beside its findings.
type Result struct {
	Findings []lint.Finding
	Called   []string // the tools called, in order
	Skipped  []string // "NAME: why"
	Calls    int
}

type prober struct {
	c       Caller
	o       Options
	harvest map[string]string // a field's name → a string value seen in results
	res     Result
}

// Run probes the tools of a surface through c.
func Run(ctx context.Context, c Caller, sf *surface.Surface, o Options) Result {
	if o.MaxCalls <= 0 {
		o.MaxCalls = 200
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	p := &prober{c: c, o: o, harvest: map[string]string{}}
	plan := lint.ProbePlan(sf)
	// Tools whose arguments the schemas fill are called first: their
	// results give the values (a customer's name) the others need.
	var later []lint.ProbeTool
	for _, t := range plan {
		if !t.ReadOnly && !o.AllowWrites {
			p.res.Skipped = append(p.res.Skipped, t.Name+": not annotated read-only (--allow-writes calls it)")
			continue
		}
		if args, ok := p.args(t, false); ok {
			p.probe(ctx, t, args)
		} else {
			later = append(later, t)
		}
	}
	for _, t := range later {
		args, ok := p.args(t, true)
		if !ok {
			p.res.Skipped = append(p.res.Skipped, t.Name+": no value known for a required argument")
			continue
		}
		p.probe(ctx, t, args)
	}
	return p.res
}

// args builds a call's required arguments; with harvested, from values
// seen in other tools' results too.
func (p *prober) args(t lint.ProbeTool, harvested bool) (map[string]any, bool) {
	args := map[string]any{}
	for _, a := range t.Required {
		switch {
		case a.Known:
			args[a.Name] = a.Value
		case harvested && a.Type == "string":
			v, ok := p.seen(a.Name)
			if !ok {
				return nil, false
			}
			args[a.Name] = v
		default:
			return nil, false
		}
	}
	return args, true
}

// seen finds a harvested value for an argument: a field of the same name,
// or one whose name's words contain the argument's (customer_name for
// customer).
func (p *prober) seen(name string) (string, bool) {
	if v, ok := p.harvest[strings.ToLower(name)]; ok {
		return v, true
	}
	want := words(name)
	var keys []string
	for k := range p.harvest {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		have := words(k)
		if len(want) > 0 && !slices.Contains(have, "id") && containsAll(have, want) {
			return p.harvest[k], true
		}
	}
	return "", false
}

// An outcome is what one call answered.
type outcome struct {
	rpcError, isError bool
	structured        json.RawMessage
	count             int
	truncated         bool
	failed            error // no answer at all
}

func (p *prober) call(ctx context.Context, tool string, args map[string]any) (outcome, bool) {
	if p.res.Calls >= p.o.MaxCalls {
		return outcome{}, false
	}
	p.res.Calls++
	raw, _ := json.Marshal(args)
	cctx, cancel := context.WithTimeout(ctx, p.o.CallTimeout)
	defer cancel()
	ex, err := p.c.CallTool(cctx, tool, raw)
	var o outcome
	switch {
	case ex != nil && len(ex.Error) > 0:
		o.rpcError = true
	case err != nil || ex == nil:
		o.failed = err
		return o, true
	}
	if o.rpcError {
		return o, true
	}
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(ex.Result, &res)
	o.isError = res.IsError
	o.structured = res.StructuredContent
	body := res.StructuredContent
	if len(body) == 0 && len(res.Content) == 1 && res.Content[0].Type == "text" && json.Valid([]byte(res.Content[0].Text)) {
		body = json.RawMessage(res.Content[0].Text)
	}
	o.count, o.truncated = measure(body, len(res.Content))
	if !o.isError {
		p.collect(body)
	}
	return o, true
}

// measure counts a result's items (the first list in it) and reads its
// truncation flags.
func measure(body json.RawMessage, contents int) (int, bool) {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return contents, false
	}
	switch v := v.(type) {
	case []any:
		return len(v), false
	case map[string]any:
		n, found, truncated := 0, false, false
		for _, k := range sortedKeys(v) {
			switch x := v[k].(type) {
			case []any:
				if !found {
					n, found = len(x), true
				}
			case bool:
				truncated = truncated || (x && isFlag(k))
			case string:
				truncated = truncated || (x != "" && isCursor(k))
			}
		}
		if !found {
			n = 1
		}
		return n, truncated
	}
	return contents, false
}

func isFlag(k string) bool {
	return slices.Contains([]string{"truncated", "has_more", "hasmore", "is_truncated", "istruncated", "more", "partial", "incomplete"}, strings.ToLower(k))
}

func isCursor(k string) bool {
	return slices.Contains([]string{"next_cursor", "nextcursor", "next_page_token", "nextpagetoken", "next_page", "nextpage"}, strings.ToLower(k))
}

// collect keeps the string values a result carries, by field name, for
// the arguments of tools called later.
func (p *prober) collect(body json.RawMessage) {
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 4 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				if s, ok := v[k].(string); ok && s != "" && len(s) <= 200 {
					if _, had := p.harvest[strings.ToLower(k)]; !had {
						p.harvest[strings.ToLower(k)] = s
					}
				}
				walk(v[k], depth+1)
			}
		case []any:
			for _, x := range v[:min(len(v), 20)] {
				walk(x, depth+1)
			}
		}
	}
	var v any
	if json.Unmarshal(body, &v) == nil {
		walk(v, 0)
	}
}

// probe calls a tool once as its schema allows, then once per boundary.
func (p *prober) probe(ctx context.Context, t lint.ProbeTool, args map[string]any) {
	base, ok := p.call(ctx, t.Name, args)
	if !ok {
		p.res.Skipped = append(p.res.Skipped, t.Name+": the probe's call budget is spent")
		return
	}
	p.res.Called = append(p.res.Called, t.Name)
	if base.failed != nil || base.rpcError {
		return
	}
	p.checkStructured(t, base)
	item := "tool " + t.Name
	add := func(rule, param, evidence, msg, fix string) {
		p.res.Findings = append(p.res.Findings, lint.Finding{Rule: rule, Item: item, Path: "/inputSchema/properties/" + param, Evidence: evidence, Message: msg, Fix: fix})
	}
	for _, d := range t.Dates {
		o, ok := p.call(ctx, t.Name, with(args, d, "last month"))
		if ok && o.failed == nil && !o.rpcError && !o.isError {
			add("probe-unparseable-date-accepted", d, fmt.Sprintf("%s='last month' accepted, %d result%s, no error", d, o.count, frames.Plural(o.count)),
				fmt.Sprintf("%q accepted a value no date parser reads, without an error", d),
				fmt.Sprintf(`reject what %q cannot parse with a tool error that says the form, and declare "format" and "pattern"`, d))
		}
	}
	for _, l := range t.Limits {
		o, ok := p.call(ctx, t.Name, with(args, l, 1000))
		if ok && o.failed == nil && !o.rpcError && !o.isError && o.truncated && o.count < 1000 {
			add("probe-limit-silently-capped", l, fmt.Sprintf("%s=1000 accepted, %d result%s, truncated", l, o.count, frames.Plural(o.count)),
				fmt.Sprintf("%q took 1000 and the results were cut to %d, with nothing in the schema saying so", l, o.count),
				fmt.Sprintf(`declare the cap as "maximum": %d on %q, and say it in the description`, o.count, l))
		}
	}
	for _, m := range t.Matches {
		p.probeCase(ctx, t, args, m, add)
	}
}

// probeCase calls a search with a value known to find something, in
// another case.
func (p *prober) probeCase(ctx context.Context, t lint.ProbeTool, args map[string]any, m string, add func(rule, param, evidence, msg, fix string)) {
	v, ok := args[m].(string)
	if !ok {
		if v, ok = p.seen(m); !ok {
			return
		}
	}
	other := swapCase(v)
	if other == v {
		return
	}
	found, ok := p.call(ctx, t.Name, with(args, m, v))
	if !ok || found.failed != nil || found.rpcError || found.isError || found.count == 0 {
		return
	}
	o, ok := p.call(ctx, t.Name, with(args, m, other))
	if ok && o.failed == nil && !o.rpcError && o.count != found.count {
		add("probe-case-sensitive-undocumented", m, fmt.Sprintf("%s=%q found %d, %s=%q found %d", m, v, found.count, m, other, o.count),
			fmt.Sprintf("%q matches case-sensitively and nothing says so", m),
			fmt.Sprintf(`say "exact, case-sensitive" in the description of %q, or match case-insensitively`, m))
	}
}

// checkStructured compares a result's structuredContent with the tool's
// outputSchema.
func (p *prober) checkStructured(t lint.ProbeTool, o outcome) {
	if len(o.structured) == 0 || o.isError {
		return
	}
	item := "tool " + t.Name
	if t.OutputSchema == nil {
		p.res.Findings = append(p.res.Findings, lint.Finding{Rule: "output-schema-missing", Item: item, Path: "/outputSchema",
			Message: "the result carried structuredContent, but the tool declares no outputSchema", Evidence: "structuredContent " + clip(string(o.structured), 80),
			Fix: "declare an outputSchema for the structured result"})
		return
	}
	vs, err := schema.Validate(t.OutputSchema, o.structured)
	if err != nil || len(vs) == 0 {
		return
	}
	p.res.Findings = append(p.res.Findings, lint.Finding{Rule: "structured-content-invalid", Item: item, Path: "/outputSchema",
		Message: fmt.Sprintf("the structuredContent a call returned does not match the tool's outputSchema (%d violation%s)", len(vs), frames.Plural(len(vs))), Evidence: vs[0].String(),
		Fix: "make the result match its schema, or the schema the result"})
}

func with(args map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(args)+1)
	for a, x := range args {
		out[a] = x
	}
	out[k] = v
	return out
}

// swapCase is a value in another case: lower case, or upper when it is
// lower already.
func swapCase(s string) string {
	if l := strings.ToLower(s); l != s {
		return l
	}
	return strings.ToUpper(s)
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
