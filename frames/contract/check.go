package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/schema"
)

// Rule names of the schema checks, beside the assertion operators.
const (
	RuleOutputSchema      = "output-schema"      // the tool's own outputSchema, as tools/list gave it
	RuleStructuredContent = "structured-content" // the contract's schema for structuredContent
	RuleResult            = "result"             // the contract's schema for the whole result
	RuleResponse          = "response"           // the response is no usable JSON-RPC result
)

// A Violation is one way one response broke its tool's contract. It names
// the tool, the call (its id and the sequence numbers of its request and
// response frames), the path in the result, the rule and the value found.
type Violation struct {
	Tool string `json:"tool"`
	// ID is the call's JSON-RPC id as it crossed ("7", "\"jig-3\"").
	ID string `json:"id"`
	// Request and Response are the frames' sequence numbers.
	Request  int64  `json:"request_seq"`
	Response int64  `json:"response_seq"`
	File     string `json:"file,omitempty"`
	// Path is a JSON Pointer into the result ("" for the result itself).
	Path    string          `json:"path"`
	Rule    string          `json:"rule"`
	Value   json.RawMessage `json:"value,omitempty"`
	Message string          `json:"message"`
	Note    string          `json:"note,omitempty"`
}

// MetaKey is the key of the meta record a live check writes into the
// recording for each violation, so jig open marks the frame.
const MetaKey = "contract-violation"

// String is the violation on one line, as jig check and jig proxy print it:
// "search_orders call 7 (frame 24): /structuredContent/orders/2/placed_at:
// iso8601: got the number 1767254400, ...".
func (v Violation) String() string {
	where := v.File
	if where != "" {
		where += "#" + strconv.FormatInt(v.Response, 10)
	} else {
		where = "frame " + strconv.FormatInt(v.Response, 10)
	}
	path := v.Path
	if path == "" {
		path = "(result)"
	}
	s := fmt.Sprintf("%s call id=%s (%s): %s: %s: %s", v.Tool, v.ID, where, path, v.Rule, v.Message)
	if v.Note != "" {
		s += " (" + v.Note + ")"
	}
	return s
}

// Counts are what a Checker saw.
type Counts struct {
	// Calls is the tools/call responses seen; Checked those a contract
	// applied to; Violating those with at least one violation.
	Calls      int `json:"calls"`
	Checked    int `json:"checked"`
	Violating  int `json:"violating"`
	Violations int `json:"violations"`
	// Errors were JSON-RPC errors and ToolErrors results with isError:
	// their results are not held to the contract (error rates are jig
	// stats's), beyond the rules that are about errors.
	Errors     int `json:"errors"`
	ToolErrors int `json:"tool_errors"`
	// Unusable responses were no JSON-RPC result at all (cut off, not
	// JSON); each is a violation of rule "response".
	Unusable int `json:"unusable"`
	// NoSchema counts calls made before any tools/list result crossed in
	// the session, so the tool's outputSchema was unknown and only the
	// contract's own schemas and rules applied.
	NoSchema int `json:"no_schema"`
	// Reused counts tools/call requests that shared an id with another
	// still in flight, and Stray responses that answered no request in
	// flight (Finish fills both): neither could be told which call it
	// answered, so none is checked.
	Reused int `json:"reused_ids"`
	Stray  int `json:"stray_responses"`
}

// A Checker checks the tools/call responses of one session against the
// contracts, frame by frame, in order. It learns each tool's outputSchema
// from the tools/list results that cross.
type Checker struct {
	c         *Contracts
	File      string // names the recording in violations
	listed    map[string]json.RawMessage
	sawList   bool // a tools/list result crossed: listed is what the server declares
	matcher   *frames.CallMatcher
	sets      map[string]*fixture.AssertionSet // each tool's rules, compiled once
	validated map[uint64]validated
	Counts    Counts
	// Called counts the tools/call responses per tool named; Listed is
	// every tool a tools/list result named. Both stop growing at MaxNames
	// names, so that a session naming a new tool per call stays bounded.
	Called map[string]int
	Listed map[string]bool
}

// MaxNames bounds the names Checker.Called and Checker.Listed keep.
const MaxNames = 4096

// NewChecker returns a Checker for one session.
func NewChecker(c *Contracts) *Checker {
	return &Checker{c: c, listed: map[string]json.RawMessage{}, matcher: frames.NewCallMatcher(), sets: map[string]*fixture.AssertionSet{}, validated: map[uint64]validated{},
		Called: map[string]int{}, Listed: map[string]bool{}}
}

// Add takes the session's next frame (with its bytes) and returns the
// violations of the response it completes, if any.
func (k *Checker) Add(f *frames.Frame) []Violation {
	req := k.matcher.Add(f)
	if req == nil {
		return nil
	}
	switch req.Method {
	case "tools/list":
		k.learn(f.Raw)
	case "tools/call":
		return k.Check(req, f)
	}
	return nil
}

