// Package stats is jig's per-tool statistics of recorded traffic and the
// drift detection built on them: the second layer against silent
// regressions, beside response contracts (frames/contract) and golden
// fixtures (frames/fixture). Calls are grouped by tool and by argument
// shape, so limit: 500 calls are never compared with limit: 10 calls, and
// each group keeps bounded summaries (see Metric) of its latency, result
// size, every field's array cardinalities, numbers, categorical values,
// types and truncation flags, and how often answers repeat — streaming, so a
// million calls cost what a few thousand do.
//
// The package is pure data: frames in, numbers and verdicts out.
package stats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/contract"
	"github.com/mcpjig/jig/frames/fixture"
)

// Options of a Collector.
type Options struct {
	// NoShapes puts all calls of a tool in one group, whatever their
	// arguments.
	NoShapes bool
	// MaxFields bounds the fields one group tracks (DefaultMaxFields when
	// 0): a result whose keys are data (a map keyed by id) would otherwise
	// grow a field per key. Values past it are counted as Overflow.
	MaxFields int
	// Workers is how many goroutines read results into their groups' fields
	// (0 or 1: the caller's own). Each group is read on one of them, in the
	// order of its calls, so the statistics are the same whatever the
	// number. With more than one, a frame handed to Feed.Add must not
	// change afterwards; the Collector's readers (Report, Groups, Group,
	// Tool) wait for the frames before them.
	Workers int
}

// DefaultMaxFields is the default bound on fields per group.
const DefaultMaxFields = 256

// A Collector gathers the statistics of many sessions' calls.
type Collector struct {
	opts   Options
	groups map[groupKey]*Group
	tools  map[string]*Group // every call of a tool, whatever its shape
	// Sessions counts the sessions fed.
	Sessions int
	// NonTool counts responses to other methods (initialize, tools/list,
	// resources/read …), which are not tool calls.
	NonTool int64
	seq     uint64
	// reader reads results on the caller's goroutine; readers, when
	// Options.Workers > 1, are the workers' (started by the first result,
	// stopped by wait).
	reader  reader
	readers []*reader
	running sync.WaitGroup
	shapes  map[uint64]string
	// names are the tools' names by their JSON literal in requests, and
	// walker the buffers requests are read with (on the caller's goroutine).
	names  map[string]string
	walker fixture.Walker
}

// maxNames bounds the tool names a Collector remembers.
const maxNames = 1 << 12

// A reader reads results into their groups: a worker's, or the caller's.
// Its walker and result buffer are reused from one result to the next.
type reader struct {
	walker fixture.Walker
	result result
	tape   tape
	jobs   chan job
	plain  bool // no tape: tests compare the two readings
}

// A job is one response for a group's reader.
type job struct {
	g    *Group
	kind frames.Kind
	raw  []byte
	// spans are raw's long strings, known valid (frames.Scanner.Spans).
	spans []frames.Span
	args  uint64
	at    time.Time
}

type groupKey struct{ tool, shape string }

// New returns an empty Collector.
func New(opts Options) *Collector {
	if opts.MaxFields <= 0 {
		opts.MaxFields = DefaultMaxFields
	}
	return &Collector{opts: opts, groups: map[groupKey]*Group{}, tools: map[string]*Group{}, shapes: map[uint64]string{},
		names: map[string]string{}}
}

