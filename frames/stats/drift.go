package stats

import (
	"fmt"
	"math"
	"sort"

	"github.com/mcpjig/jig/frames/fixture"
)

// A Verdict is the outcome of one comparison of baseline and current.
type Verdict string

const (
	Drift     Verdict = "drift"
	NoDrift   Verdict = "no drift"
	NotEnough Verdict = "not enough data"
)

// Methods of telling a shift of a distribution from sampling noise.
const (
	// MethodRobust (the default) suits the skewed, heavy-tailed, lumpy
	// distributions real tool responses have: a rank test (Mann–Whitney U,
	// ties corrected) says whether current values sit higher or lower than
	// the baseline's, and the change of the median (beside the MAD and IQR)
	// says by how much.
	MethodRobust = "robust"
	// MethodZ is the classic z-score on means and standard deviations
	// (Welch), as the seed article's sliding window uses: fine for
	// normal-looking data, fooled by outliers and skew.
	MethodZ = "z"
)

// DriftOptions set how sure and how large a change must be to be drift.
type DriftOptions struct {
	// MinSample is the fewest calls (or values) each side needs for a
	// verdict other than "not enough data" (30 when 0).
	MinSample int `json:"min_sample"`
	// Z is the test statistic a change must reach (4 when 0): about one
	// chance in 16,000 per comparison on stable traffic.
	Z float64 `json:"z"`
	// MinEffect is the smallest relative change of a median or mean that
	// counts (0.1, ten per cent, when 0), MinShare the smallest change of
	// a rate or share in points (0.02 when 0), MinLatencyMS the smallest
	// latency change (5 ms when 0): below them a change is real but too
	// small to matter.
	MinEffect    float64 `json:"min_effect"`
	MinShare     float64 `json:"min_share"`
	MinLatencyMS float64 `json:"min_latency_ms"`
	// Method is MethodRobust (the default) or MethodZ.
	Method string `json:"method"`
}

func (o DriftOptions) withDefaults() DriftOptions {
	if o.MinSample <= 0 {
		o.MinSample = 30
	}
	if o.Z <= 0 {
		o.Z = 4
	}
	if o.MinEffect <= 0 {
		o.MinEffect = 0.1
	}
	if o.MinShare <= 0 {
		o.MinShare = 0.02
	}
	if o.MinLatencyMS <= 0 {
		o.MinLatencyMS = 5
	}
	if o.Method == "" {
		o.Method = MethodRobust
	}
	return o
}

// A Finding is one signal compared: its verdict and the numbers behind it.
type Finding struct {
	// Signal names what was compared: latency, size, error_rate,
	// is_error_rate, unusable_rate, same_answer, identical_bytes, schema,
	// and per field cardinality, numbers, values, types, presence, flag,
	// text.
	Signal  string  `json:"signal"`
	Path    string  `json:"path,omitempty"`
	Verdict Verdict `json:"verdict"`
	// BaselineN and CurrentN are the sample sizes; Baseline and Current
	// the central figures (a median, a rate, a similarity); Change their
	// relative change (medians, means) or difference (rates); Z the test
	// statistic (0 where none applies).
	BaselineN int64   `json:"baseline_n"`
	CurrentN  int64   `json:"current_n"`
	Baseline  float64 `json:"baseline"`
	Current   float64 `json:"current"`
	Change    float64 `json:"change"`
	Z         float64 `json:"z"`
	// Detail says it in words, with the spread (MAD, IQR) or the values.
	Detail string `json:"detail"`
}

// GroupDrift is one tool and argument shape compared.
type GroupDrift struct {
	Tool          string    `json:"tool"`
	Shape         string    `json:"shape"`
	Verdict       Verdict   `json:"verdict"`
	BaselineCalls int64     `json:"baseline_calls"`
	CurrentCalls  int64     `json:"current_calls"`
	Note          string    `json:"note,omitempty"`
	Findings      []Finding `json:"findings"`
}

// DriftReport is every group compared.
type DriftReport struct {
	Options DriftOptions `json:"options"`
	Groups  []GroupDrift `json:"groups"`
	// Counts of the groups' verdicts.
	Drifted   int `json:"drifted"`
	Stable    int `json:"no_drift"`
	NotEnough int `json:"not_enough_data"`
}

