package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/mcpjig/jig/frames"
)

// Gates are CI thresholds in the k6 style, per tool ("*" for every tool):
//
//	{"search_orders": {"p95_latency_ms": "<300",
//	                   "cardinality(/structuredContent/orders)": "drop<40%",
//	                   "error_rate": "<1%"}}
//
// A threshold is a comparison with a number (<, <=, >, >=, ==; a trailing %
// divides by 100) of the current value, or drop<N%, rise<N%, change<N% of
// its relative change from the baseline. A gate with not enough data is
// its own outcome, which fails the run unless the gate is written
// {"threshold": "<300", "not_enough_data": "pass"}.
type Gates struct {
	File  string
	gates []gate
}

type gate struct {
	tool, metric, threshold string
	fn, path                string // cardinality(/x): fn "cardinality", path "/x"
	rel                     string // "", "drop", "rise", "change"
	op                      string
	limit                   float64
	allowNotEnough          bool
}

// Gate metrics: per tool, and per field (fn(PATH)).
var (
	toolMetrics  = []string{"calls", "p50_latency_ms", "p95_latency_ms", "p99_latency_ms", "mean_latency_ms", "error_rate", "is_error_rate", "unusable_rate", "p50_size_bytes", "p95_size_bytes", "drift"}
	fieldMetrics = []string{"cardinality", "median", "mean", "p95", "rate", "presence"}
)

// LoadGates reads a gates file (JSON, comments allowed).
func LoadGates(path string) (*Gates, error) {
	data, err := frames.ReadRegular(path, frames.MaxConfigFile)
	if err != nil {
		return nil, fmt.Errorf("gates %s: %v", path, err)
	}
	return ParseGates(path, data)
}

// ParseGates reads gates from data; name is the file for errors.
func ParseGates(name string, data []byte) (*Gates, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("gates %s: %s", name, fmt.Sprintf(format, a...))
	}
	std, err := hujson.Standardize(data)
	if err != nil {
		return nil, fail("not valid JSON: %v", err)
	}
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(std, &raw); err != nil {
		return nil, fail(`%v (want {"TOOL": {"METRIC": "THRESHOLD"}})`, err)
	}
	if len(raw) == 0 {
		return nil, fail(`no gates (want {"TOOL": {"METRIC": "THRESHOLD"}})`)
	}
	g := &Gates{File: name}
	for _, tool := range sortedKeys(raw) {
		if len(raw[tool]) == 0 {
			// A tool with no gates checks nothing: a gates file must not
			// pass by saying nothing.
			return nil, fail(`%s: no gates for this tool (want {"%s": {"METRIC": "THRESHOLD"}})`, tool, tool)
		}
		for _, metric := range sortedKeys(raw[tool]) {
			thresholds, allow, err := gateValue(raw[tool][metric])
			if err != nil {
				return nil, fail("%s.%s: %v", tool, metric, err)
			}
			for _, th := range thresholds {
				x, err := parseGate(tool, metric, th)
				if err != nil {
					return nil, fail("%s.%s: %v", tool, metric, err)
				}
				x.allowNotEnough = allow
				g.gates = append(g.gates, x)
			}
		}
	}
	return g, nil
}