// A Group is the statistics of one tool's calls with one argument shape
// (Shape is "*" for a tool's calls of every shape).
type Group struct {
	Tool  string `json:"tool"`
	Shape string `json:"shape"`
	Calls int64  `json:"calls"`
	// Results were results; ToolErrors results with isError: true;
	// RPCErrors JSON-RPC errors (by code in ErrorCodes); Unusable responses
	// that were no JSON-RPC result at all (cut off, not JSON). Only Results
	// feed the fields.
	Results    int64             `json:"results"`
	ToolErrors int64             `json:"tool_errors"`
	RPCErrors  int64             `json:"rpc_errors"`
	ErrorCodes map[int]int64     `json:"error_codes,omitempty"`
	Unusable   int64             `json:"unusable"`
	Latency    *Metric           `json:"-"`
	Size       *Metric           `json:"-"`
	ArgsSize   *Metric           `json:"-"`
	Fields     map[string]*Field `json:"-"`
	order      []string
	// Overflow counts values at paths past Options.MaxFields.
	Overflow int64 `json:"overflow,omitempty"`
	// Schemas counts calls per definition of the tool (a digest of its
	// inputSchema and outputSchema, as the session's tools/list gave it;
	// "" when none was listed): more than one means the tool changed its
	// schema within the recordings.
	Schemas map[string]int64 `json:"schemas,omitempty"`
	// Servers counts calls per server (the serverInfo.name of the
	// session's initialize result; "" when none was recorded): more than
	// one named means same-named tools of different servers are mixed.
	Servers map[string]int64 `json:"servers,omitempty"`
	// SameAnswer counts results whose content (timestamps and UUIDs
	// aside) repeated an earlier result of the group given other
	// arguments; IdenticalBytes results byte-identical to an earlier one.
	SameAnswer     int64 `json:"same_answer_other_args"`
	IdenticalBytes int64 `json:"identical_bytes"`
	// Answered counts the results the repeat counts are out of: those
	// with something in them (a list that came back empty is the same
	// answer to many questions, cache or none).
	Answered  int64             `json:"answered"`
	answers   map[uint64]uint64 // masked digest → the arguments' digest
	exact     map[uint64]struct{}
	maxFields int
	call      int64
	seed      uint64
	obs       observer // reused by observe
	worker    int      // the worker that reads its results
}

func newGroup(tool, shape string, maxFields int, seed uint64) *Group {
	return &Group{Tool: tool, Shape: shape, ErrorCodes: map[int]int64{}, Latency: newMetric(seed), Size: newMetric(seed + 1),
		ArgsSize: newMetric(seed + 2), Fields: map[string]*Field{}, Schemas: map[string]int64{}, Servers: map[string]int64{},
		answers: map[uint64]uint64{}, exact: map[uint64]struct{}{}, maxFields: maxFields, seed: seed}
}

// FieldNames lists the group's fields in the order they first appeared.
func (g *Group) FieldNames() []string { return g.order }

// A Field is what one path of the group's results held.
type Field struct {
	Path string `json:"path"`
	// Present counts the results in which the path occurred.
	Present int64 `json:"present"`
	// Types counts the values by JSON type.
	Types [fixture.KindCount]int64 `json:"-"`
	// Numbers are its numeric values; Items its arrays' lengths.
	Numbers *Metric `json:"-"`
	Items   *Metric `json:"-"`
	// True and False count its booleans.
	True, False int64
	// Values counts its strings while there are few distinct ones (a
	// categorical field); past MaxCategories the field is HighCardinality
	// (identifiers, times, free text) and Values stops growing.
	Values          map[string]int64 `json:"-"`
	HighCardinality bool             `json:"-"`
	// Ages are how old its timestamps were when the response arrived, in
	// seconds: a freshness stamp (generated_at) that ages is a stale cache.
	Ages *Metric `json:"-"`
	// Text is the lexical profile of its free text (strings of several
	// words), for similarity to a baseline.
	Text   *TextProfile `json:"-"`
	seen   int64
	hash   uint64            // digest(Path), for the answer's digest
	counts map[string]*int64 // Values as they are counted
	next   *Field            // the field visited after this one last time
}

// MaxCategories is how many distinct strings a categorical field may have.
const MaxCategories = 64

// TypeCount is the count of values of the named JSON type.
func (f *Field) TypeCount(name string) int64 {
	for i, n := range fixture.KindNames {
		if n == name {
			return f.Types[i]
		}
	}
	return 0
}

// A Feed takes one session's frames in order.
type Feed struct {
	c       *Collector
	matcher *frames.CallMatcher
	defs    map[string]string // tool → digest of its definition
	server  string            // the serverInfo.name its initialize result gave
	// Unanswered is filled by Close: requests that got no response
	// (Forgotten of them let go unanswered while more than
	// frames.MaxOpenCalls waited); Cancelled those a notifications/cancelled
	// ended first; Reused requests that shared an id with another in
	// flight, and Stray responses that answered no request in flight:
	// which call either answered cannot be told, so none is counted.
	Unanswered, Forgotten, Cancelled, Reused, Stray int
}

// Session starts feeding one session (one recording).
func (c *Collector) Session() *Feed {
	c.Sessions++
	return &Feed{c: c, matcher: frames.NewCallMatcher(), defs: map[string]string{}}
}