// Compare compares the current calls with the baseline's, group by group.
func Compare(base, cur *Collector, opts DriftOptions) DriftReport {
	opts = opts.withDefaults()
	base.wait()
	cur.wait()
	r := DriftReport{Options: opts, Groups: []GroupDrift{}}
	keys := map[groupKey]bool{}
	for k := range base.groups {
		keys[k] = true
	}
	for k := range cur.groups {
		keys[k] = true
	}
	var order []groupKey
	for k := range keys {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].tool != order[j].tool {
			return order[i].tool < order[j].tool
		}
		return order[i].shape < order[j].shape
	})
	for _, k := range order {
		g := compareGroup(base.groups[k], cur.groups[k], k, opts)
		switch g.Verdict {
		case Drift:
			r.Drifted++
		case NoDrift:
			r.Stable++
		default:
			r.NotEnough++
		}
		r.Groups = append(r.Groups, g)
	}
	return r
}

func compareGroup(b, c *Group, k groupKey, o DriftOptions) GroupDrift {
	if b == nil {
		b = newGroup(k.tool, k.shape, 0, 0)
	}
	if c == nil {
		c = newGroup(k.tool, k.shape, 0, 0)
	}
	gd := GroupDrift{Tool: k.tool, Shape: k.shape, BaselineCalls: b.Calls, CurrentCalls: c.Calls, Findings: []Finding{}}
	add := func(f Finding) { gd.Findings = append(gd.Findings, f) }
	add(rate("error_rate", "", b.RPCErrors, b.Calls, c.RPCErrors, c.Calls, 0.01, o))
	add(rate("is_error_rate", "", b.ToolErrors, b.Calls, c.ToolErrors, c.Calls, 0.01, o))
	add(rate("unusable_rate", "", b.Unusable, b.Calls, c.Unusable, c.Calls, 0.01, o))
	lat := location("latency", "", b.Latency, c.Latency, 1, o, o.MinLatencyMS)
	add(lat)
	size := location("size", "", b.Size, c.Size, 1, o, 0)
	if size.Verdict == Drift && size.Change < 0 && lat.Verdict != Drift {
		size.Detail += fmt.Sprintf("; latency stayed flat (median %s → %s ms): the answer may be cached or truncated", fnum(lat.Baseline), fnum(lat.Current))
	}
	add(size)
	add(rate("same_answer", "", b.SameAnswer, b.Answered, c.SameAnswer, c.Answered, 0.05, o))
	add(rate("identical_bytes", "", b.IdenticalBytes, b.Answered, c.IdenticalBytes, c.Answered, 0.05, o))
	if f, ok := schemaChange(b, c); ok {
		add(f)
	}
	for _, p := range fieldPaths(b, c) {
		for _, f := range compareField(b, c, b.Fields[p], c.Fields[p], p, o) {
			add(f)
		}
	}
	for i := range gd.Findings {
		f := &gd.Findings[i]
		f.Baseline, f.Current, f.Change, f.Z = finite(f.Baseline), finite(f.Current), finite(f.Change), finite(f.Z)
	}
	gd.Verdict = NoDrift
	for _, f := range gd.Findings {
		if f.Verdict == Drift {
			gd.Verdict = Drift
		}
	}
	if gd.Verdict != Drift && (b.Calls < int64(o.MinSample) || c.Calls < int64(o.MinSample)) {
		gd.Verdict = NotEnough
		gd.Note = fmt.Sprintf("%d baseline and %s; %s", b.Calls, counted(c.Calls, "current call"), eachNeeded(o.MinSample))
	}
	if defs := len(nonEmpty(b.Schemas)); defs > 1 {
		gd.Note = joinNote(gd.Note, fmt.Sprintf("the baseline mixes %d definitions of the tool (its schema changed within the recordings)", defs))
	}
	return gd
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func nonEmpty(m map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		if k != "" {
			out[k] = v
		}
	}
	return out
}