// Finish counts what could not be paired (Counts.Reused, Counts.Stray)
// once the session's frames are all added.
func (k *Checker) Finish() {
	k.Counts.Reused = k.matcher.Reused("tools/call")
	k.Counts.Stray = k.matcher.Stray("tools/call") + k.matcher.Stray("")
}

// learn keeps the outputSchema of each tool a tools/list result lists.
func (k *Checker) learn(raw []byte) {
	var r struct {
		Result struct {
			Tools []struct {
				Name         string          `json:"name"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	k.sawList = true
	for _, t := range r.Result.Tools {
		if len(k.Listed) < MaxNames {
			k.Listed[t.Name] = true
		}
		if len(t.OutputSchema) > 0 && string(t.OutputSchema) != "null" {
			k.listed[t.Name] = t.OutputSchema
		} else {
			delete(k.listed, t.Name)
		}
	}
}

// ToolName is the tool a tools/call request names.
func ToolName(req []byte) string {
	name, _ := ToolCall(req)
	return name
}

// ToolCall is the tool a tools/call request names and its arguments (raw
// JSON), read in one pass without decoding the arguments.
func ToolCall(req []byte) (name string, args []byte) {
	fixture.MembersAt(req, "params", func(key, val []byte) {
		switch string(key) {
		case "name":
			name = jsonString(val)
		case "arguments":
			args = val
		}
	})
	return name, args
}

// ToolCallLiteral is ToolCall with w's buffers and the name left as the
// JSON literal it is (StringLiteral decodes it): jig stats reads a million
// requests naming a few tools.
func ToolCallLiteral(w *fixture.Walker, req []byte) (name, args []byte) {
	w.MembersAt(req, "params", func(key, val []byte) {
		switch string(key) {
		case "name":
			name = val
		case "arguments":
			args = val
		}
	})
	return name, args
}

// StringLiteral is the value of a JSON string literal ("" when it is none),
// as ToolCall decodes a tool's name.
func StringLiteral(lit []byte) string { return jsonString(lit) }

// jsonString is the value of a JSON string literal ("" when it is none).
func jsonString(lit []byte) string {
	if len(lit) >= 2 && lit[0] == '"' && lit[len(lit)-1] == '"' && bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	_ = json.Unmarshal(lit, &s)
	return s
}

// Check checks one tools/call response against the contract of the tool
// its request names.
func (k *Checker) Check(req, resp *frames.Frame) []Violation {
	k.Counts.Calls++
	tool := ToolName(req.Raw)
	if _, ok := k.Called[tool]; ok || len(k.Called) < MaxNames {
		k.Called[tool]++
	}
	rules, t := k.rulesFor(tool)
	sch := k.listed[tool]
	useListed := k.c.OutputSchema
	if t != nil && t.OutputSchema != nil {
		useListed = *t.OutputSchema
	}
	if t == nil && !(useListed && len(sch) > 0) && len(rules) == 0 {
		return nil // no contract for this tool
	}
	k.Counts.Checked++
	base := Violation{Tool: tool, ID: req.ID, Request: req.Seq, Response: resp.Seq, File: k.File}
	out := k.check(base, resp, rules, t, sch, useListed)
	if len(out) > 0 {
		k.Counts.Violating++
		k.Counts.Violations += len(out)
	}
	return out
}

// rulesFor merges the rules for every tool with the tool's own.
func (k *Checker) rulesFor(tool string) (rules []Rule, t *Tool) {
	if anyTool := k.c.Tools[Any]; anyTool != nil {
		rules = append(rules, anyTool.Rules...)
	}
	t = k.c.Tools[tool]
	if t != nil {
		rules = append(rules, t.Rules...)
	}
	return rules, t
}

func (k *Checker) check(base Violation, resp *frames.Frame, rules []Rule, t *Tool, listed json.RawMessage, useListed bool) []Violation {
	add := func(out []Violation, path, rule string, val json.RawMessage, msg, note string) []Violation {
		v := base
		v.Path, v.Rule, v.Value, v.Message, v.Note = path, rule, shorten(val), msg, note
		return append(out, v)
	}
	if resp.Kind == frames.KindError {
		k.Counts.Errors++
		return nil
	}
	var env struct{ Result json.RawMessage }
	var res struct {
		IsError           bool
		StructuredContent json.RawMessage
	}
	if resp.Kind == frames.KindResult {
		env.Result, _ = fixture.MembersAt(resp.Raw, "result", func(key, val []byte) {
			switch string(key) {
			case "isError":
				res.IsError = string(val) == "true"
			case "structuredContent":
				res.StructuredContent = val
			}
		})
	}
	if resp.Kind != frames.KindResult || len(env.Result) == 0 {
		k.Counts.Unusable++
		why := resp.Err
		if why == "" {
			why = "the result is not a JSON object"
		}
		return add(nil, "", RuleResponse, nil, "no usable result: "+why, "")
	}
	hasSC := len(res.StructuredContent) > 0 && string(res.StructuredContent) != "null"
	var out []Violation
	if res.IsError {
		k.Counts.ToolErrors++
		// A tool error's result is an explanation, not the data: only the
		// rules about errors apply.
		var errRules []Rule
		for _, r := range rules {
			if r.Rule == fixture.OpIsErrorFalse {
				errRules = append(errRules, r)
			}
		}
		rules = errRules
	} else {
		if t != nil && len(t.Result) > 0 {
			out = k.schemaViolations(out, add, t.Result, env.Result, "", RuleResult)
		}
		switch {
		case t != nil && len(t.StructuredContent) > 0 && !hasSC:
			out = add(out, "/structuredContent", RuleStructuredContent, nil, "the result has no structuredContent, which the contract gives a schema for", "")
		case t != nil && len(t.StructuredContent) > 0:
			out = k.schemaViolations(out, add, t.StructuredContent, res.StructuredContent, "/structuredContent", RuleStructuredContent)
		case useListed && len(listed) > 0 && !hasSC:
			out = add(out, "/structuredContent", RuleOutputSchema, nil, "the tool declares an outputSchema and the result has no structuredContent", "")
		case useListed && len(listed) > 0:
			out = k.schemaViolations(out, add, listed, res.StructuredContent, "/structuredContent", RuleOutputSchema)
		case useListed && !k.sawList:
			k.Counts.NoSchema++
		}
	}
	if len(rules) == 0 {
		return out
	}
	as := make([]fixture.Assertion, len(rules))
	for i, r := range rules {
		as[i] = r.assertion()
	}
	set := k.sets[base.Tool]
	if set == nil {
		var err error
		if set, err = fixture.NewAssertionSet(as); err != nil {
			return add(out, "", RuleResponse, nil, "the contract's rules cannot be used: "+err.Error(), "")
		}
		k.sets[base.Tool] = set
	}
	for i, diffs := range set.Check(env.Result, resp.Time) {
		for _, d := range diffs {
			msg := strings.TrimPrefix(d.Detail, as[i].Describe()+": ")
			out = add(out, strings.TrimPrefix(d.Path, "/result"), rules[i].Rule, d.Actual, msg, rules[i].Note)
		}
	}
	return out
}

type adder func(out []Violation, path, rule string, val json.RawMessage, msg, note string) []Violation

func (k *Checker) schemaViolations(out []Violation, add adder, sch, inst json.RawMessage, prefix, rule string) []Violation {
	vs, err := k.validate(sch, inst)
	if err != nil {
		return add(out, prefix, rule, nil, "the schema cannot be used: "+err.Error(), "")
	}
	for _, v := range vs {
		out = add(out, prefix+v.Path, rule, valueAt(inst, v.Path), v.Message, "")
	}
	return out
}

// validated remembers the outcome of the last instances validated, by
// digest: a server answers the same bytes again and again (the same
// question, a cache), and validating costs more than the rest of a check.
const validatedMax = 4096

// validatedSeed seeds the digests of validated: they live in memory only.
var validatedSeed = maphash.MakeSeed()

type validated struct {
	vs  []schema.Violation
	err error
}

func (k *Checker) validate(sch, inst json.RawMessage) ([]schema.Violation, error) {
	var h maphash.Hash
	h.SetSeed(validatedSeed)
	h.Write(sch)
	h.WriteByte(0)
	h.Write(inst)
	key := h.Sum64()
	if v, ok := k.validated[key]; ok {
		return v.vs, v.err
	}
	vs, err := schema.Validate(sch, inst)
	if len(k.validated) >= validatedMax {
		clear(k.validated)
	}
	k.validated[key] = validated{vs, err}
	return vs, err
}

// valueAt is the JSON value at a JSON Pointer, or nil.
func valueAt(doc json.RawMessage, pointer string) json.RawMessage {
	cur := doc
	if pointer == "" {
		return cur
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) == nil {
			if cur = obj[tok]; cur == nil {
				return nil
			}
			continue
		}
		var arr []json.RawMessage
		i, err := strconv.Atoi(tok)
		if json.Unmarshal(cur, &arr) != nil || err != nil || i < 0 || i >= len(arr) {
			return nil
		}
		cur = arr[i]
	}
	return cur
}

// maxValue bounds the value a violation carries: enough to see it.
const maxValue = 200

func shorten(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	c, ok := frames.Compact(v)
	if !ok {
		c = v
	}
	if len(c) <= maxValue {
		return json.RawMessage(string(c))
	}
	s, _ := json.Marshal(string(c[:maxValue]) + "…")
	return s
}