func gateValue(raw json.RawMessage) (thresholds []string, allow bool, err error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, false, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list, false, nil
	}
	var obj struct {
		Threshold     json.RawMessage `json:"threshold"`
		NotEnoughData string          `json:"not_enough_data"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if dec.Decode(&obj) != nil || obj.Threshold == nil {
		return nil, false, fmt.Errorf(`want a threshold string ("<300"), a list of them, or {"threshold": "<300", "not_enough_data": "pass"}`)
	}
	switch obj.NotEnoughData {
	case "", "fail":
	case "pass":
		allow = true
	default:
		return nil, false, fmt.Errorf(`not_enough_data is %q (want "pass" or "fail")`, obj.NotEnoughData)
	}
	thresholds, _, err = gateValue(obj.Threshold)
	return thresholds, allow, err
}

func parseGate(tool, metric, threshold string) (gate, error) {
	g := gate{tool: tool, metric: metric, threshold: threshold}
	if fn, rest, ok := strings.Cut(metric, "("); ok && strings.HasSuffix(rest, ")") {
		g.fn, g.path = fn, strings.TrimSuffix(rest, ")")
		known := false
		for _, m := range fieldMetrics {
			known = known || m == fn
		}
		if !known || !strings.HasPrefix(g.path, "/") {
			return g, fmt.Errorf("metric %q: want one of %s(PATH) with PATH a JSON Pointer such as /structuredContent/orders", metric, strings.Join(fieldMetrics, "(PATH), "))
		}
	} else {
		known := false
		for _, m := range toolMetrics {
			known = known || m == metric
		}
		if !known {
			return g, fmt.Errorf("metric %q is unknown (want one of %s, or %s(PATH))", metric, strings.Join(toolMetrics, ", "), strings.Join(fieldMetrics, "(PATH), "))
		}
	}
	th := strings.ReplaceAll(strings.TrimSpace(threshold), " ", "")
	if metric == "drift" {
		if th != "none" {
			return g, fmt.Errorf(`threshold %q: the drift gate takes "none"`, threshold)
		}
		g.op = "none"
		return g, nil
	}
	for _, rel := range []string{"drop", "rise", "change"} {
		if r, ok := strings.CutPrefix(th, rel); ok {
			g.rel, th = rel, r
			if !strings.HasSuffix(th, "%") {
				return g, fmt.Errorf("threshold %q: a %s is relative: write it in per cent (%s<40%%)", threshold, rel, rel)
			}
			break
		}
	}
	for _, op := range []string{"<=", ">=", "==", "<", ">"} {
		if r, ok := strings.CutPrefix(th, op); ok {
			g.op, th = op, r
			break
		}
	}
	if g.op == "" || g.rel != "" && g.op != "<" && g.op != "<=" {
		return g, fmt.Errorf(`threshold %q: want <N, <=N, >N, >=N, ==N (N%% for a share), or drop<N%%, rise<N%%, change<N%%`, threshold)
	}
	pctSign := strings.HasSuffix(th, "%")
	x, err := strconv.ParseFloat(strings.TrimSuffix(th, "%"), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		// NaN and Inf parse: a gate <NaN failed whatever was measured,
		// <Inf passed whatever was.
		return g, fmt.Errorf("threshold %q: %q is not a finite number", threshold, th)
	}
	if pctSign {
		x /= 100
	}
	g.limit = x
	return g, nil
}

// Gate outcomes.
const (
	GatePass      = "pass"
	GateFail      = "fail"
	GateNotEnough = "not enough data"
	// GateNoTool is a gate whose tool neither side called (a typo, or
	// recordings of another server): it checked nothing, so it never
	// passes, and it is no shortage of data either.
	GateNoTool = "no such tool"
	// GateNoPath is a per-field gate whose path holds no value in any
	// call of its tool on either side (a typo in the path): it checked
	// nothing, and no shortage of data explains it, so it never passes.
	GateNoPath = "no such path"
)

// A GateResult is one gate evaluated.
type GateResult struct {
	Tool      string `json:"tool"`
	Metric    string `json:"metric"`
	Threshold string `json:"threshold"`
	Outcome   string `json:"outcome"`
	// Shape is the argument shape that decided a per-field gate (the
	// worst one).
	Shape    string  `json:"shape,omitempty"`
	Value    float64 `json:"value"`
	Baseline float64 `json:"baseline,omitempty"`
	N        int64   `json:"n"`
	Detail   string  `json:"detail"`
	// Allowed says a gate with not enough data passes because it says so.
	Allowed bool `json:"not_enough_data_passes,omitempty"`
}

// GateReport is every gate evaluated.
type GateReport struct {
	File      string       `json:"file"`
	Results   []GateResult `json:"results"`
	Pass      int          `json:"passed"`
	Fail      int          `json:"failed"`
	NotEnough int          `json:"not_enough_data"`
	NoTool    int          `json:"no_such_tool"`
	NoPath    int          `json:"no_such_path"`
}

// Passed reports whether every gate passed (not enough data passes only
// where its gate allows it).
func (r GateReport) Passed() bool {
	for _, g := range r.Results {
		if g.Outcome == GateFail || g.Outcome == GateNoTool || g.Outcome == GateNoPath || g.Outcome == GateNotEnough && !g.Allowed {
			return false
		}
	}
	return true
}

// Evaluate evaluates the gates on the current calls, against the
// baseline's for relative thresholds, with the drift report for the drift
// gate.
func (gs *Gates) Evaluate(base, cur *Collector, drift DriftReport) GateReport {
	r := GateReport{File: gs.File, Results: []GateResult{}}
	min := int64(drift.Options.withDefaults().MinSample)
	tools := map[string]bool{}
	for t := range cur.tools {
		tools[t] = true
	}
	for t := range base.tools {
		tools[t] = true
	}
	for _, g := range gs.gates {
		names := []string{g.tool}
		if g.tool == "*" {
			names = sortedKeys(tools)
		}
		if g.tool == "*" && len(names) == 0 || g.tool != "*" && !tools[g.tool] {
			r.NoTool++
			r.Results = append(r.Results, noTool(g, sortedKeys(tools)))
			continue
		}
		for _, t := range names {
			res := g.evaluate(t, base, cur, drift, min)
			res.Value, res.Baseline = finite(res.Value), finite(res.Baseline)
			switch res.Outcome {
			case GatePass:
				r.Pass++
			case GateFail:
				r.Fail++
			case GateNoPath:
				r.NoPath++
			default:
				r.NotEnough++
				res.Allowed = g.allowNotEnough
			}
			r.Results = append(r.Results, res)
		}
	}
	return r
}

// noTool is the result of a gate that matched no tool called on either
// side, with the nearest names that were.
func noTool(g gate, called []string) GateResult {
	res := GateResult{Tool: g.tool, Metric: g.metric, Threshold: g.threshold, Outcome: GateNoTool}
	switch {
	case g.tool == "*":
		res.Detail = "no tool was called on either side: the gate checked nothing"
	case len(called) == 0:
		res.Detail = fmt.Sprintf("neither side called %s (no tool was called at all)", g.tool)
	default:
		near := ""
		if d := frames.DidYouMean(g.tool, called); d != "" {
			near = " (" + strings.TrimPrefix(d, "; ") + ")"
		}
		res.Detail = fmt.Sprintf("neither side called %s%s; the tools called are %s", g.tool, near, strings.Join(firstN(called, 8), ", "))
	}
	return res
}

func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], "…")
}

func (g gate) evaluate(tool string, base, cur *Collector, drift DriftReport, min int64) GateResult {
	res := GateResult{Tool: tool, Metric: g.metric, Threshold: g.threshold}
	if g.metric == "drift" {
		return g.driftGate(res, drift)
	}
	if g.fn == "" {
		b, c := base.tools[tool], cur.tools[tool]
		cv, cn := toolValue(g.metric, c)
		bv, bn := toolValue(g.metric, b)
		return g.judge(res, "", bv, bn, cv, cn, min)
	}
	// Per field: every shape with enough data is held to it; the worst decides.
	var worst *GateResult
	for _, cg := range cur.Groups() {
		if cg.Tool != tool {
			continue
		}
		cv, cn := fieldValue(g.fn, g.path, cg)
		bv, bn := fieldValue(g.fn, g.path, base.groups[groupKey{cg.Tool, cg.Shape}])
		r := g.judge(res, cg.Shape, bv, bn, cv, cn, min)
		if worst == nil || rank(r.Outcome) > rank(worst.Outcome) {
			worst = &r
		}
	}
	if worst == nil {
		res.Outcome, res.Detail = GateNotEnough, "no current calls of the tool"
		return res
	}
	if g.fn != "presence" && !pathSeen(g.path, tool, cur) && !pathSeen(g.path, tool, base) {
		res.Outcome = GateNoPath
		res.Detail = fmt.Sprintf("no call of %s on either side has a value at %s: the gate checked nothing (a typo in the path? jig stats --tool %s lists the fields)", tool, g.path, tool)
		return res
	}
	return *worst
}

// pathSeen reports whether any call of tool in c has a value at path
// (of any type: a cardinality gate on a path that is no array is not a
// missing path).
func pathSeen(path, tool string, c *Collector) bool {
	for _, g := range c.Groups() {
		if g.Tool == tool && g.Fields[path] != nil {
			return true
		}
	}
	return false
}

func rank(outcome string) int {
	switch outcome {
	case GateFail:
		return 2
	case GatePass:
		return 1
	}
	return 0
}

func (g gate) driftGate(res GateResult, drift DriftReport) GateResult {
	res.Outcome, res.Detail = GateNotEnough, "no group of the tool had enough data on both sides"
	for _, gd := range drift.Groups {
		if gd.Tool != res.Tool {
			continue
		}
		switch gd.Verdict {
		case Drift:
			res.Outcome, res.Shape = GateFail, gd.Shape
			res.Detail = fmt.Sprintf("shape %s drifted", gd.Shape)
			return res
		case NoDrift:
			res.Outcome, res.Detail = GatePass, "no group drifted"
		}
	}
	return res
}

func (g gate) judge(res GateResult, shape string, bv float64, bn int64, cv float64, cn int64, min int64) GateResult {
	res.Shape, res.Value, res.N = shape, cv, cn
	if cn < min || g.rel != "" && bn < min || math.IsNaN(cv) {
		res.Outcome = GateNotEnough
		res.Detail = counted(cn, "current value")
		if g.rel != "" {
			res.Detail += fmt.Sprintf(" and %d baseline", bn)
		}
		if min == 1 {
			res.Detail += "; 1 is needed"
		} else {
			res.Detail += fmt.Sprintf("; %d are needed", min)
		}
		return res
	}
	v := cv
	if g.rel != "" {
		res.Baseline = bv
		change := relChange(bv, cv)
		switch g.rel {
		case "drop":
			v = -change
		case "rise":
			v = change
		default:
			v = math.Abs(change)
		}
		v = math.Max(v, 0)
		res.Detail = fmt.Sprintf("%s → %s: a %s of %s", fnum(bv), fnum(cv), g.rel, pct(v))
	} else {
		res.Detail = fmt.Sprintf("%s over %d values", fnum(cv), cn)
	}
	ok := false
	switch g.op {
	case "<":
		ok = v < g.limit
	case "<=":
		ok = v <= g.limit
	case ">":
		ok = v > g.limit
	case ">=":
		ok = v >= g.limit
	case "==":
		ok = v == g.limit
	}
	res.Outcome = GateFail
	if ok {
		res.Outcome = GatePass
	}
	return res
}

func toolValue(metric string, g *Group) (float64, int64) {
	if g == nil || g.Calls == 0 {
		return math.NaN(), 0
	}
	n := g.Calls
	frac := func(k int64) float64 { return float64(k) / float64(n) }
	switch metric {
	case "calls":
		return float64(n), n
	case "p50_latency_ms":
		return g.Latency.Quantile(0.5), g.Latency.N
	case "p95_latency_ms":
		return g.Latency.Quantile(0.95), g.Latency.N
	case "p99_latency_ms":
		return g.Latency.Quantile(0.99), g.Latency.N
	case "mean_latency_ms":
		return g.Latency.Mean(), g.Latency.N
	case "error_rate":
		return frac(g.RPCErrors), n
	case "is_error_rate":
		return frac(g.ToolErrors), n
	case "unusable_rate":
		return frac(g.Unusable), n
	case "p50_size_bytes":
		return g.Size.Quantile(0.5), g.Size.N
	case "p95_size_bytes":
		return g.Size.Quantile(0.95), g.Size.N
	}
	return math.NaN(), 0
}

func fieldValue(fn, path string, g *Group) (float64, int64) {
	if g == nil {
		return math.NaN(), 0
	}
	f := g.Fields[path]
	if fn == "presence" {
		if g.Results == 0 {
			return math.NaN(), 0
		}
		p := int64(0)
		if f != nil {
			p = f.Present
		}
		return float64(p) / float64(g.Results), g.Results
	}
	if f == nil {
		return math.NaN(), 0
	}
	switch fn {
	case "cardinality":
		if f.Items == nil {
			return math.NaN(), 0
		}
		return f.Items.Median(), f.Items.N
	case "median", "mean", "p95":
		if f.Numbers == nil {
			return math.NaN(), 0
		}
		switch fn {
		case "median":
			return f.Numbers.Median(), f.Numbers.N
		case "mean":
			return f.Numbers.Mean(), f.Numbers.N
		}
		return f.Numbers.Quantile(0.95), f.Numbers.N
	case "rate":
		n := f.True + f.False
		if n == 0 {
			return math.NaN(), 0
		}
		return float64(f.True) / float64(n), n
	}
	return math.NaN(), 0
}

// Only keeps the groups of one tool.
func (r DriftReport) Only(tool string) DriftReport {
	out := DriftReport{Options: r.Options, Groups: []GroupDrift{}}
	for _, g := range r.Groups {
		if g.Tool != tool {
			continue
		}
		out.Groups = append(out.Groups, g)
		switch g.Verdict {
		case Drift:
			out.Drifted++
		case NoDrift:
			out.Stable++
		default:
			out.NotEnough++
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