// Add takes the session's next frame, with its bytes.
func (s *Feed) Add(f *frames.Frame) { s.AddSpans(f, nil) }

// AddSpans is Add of a frame whose long strings are known (a
// frames.Scanner's Spans of it): a result's text is not read again.
func (s *Feed) AddSpans(f *frames.Frame, spans []frames.Span) {
	req := s.matcher.Add(f)
	if req == nil {
		return
	}
	switch req.Method {
	case "tools/call":
		s.c.call(s, req, f, spans)
	case "tools/list":
		s.c.NonTool++
		s.learn(f.Raw)
	case "initialize", "server/discover":
		s.c.NonTool++
		var h frames.Handshake
		h.Add(f.Dir, f.Kind, f.Raw)
		s.server = cmp.Or(h.Server, s.server)
	default:
		s.c.NonTool++
	}
}

// Close ends the session and counts the calls it left unanswered.
func (s *Feed) Close() {
	s.Cancelled = s.matcher.Cancelled("tools/call")
	for _, r := range s.matcher.Pending() {
		if r.Method == "tools/call" {
			s.Unanswered++
		}
	}
	s.Forgotten = s.matcher.Forgotten("tools/call")
	s.Unanswered += s.Forgotten
	s.Reused = s.matcher.Reused("tools/call")
	s.Stray = s.matcher.Stray("tools/call") + s.matcher.Stray("")
}

// maxServers bounds the server names a group counts its calls by.
const maxServers = 64