// schemaChange is a finding when the tool's definition in the current
// recordings is one the baseline never had.
func schemaChange(b, c *Group) (Finding, bool) {
	bs, cs := nonEmpty(b.Schemas), nonEmpty(c.Schemas)
	if len(bs) == 0 || len(cs) == 0 {
		return Finding{}, false
	}
	var n int64
	for d, k := range cs {
		if _, ok := bs[d]; !ok {
			n += k
		}
	}
	f := Finding{Signal: "schema", Verdict: NoDrift, BaselineN: b.Calls, CurrentN: c.Calls, Detail: "the tool's input and output schemas are the baseline's"}
	if n > 0 {
		f.Verdict, f.Current = Drift, float64(n)/float64(c.Calls)
		made := "were made"
		if n == 1 {
			made = "was made"
		}
		f.Detail = fmt.Sprintf("%s %s under a definition of the tool (inputSchema, outputSchema) the baseline never listed", counted(n, "current call"), made)
	}
	return f, true
}

func fieldPaths(b, c *Group) []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range []*Group{b, c} {
		for _, p := range g.order {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func compareField(b, c *Group, fb, fc *Field, path string, o DriftOptions) []Finding {
	if fb == nil {
		fb = &Field{Path: path}
	}
	if fc == nil {
		fc = &Field{Path: path}
	}
	var out []Finding
	pres := rate("presence", path, fb.Present, b.Results, fc.Present, c.Results, 0.05, o)
	if pres.Verdict == Drift {
		switch {
		case fb.Present == 0:
			pres.Detail = fmt.Sprintf("a new field: in %s of current results, in none of the baseline's", pct(pres.Current))
		case fc.Present == 0:
			pres.Detail = fmt.Sprintf("a field gone: in %s of baseline results, in none of the current ones", pct(pres.Baseline))
		}
	}
	out = append(out, pres)
	if fb.Present == 0 || fc.Present == 0 {
		return out // a new or gone field: presence says it all
	}
	if f, ok := categorical("types", path, typeCounts(fb), typeCounts(fc), b.Results, c.Results, 0.02, o); ok {
		out = append(out, f)
	}
	if fb.Items != nil || fc.Items != nil {
		out = append(out, location("cardinality", path, fb.Items, fc.Items, 1, o, 0))
	}
	if fb.Numbers != nil || fc.Numbers != nil {
		out = append(out, location("numbers", path, fb.Numbers, fc.Numbers, design(fb.Numbers, b.Results, fc.Numbers, c.Results), o, 0))
	}
	if fb.True+fb.False > 0 || fc.True+fc.False > 0 {
		out = append(out, rate("flag", path, fb.True, fb.True+fb.False, fc.True, fc.True+fc.False, 0.05, o))
	}
	if !fb.HighCardinality && !fc.HighCardinality && len(fb.Values)+len(fc.Values) > 0 {
		if f, ok := categorical("values", path, fb.Values, fc.Values, b.Results, c.Results, 0.1, o); ok {
			out = append(out, f)
		}
	}
	if fb.Ages != nil && fc.Ages != nil && fb.Ages.N > 0 && fb.Ages.Median() < 86400 {
		// A freshness stamp: made at the answer, so its age is the
		// answer's. Older timestamps (an order's date) age with the
		// calendar, not with the server, and are not compared.
		age := location("age", path, fb.Ages, fc.Ages, design(fb.Ages, b.Results, fc.Ages, c.Results), o, 60)
		age.Detail = "seconds old at the response: " + age.Detail
		out = append(out, age)
	}
	if fb.Text != nil || fc.Text != nil {
		out = append(out, text(path, fb.Text, fc.Text, o))
	}
	return out
}

func typeCounts(f *Field) map[string]int64 {
	m := map[string]int64{}
	for i, n := range f.Types {
		if n > 0 {
			m[fixture.KindNames[i]] = n
		}
	}
	return m
}

// design is the factor by which values that come several to a result
// (the totals of one result's orders) overstate the evidence: they are
// not independent, so the test counts no more than one per result.
func design(b *Metric, bResults int64, c *Metric, cResults int64) float64 {
	if b == nil || c == nil || b.N == 0 || c.N == 0 {
		return 1
	}
	return math.Min(1, math.Sqrt(harmonic(float64(bResults), float64(cResults))/harmonic(float64(b.N), float64(c.N))))
}

func harmonic(a, b float64) float64 {
	if a+b == 0 {
		return 0
	}
	return a * b / (a + b)
}

// location compares two distributions of numbers.
func location(signal, path string, b, c *Metric, factor float64, o DriftOptions, floor float64) Finding {
	f := Finding{Signal: signal, Path: path}
	if b != nil {
		f.BaselineN = b.N
	}
	if c != nil {
		f.CurrentN = c.N
	}
	if f.BaselineN < int64(o.MinSample) || f.CurrentN < int64(o.MinSample) {
		f.Verdict = NotEnough
		f.Detail = fmt.Sprintf("%d baseline and %s; %s", f.BaselineN, counted(f.CurrentN, "current value"), eachNeeded(o.MinSample))
		return f
	}
	bs, cs := b.Summary(), c.Summary()
	f.Baseline, f.Current = bs.Median, cs.Median
	if o.Method == MethodZ {
		f.Baseline, f.Current = bs.Mean, cs.Mean
		se := math.Sqrt(bs.SD*bs.SD/float64(bs.N) + cs.SD*cs.SD/float64(cs.N))
		f.Z = zOf(cs.Mean-bs.Mean, se) * factor
	} else {
		f.Z = mannWhitney(b.Sample(), c.Sample()) * factor
	}
	medChange := relChange(bs.Median, cs.Median)
	meanChange := relChange(bs.Mean, cs.Mean)
	f.Change = medChange
	if o.Method == MethodZ || math.Abs(meanChange) > math.Abs(medChange) && sign(meanChange) == sign(f.Z) {
		f.Change = meanChange
	}
	big := math.Abs(f.Change) >= o.MinEffect && math.Abs(cs.Median-bs.Median)+math.Abs(cs.Mean-bs.Mean) >= floor
	f.Verdict = NoDrift
	if math.Abs(f.Z) >= o.Z && big {
		f.Verdict = Drift
	}
	f.Detail = fmt.Sprintf("median %s → %s (MAD %s → %s, IQR %s–%s → %s–%s), mean %s → %s (sd %s → %s)",
		fnum(bs.Median), fnum(cs.Median), fnum(bs.MAD), fnum(cs.MAD), fnum(bs.Q1), fnum(bs.Q3), fnum(cs.Q1), fnum(cs.Q3),
		fnum(bs.Mean), fnum(cs.Mean), fnum(bs.SD), fnum(cs.SD))
	if bs.MAD > 0 {
		f.Detail += fmt.Sprintf("; the current median is %.1f baseline MADs away", (cs.Median-bs.Median)/(1.4826*bs.MAD))
	}
	if f.Verdict != Drift && signal != "latency" {
		// Latency's tail is the machine's as much as the server's: a
		// loaded host stretches a tenth of the calls. Its median decides.
		tail(&f, b, c, factor, o, floor)
	}
	return f
}

// tail catches what moves a minority of values far out, which a rank
// test and a median hardly see: a fifth of the answers from a 48-hour-old
// cache, a query that now and then returns 3 rows instead of 40–60. Values
// beyond the baseline's far fences (Tukey's, Q1 − 3·IQR and Q3 + 3·IQR)
// are counted on both sides and their shares compared.
func tail(f *Finding, b, c *Metric, factor float64, o DriftOptions, floor float64) {
	q1, q3 := b.Quantile(0.25), b.Quantile(0.75)
	spread := math.Max(3*(q3-q1), floor)
	lo, hi := q1-spread, q3+spread
	beyond := func(s []float64) (n int64) {
		for _, x := range s {
			if x < lo || x > hi {
				n++
			}
		}
		return n
	}
	bs, cs := b.Sample(), c.Sample()
	kb, kc := beyond(bs), beyond(cs)
	r := rate(f.Signal, f.Path, kb, int64(len(bs)), kc, int64(len(cs)), 0.05, o)
	r.Z *= factor
	if math.Abs(r.Z) < o.Z || kc <= kb*int64(len(cs))/int64(max(1, len(bs))) {
		return
	}
	f.Verdict, f.Z = Drift, r.Z
	f.Detail = fmt.Sprintf("%s of current values lie beyond the baseline's far fences (%s–%s), %s of the baseline's; ",
		pct(r.Current), fnum(lo), fnum(hi), pct(r.Baseline)) + f.Detail
}

// finite makes a figure JSON can carry: NaN (no value) is 0 and an
// infinite change (from zero) the largest float.
func finite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	}
	return x
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func relChange(b, c float64) float64 {
	switch {
	case b == c:
		return 0
	case b == 0:
		return math.Copysign(math.Inf(1), c)
	}
	return (c - b) / math.Abs(b)
}

func zOf(d, se float64) float64 {
	switch {
	case se > 0:
		return d / se
	case d == 0:
		return 0
	}
	return math.Copysign(math.Inf(1), d)
}

// mannWhitney is the normal approximation of the Mann–Whitney U test of
// whether b's values sit higher than a's (positive) or lower, with the
// correction for ties. a and b are sorted.
func mannWhitney(a, b []float64) float64 {
	n1, n2 := float64(len(a)), float64(len(b))
	if n1 == 0 || n2 == 0 {
		return 0
	}
	var rankB, ties float64
	i, j, rank := 0, 0, 1.0
	for i < len(a) || j < len(b) {
		var v float64
		switch {
		case j >= len(b) || i < len(a) && a[i] <= b[j]:
			v = a[i]
		default:
			v = b[j]
		}
		ca, cb := 0, 0
		for i < len(a) && a[i] == v {
			i++
			ca++
		}
		for j < len(b) && b[j] == v {
			j++
			cb++
		}
		t := float64(ca + cb)
		avg := rank + (t-1)/2
		rankB += avg * float64(cb)
		ties += t*t*t - t
		rank += t
	}
	u := rankB - n2*(n2+1)/2
	mean := n1 * n2 / 2
	n := n1 + n2
	variance := n1 * n2 / 12 * ((n + 1) - ties/(n*(n-1)))
	return zOf(u-mean, math.Sqrt(math.Max(variance, 0)))
}

// rate compares two proportions (k of n) with the two-proportion z-test.
func rate(signal, path string, kb, nb, kc, nc int64, minChange float64, o DriftOptions) Finding {
	f := Finding{Signal: signal, Path: path, BaselineN: nb, CurrentN: nc}
	if nb < int64(o.MinSample) || nc < int64(o.MinSample) {
		f.Verdict = NotEnough
		f.Detail = fmt.Sprintf("%d baseline and %d current; %s", nb, nc, eachNeeded(o.MinSample))
		return f
	}
	pb, pc := float64(kb)/float64(nb), float64(kc)/float64(nc)
	p := float64(kb+kc) / float64(nb+nc)
	f.Baseline, f.Current, f.Change = pb, pc, pc-pb
	f.Z = zOf(pc-pb, math.Sqrt(p*(1-p)*(1/float64(nb)+1/float64(nc))))
	f.Verdict = NoDrift
	if math.Abs(f.Z) >= o.Z && math.Abs(pc-pb) >= math.Max(minChange, o.MinShare) {
		f.Verdict = Drift
	}
	f.Detail = fmt.Sprintf("%s → %s (%d of %d → %d of %d)", pct(pb), pct(pc), kb, nb, kc, nc)
	return f
}

// categorical compares two distributions of categories with the
// chi-square test of homogeneity (as a z by Wilson–Hilferty), counting at
// most one value per result, and says which value gained the most share.
func categorical(signal, path string, b, c map[string]int64, bResults, cResults int64, minTVD float64, o DriftOptions) (Finding, bool) {
	var nb, nc int64
	for _, v := range b {
		nb += v
	}
	for _, v := range c {
		nc += v
	}
	f := Finding{Signal: signal, Path: path, BaselineN: nb, CurrentN: nc}
	if len(b) <= 1 && len(c) <= 1 && sameKeys(b, c) {
		return f, false // one category on both sides: nothing to compare
	}
	if nb < int64(o.MinSample) || nc < int64(o.MinSample) {
		f.Verdict = NotEnough
		f.Detail = fmt.Sprintf("%d baseline and %s; %s", nb, counted(nc, "current value"), eachNeeded(o.MinSample))
		return f, true
	}
	// Values that come several to a result are not independent.
	sb := math.Min(1, float64(bResults)/float64(nb))
	sc := math.Min(1, float64(cResults)/float64(nc))
	cats := map[string][2]float64{}
	for k, v := range b {
		x := cats[k]
		x[0] = float64(v)
		cats[k] = x
	}
	for k, v := range c {
		x := cats[k]
		x[1] = float64(v)
		cats[k] = x
	}
	var chi, tvd float64
	var gain string
	gainBy, gainFrom, gainTo := -1.0, 0.0, 0.0
	eb, ec := float64(nb)*sb, float64(nc)*sc
	// In the values' order: sums in a map's order differ in their last
	// digits from one run to the next.
	keys := make([]string, 0, len(cats))
	for k := range cats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := cats[k]
		shB, shC := x[0]/float64(nb), x[1]/float64(nc)
		tvd += math.Abs(shC-shB) / 2
		if d := shC - shB; d > gainBy || d == gainBy && k < gain {
			gain, gainBy, gainFrom, gainTo = k, d, shB, shC
		}
		ob, oc := shB*eb, shC*ec
		tot := ob + oc
		expB, expC := tot*eb/(eb+ec), tot*ec/(eb+ec)
		if expB > 0 {
			chi += (ob - expB) * (ob - expB) / expB
		}
		if expC > 0 {
			chi += (oc - expC) * (oc - expC) / expC
		}
	}
	df := float64(len(cats) - 1)
	if df < 1 {
		df = 1
	}
	f.Z = (math.Cbrt(chi/df) - (1 - 2/(9*df))) / math.Sqrt(2/(9*df))
	f.Change = tvd
	f.Baseline, f.Current = gainFrom, gainTo
	f.Verdict = NoDrift
	if f.Z >= o.Z && tvd >= minTVD {
		f.Verdict = Drift
	}
	f.Detail = fmt.Sprintf("%s moved by %s in all (total variation distance); %q gained most: %s → %s",
		signal, pct(tvd), gain, pct(gainFrom), pct(gainTo))
	if signal == "values" {
		f.Detail += fmt.Sprintf("; entropy %.2f → %.2f bits", entropy(shares(b)), entropy(shares(c)))
	}
	return f, true
}