func (s *Feed) learn(raw []byte) {
	var r struct {
		Result struct {
			Tools []struct {
				Name         string          `json:"name"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	for _, t := range r.Result.Tools {
		h := fnv.New64a()
		in, _ := frames.Compact(t.InputSchema)
		out, _ := frames.Compact(t.OutputSchema)
		h.Write(in)
		h.Write([]byte{0})
		h.Write(out)
		s.defs[t.Name] = strconv.FormatUint(h.Sum64(), 16)[:8]
	}
}

func (c *Collector) group(tool, shape string) *Group {
	k := groupKey{tool, shape}
	g := c.groups[k]
	if g == nil {
		c.seq += 16
		g = newGroup(tool, shape, c.opts.MaxFields, c.seq)
		if c.opts.Workers > 1 {
			g.worker = len(c.groups) % c.opts.Workers
		}
		c.groups[k] = g
	}
	return g
}

// Groups lists the groups by tool, then shape.
func (c *Collector) Groups() []*Group {
	c.wait()
	out := make([]*Group, 0, len(c.groups))
	for _, g := range c.groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Tool != out[j].Tool {
			return out[i].Tool < out[j].Tool
		}
		return out[i].Shape < out[j].Shape
	})
	return out
}

// Tool is every call of the tool, whatever its shape (latency, size and
// outcomes only), or nil.
func (c *Collector) Tool(name string) *Group {
	c.wait()
	return c.tools[name]
}

// ToolNames lists the tools called, sorted.
func (c *Collector) ToolNames() []string {
	c.wait()
	return sortedKeys(c.tools)
}

// Group returns the group of a tool and shape, or nil.
func (c *Collector) Group(tool, shape string) *Group {
	c.wait()
	return c.groups[groupKey{tool, shape}]
}

func (c *Collector) call(s *Feed, req, resp *frames.Frame, spans []frames.Span) {
	lit, args := contract.ToolCallLiteral(&c.walker, req.Raw)
	name, ok := c.names[string(lit)]
	if !ok {
		name = contract.StringLiteral(lit)
		if len(c.names) >= maxNames {
			clear(c.names)
		}
		c.names[string(lit)] = name
	}
	shape := "*"
	if !c.opts.NoShapes {
		shape = c.shape(args)
	}
	g := c.group(name, shape)
	all := c.tools[name]
	if all == nil {
		c.seq += 16
		all = newGroup(name, "*", 0, c.seq)
		c.tools[name] = all
	}
	for _, x := range [2]*Group{g, all} {
		x.Calls++
		x.ArgsSize.Add(float64(len(args)))
		x.Size.Add(float64(resp.Size()))
		if !resp.Time.IsZero() && !req.Time.IsZero() {
			x.Latency.Add(float64(resp.Time.Sub(req.Time).Microseconds()) / 1000)
		}
		x.Schemas[s.defs[name]]++
		if _, ok := x.Servers[s.server]; ok || len(x.Servers) < maxServers {
			x.Servers[s.server]++
		}
	}
	switch {
	case resp.Kind == frames.KindError:
		for _, x := range [2]*Group{g, all} {
			x.RPCErrors++
			x.ErrorCodes[resp.Code]++
		}
		return
	}
	// The outcome is the group's reader's to count; the tool's are added
	// up from its groups (see wait).
	j := job{g: g, kind: resp.Kind, raw: resp.Raw, spans: spans, args: digest(args), at: resp.Time}
	if c.opts.Workers <= 1 {
		c.reader.read(j)
		return
	}
	if c.readers == nil {
		c.start()
	}
	c.readers[g.worker].jobs <- j
}

// start starts the workers.
func (c *Collector) start() {
	c.readers = make([]*reader, c.opts.Workers)
	for i := range c.readers {
		r := &reader{jobs: make(chan job, 256), plain: c.reader.plain}
		c.readers[i] = r
		c.running.Add(1)
		go func() {
			defer c.running.Done()
			for j := range r.jobs {
				r.read(j)
			}
		}()
	}
}

// wait lets the workers finish what they were handed and stops them (the
// next result starts them again), then adds up each tool's outcomes from
// its groups'.
func (c *Collector) wait() {
	if c.readers != nil {
		for _, r := range c.readers {
			close(r.jobs)
		}
		c.running.Wait()
		c.readers = nil
	}
	for _, all := range c.tools {
		all.Results, all.ToolErrors, all.Unusable = 0, 0, 0
	}
	for _, g := range c.groups {
		for _, f := range g.Fields {
			f.syncValues()
		}
		all := c.tools[g.Tool]
		all.Results += g.Results
		all.ToolErrors += g.ToolErrors
		all.Unusable += g.Unusable
	}
}

// read counts one response's outcome in its group and reads a result into
// the group's fields.
func (rd *reader) read(j job) {
	g := j.g
	if j.kind != frames.KindResult {
		g.Unusable++
		return
	}
	r := rd.members(j.raw, j.spans)
	switch {
	case r == nil:
		g.Unusable++
	case r.isError:
		g.ToolErrors++
	case g.observe(&rd.walker, &rd.tape, r, j.args, j.at):
		g.Results++
	default:
		g.Unusable++
	}
}

// A result is the members of a response's result, as raw JSON.
type result struct {
	keys          []byte // the keys, one after the other, each ending at ends[i]
	ends          []int
	vals          [][]byte
	isError, isSC bool // isError: true; a structuredContent that is not null
	// sc counts the structuredContent members; taped says the one there
	// is was walked into the reader's tape as the members were read.
	sc    int
	taped bool
}

func (r *result) key(i int) []byte {
	start := 0
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.keys[start:r.ends[i]]
}

// members reads the top-level members of a response's result (into a
// buffer the reader reuses), or nil when the result is no object. Its
// structuredContent is walked into the reader's tape on the way (observe
// plays it back instead of walking it again); when that walk fails the
// members are read again without it, so that the result is refused, or
// read, exactly as it was before there was a tape.
func (rd *reader) members(raw []byte, spans []frames.Span) *result {
	r := &rd.result
	add := func(key, val []byte) {
		switch string(key) {
		case "isError":
			r.isError = string(val) == "true"
		case "structuredContent":
			r.isSC = string(val) != "null"
			r.sc++
		}
		r.keys = append(r.keys, key...)
		r.ends = append(r.ends, len(r.keys))
		r.vals = append(r.vals, val)
	}
	reset := func() {
		r.keys, r.ends, r.vals, r.isError, r.isSC, r.sc, r.taped = r.keys[:0], r.ends[:0], r.vals[:0], false, false, 0, false
	}
	reset()
	rd.tape.reset()
	rd.walker.Text = false // as observe walks a structuredContent that is there
	if !rd.plain {
		if _, ok := rd.walker.MembersAtWalk(raw, spans, "result", scKey, scPath, &rd.tape, add); ok {
			// Played back only when it is what observe would walk: the
			// one structuredContent, not null (Text is false then).
			r.taped = r.sc == 1 && r.isSC
			return r
		}
		reset()
	}
	if _, ok := rd.walker.MembersAtSpans(raw, spans, "result", add); !ok {
		return nil
	}
	return r
}

var (
	scKey  = []byte("structuredContent")
	scPath = []byte("/structuredContent")
)

// A tape holds the visits of one walk, to be played back to an observer:
// each visit's path and string one after the other in buf.
type tape struct {
	visits []visit
	buf    []byte
}

type visit struct {
	k               fixture.Kind
	b               bool
	x               float64
	n               int
	pathEnd, strEnd int // in buf, after the previous visit's strEnd
}

func (t *tape) reset() {
	if cap(t.buf) > maxTape {
		*t = tape{} // one huge result does not keep its tape
	}
	t.visits, t.buf = t.visits[:0], t.buf[:0]
}

// maxTape is the largest tape a reader keeps for the next result.
const maxTape = 1 << 20

func (t *tape) Visit(path []byte, k fixture.Kind, b bool, x float64, s []byte, n int) {
	t.buf = append(t.buf, path...)
	pe := len(t.buf)
	t.buf = append(t.buf, s...)
	t.visits = append(t.visits, visit{k: k, b: b, x: x, n: n, pathEnd: pe, strEnd: len(t.buf)})
}

// play visits v with the tape's visits, in order.
func (t *tape) play(v fixture.Visitor) {
	start := 0
	for _, e := range t.visits {
		v.Visit(t.buf[start:e.pathEnd], e.k, e.b, e.x, t.buf[e.pathEnd:e.strEnd], e.n)
		start = e.strEnd
	}
}

// shape is Shape, remembered for the arguments last seen: traffic repeats
// its arguments' spelling far more than it varies it.
func (c *Collector) shape(args []byte) string {
	h := digest(args)
	if sh, ok := c.shapes[h]; ok {
		return sh
	}
	sh := Shape(args)
	if len(c.shapes) >= maxShapes {
		clear(c.shapes)
	}
	c.shapes[h] = sh
	return sh
}

// maxShapes bounds the arguments whose shape a Collector remembers.
const maxShapes = 1 << 14

// Shape is the argument shape of a call: its argument names, sorted, with
// the value of each boolean and the power-of-two bucket of each number
// ("customer,limit:16-31,since"), so calls asking for different amounts
// are grouped apart. Strings are left out: they are what varies.
func Shape(args []byte) string {
	var sh shaper
	var w fixture.Walker
	if !w.Walk(args, nil, &sh) || len(sh.parts) == 0 {
		return "(no arguments)"
	}
	sort.Strings(sh.parts)
	return strings.Join(sh.parts, ",")
}

type shaper struct{ parts []string }

func (s *shaper) Visit(path []byte, k fixture.Kind, b bool, x float64, _ []byte, _ int) {
	if len(path) < 2 || bytes.IndexByte(path[1:], '/') >= 0 {
		return // only top-level arguments
	}
	name := string(path[1:])
	switch k {
	case fixture.KindBool:
		name += ":" + strconv.FormatBool(b)
	case fixture.KindNumber:
		name += ":" + bucket(x)
	}
	s.parts = append(s.parts, name)
}

// bucket names the power-of-two range of x: 0, 1, 2-3, 4-7, …, negative.
func bucket(x float64) string {
	switch {
	case x < 0:
		return "<0"
	case x < 1:
		return "0"
	}
	lo := math.Pow(2, math.Floor(math.Log2(x)))
	if lo == 1 {
		return "1"
	}
	return strconv.FormatFloat(lo, 'f', -1, 64) + "-" + strconv.FormatFloat(2*lo-1, 'f', -1, 64)
}

func digest(b []byte) uint64 { return mix(hashSeed, b) }

// maxAnswers bounds the answers a group remembers for its repeat counts.
const maxAnswers = 1 << 16

// observe walks one result's members into the group's fields: paths are
// relative to the result. Its _meta and resultType are the protocol's, not
// the tool's answer, and content is the same data again when there is
// structuredContent.
func (g *Group) observe(w *fixture.Walker, tp *tape, r *result, args uint64, at time.Time) bool {
	g.call++
	o := &g.obs
	*o = observer{g: g, at: at, masked: hashSeed, exact: hashSeed, key: o.key[:0], num: o.num[:0], last: o.last}
	w.Text = !r.isSC
	for i := range r.vals {
		key := r.key(i)
		if string(key) == "_meta" || string(key) == "resultType" || r.isSC && string(key) == "content" {
			continue
		}
		o.key = fixture.AppendPointerToken(append(o.key[:0], '/'), key)
		o.exact = mix(mix(o.exact, o.key), r.vals[i])
		if r.taped && string(key) == "structuredContent" {
			tp.play(o)
			continue
		}
		if !w.Walk(r.vals[i], o.key, o) {
			return false
		}
	}
	if o.arrays > 0 && o.items == 0 {
		// An empty list is the same answer to many questions without any
		// cache: it says nothing about repeats.
		return true
	}
	g.Answered++
	if len(g.answers) >= maxAnswers {
		clear(g.answers)
		clear(g.exact)
	}
	if prev, ok := g.answers[o.masked]; ok && prev != args {
		g.SameAnswer++
	} else if !ok {
		g.answers[o.masked] = args
	}
	if _, ok := g.exact[o.exact]; ok {
		g.IdenticalBytes++
	} else {
		g.exact[o.exact] = struct{}{}
	}
	return true
}

// mix folds b into the digest h, eight bytes at a time: the digests of
// every value of a million results. It is no cryptographic hash; two
// answers that differ collide with a chance of about 2⁻⁶⁴.
func mix(h uint64, b []byte) uint64 {
	const m = 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64(b))*m, 29)
		b = b[8:]
	}
	var t uint64
	for i, c := range b {
		t |= uint64(c) << (8 * i)
	}
	h = (h ^ t ^ uint64(len(b))<<59) * m
	return h ^ h>>31
}

// mixWord folds x into h as mix folds eight bytes.
func mixWord(h, x uint64) uint64 {
	const m = 0x9e3779b97f4a7c15
	h = bits.RotateLeft64((h^x)*m, 29) * m
	return h ^ h>>31
}

const hashSeed uint64 = 14695981039346656037

type observer struct {
	g             *Group
	at            time.Time
	arrays, items int
	// masked digests the answer with times and UUIDs masked; exact the
	// answer as it is.
	masked, exact uint64
	key, num      []byte
	last          *Field // the field visited last
}

var (
	maskTrue  = []byte{1}
	maskFalse = []byte{0}
	maskTime  = []byte{'~'}
)

func (o *observer) Visit(path []byte, k fixture.Kind, b bool, x float64, s []byte, n int) {
	g := o.g
	// Results repeat their layout: the field after the last one is most
	// often the one that came after it before, found without the map.
	var f *Field
	if o.last != nil && o.last.next != nil && o.last.next.Path == string(path) {
		f = o.last.next
	} else if f = g.Fields[string(path)]; f != nil && o.last != nil {
		o.last.next = f
	}
	if f == nil {
		if len(g.Fields) >= g.maxFields {
			g.Overflow++
			return
		}
		p := string(path)
		f = &Field{Path: p, Values: map[string]int64{}, hash: digest(path)}
		g.Fields[p] = f
		g.order = append(g.order, p)
		if o.last != nil {
			o.last.next = f
		}
	}
	o.last = f
	if f.seen != g.call {
		f.seen = g.call
		f.Present++
	}
	f.Types[k]++
	o.masked = mixWord(o.masked, f.hash) // the path, digested once
	switch k {
	case fixture.KindBool:
		if b {
			f.True++
			o.masked = mix(o.masked, maskTrue)
		} else {
			f.False++
			o.masked = mix(o.masked, maskFalse)
		}
	case fixture.KindNumber:
		if f.Numbers == nil {
			f.Numbers = newMetric(g.seed ^ digest(path))
		}
		f.Numbers.Add(x)
		o.num = binary.LittleEndian.AppendUint64(o.num[:0], math.Float64bits(x))
		o.masked = mix(o.masked, o.num)
	case fixture.KindArray:
		o.arrays++
		o.items += n
		if f.Items == nil {
			f.Items = newMetric(g.seed ^ digest(path) ^ 1)
		}
		f.Items.Add(float64(n))
	case fixture.KindString:
		if volatile(s) {
			o.masked = mix(o.masked, maskTime)
			o.age(f, s)
		} else {
			o.masked = mix(o.masked, s)
		}
		f.addString(s)
	}
}

// age records how old a timestamp was at the response.
func (o *observer) age(f *Field, s []byte) {
	if o.at.IsZero() || s[4] != '-' {
		return
	}
	t, ok := parseStamp(s)
	if !ok {
		return
	}
	if f.Ages == nil {
		f.Ages = newMetric(o.g.seed ^ digest(s[:0]) ^ 2)
	}
	f.Ages.Add(o.at.Sub(t).Seconds())
}

// parseStamp is time.Parse(time.RFC3339Nano, s), for the UTC stamps most
// results carry ("2026-08-21T10:00:00Z", a fraction of up to nine digits
// or none) by hand: the same instant without time.Date's normalizing, for
// the timestamps of a million results. Anything else (an offset, a longer
// fraction, a field out of range) is time.Parse's.
func parseStamp(s []byte) (time.Time, bool) {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
		len(s) > 20 && (s[19] != '.' || len(s) < 22 || len(s) > 30) {
		return parseStampSlowly(s)
	}
	ok := true
	num := func(b []byte) int {
		x := 0
		for _, c := range b {
			ok = ok && c >= '0' && c <= '9'
			x = x*10 + int(c-'0')
		}
		return x
	}
	y, mo, d, h, mi, sec := num(s[0:4]), num(s[5:7]), num(s[8:10]), num(s[11:13]), num(s[14:16]), num(s[17:19])
	ns := 0
	if len(s) > 20 {
		frac := s[20 : len(s)-1]
		ns = num(frac)
		for range 9 - len(frac) {
			ns *= 10
		}
	}
	if !ok || mo < 1 || mo > 12 || d < 1 || d > monthDays(y, mo) || h > 23 || mi > 59 || sec > 59 {
		return parseStampSlowly(s)
	}
	days := civilDays(y, mo, d)
	return time.Unix(days*86400+int64(h*3600+mi*60+sec), int64(ns)), true
}

func parseStampSlowly(s []byte) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, unsafe.String(unsafe.SliceData(s), len(s))) // nothing of s is kept
	return t, err == nil
}

// monthDays is how many days the month has in the year (proleptic Gregorian).
func monthDays(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// civilDays is the number of days from 1970-01-01 to the date (Howard
// Hinnant's days_from_civil).
func civilDays(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097 + doe - 719468)
}

func (f *Field) addString(s []byte) {
	if wordCount(s) >= 3 {
		if f.Text == nil {
			f.Text = &TextProfile{}
		}
		f.Text.add(s)
	}
	if f.HighCardinality {
		return
	}
	if len(s) > 80 || volatile(s) {
		// Long texts, times and UUIDs are not categories, however few of
		// them a short recording holds.
		f.HighCardinality = true
		return
	}
	// The count found without allocating and with one lookup: counting
	// f.Values[string(s)]++ would make a string of s every time. Values
	// is brought up to date from the counts by syncValues.
	if n := f.counts[string(s)]; n != nil {
		*n++
		return
	}
	if len(f.counts) >= MaxCategories {
		f.HighCardinality = true
		return
	}
	if f.counts == nil {
		f.counts = map[string]*int64{}
	}
	n := int64(1)
	f.counts[string(s)] = &n
}

// syncValues copies the categorical counts into Values.
func (f *Field) syncValues() {
	for k, n := range f.counts {
		f.Values[k] = *n
	}
}

// volatile reports whether a string looks like a timestamp or a UUID:
// values that differ on every answer without the answer being another.
func volatile(s []byte) bool {
	if len(s) >= 10 && isDigits(s[:4]) && s[4] == '-' && isDigits(s[5:7]) && s[7] == '-' {
		return true
	}
	return len(s) == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-'
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// wordCount counts the words of s, runs of bytes other than space, tab
// and newline; without a branch on each byte: it reads every string of a
// million results.
func wordCount(s []byte) int {
	n, in := 0, 0
	for _, c := range s {
		w := int(wordByte[c])
		n += w &^ in
		in = w
	}
	return n
}

// wordByte is 1 for the bytes words are made of, 0 for what separates them.
var wordByte = func() (t [256]byte) {
	for i := range t {
		t[i] = 1
	}
	t[' '], t['\n'], t['\t'] = 0, 0, 0
	return t
}()