func sameKeys(a, b map[string]int64) bool {
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return false
		}
	}
	return true
}

// text compares the vocabulary of free text with the baseline's, against
// the yardstick of the baseline's halves' similarity to each other.
func text(path string, b, c *TextProfile, o DriftOptions) Finding {
	f := Finding{Signal: "text", Path: path}
	if b != nil {
		f.BaselineN = b.N
	}
	if c != nil {
		f.CurrentN = c.N
	}
	if f.BaselineN < int64(2*o.MinSample) || f.CurrentN < int64(o.MinSample) {
		f.Verdict = NotEnough
		f.Detail = fmt.Sprintf("%d baseline and %s; %d and %d are needed", f.BaselineN, counted(f.CurrentN, "current text"), 2*o.MinSample, o.MinSample)
		return f
	}
	self, sim := b.SelfSimilarity(), b.Similarity(c)
	f.Baseline, f.Current, f.Change = self, sim, sim-self
	f.Verdict = NoDrift
	if sim < self-0.1 {
		f.Verdict = Drift
	}
	f.Detail = fmt.Sprintf("lexical similarity to the baseline %.2f, the baseline's halves to each other %.2f (cosine of hashed word frequencies)", sim, self)
	return f
}

// counted is n and the noun, plural unless n is 1: "1 current call", "2
// current calls".
func counted[N int | int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// eachNeeded says how many of each side a verdict needs.
func eachNeeded(n int) string {
	if n == 1 {
		return "1 of each is needed"
	}
	return fmt.Sprintf("%d of each are needed", n)
}

func pct(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func fnum(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case x == math.Trunc(x) && math.Abs(x) < 1e12:
		return fmt.Sprintf("%d", int64(x))
	case math.Abs(x) < 10:
		return fmt.Sprintf("%.3g", x)
	}
	return fmt.Sprintf("%.1f", x)
}
