package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
	"github.com/mcpjig/jig/session/oauth"
)

// PinOptions say how to turn exchanges into a fixture.
type PinOptions struct {
	Scenario string
	Note     string
	// Target is the target as the user gave it; only its redacted form is
	// stored (secrets stay environment references), and its expanded secrets
	// are redacted wherever they appear.
	Target session.Target
	// Tool is the tool's definition exactly as tools/list gave it (single
	// calls). When nil, Pin lists the tools itself (tools/call only).
	Tool json.RawMessage
	// Elicit and Sample are the scripted answers the call was made with
	// (--elicit, --sample); the fixture keeps them for its replay.
	Elicit, Sample *session.Script
	// KeepAnswers, when no script is given, makes the answers the client
	// gave the server's requests for input during the pinned calls (a
	// human's, in the TUI's dialog) the fixture's scripts, in the order
	// given, so that replay answers the same way.
	KeepAnswers bool
	// Probe is how many times the pinned call is made again to find the
	// values that vary. Negative means automatic: once for a tool annotated
	// readOnlyHint, never otherwise (a second call of a tool with side
	// effects is not jig's to make).
	Probe int
	// Fresh, when set, replays the fixture being built in a fresh session of
	// its target and returns the pinned call's response there: probing then
	// sees what a replay will see (a stateful server, called twice in one
	// session, answers differently the second time). Without it, probes are
	// made on the pinning session.
	Fresh func(ctx context.Context, f *fixture.Fixture) (fixture.Actual, error)
	// Secrets are more exact values to redact, e.g. of --secret-env
	// variables; Redactor, when set, is the run's redactor and takes their
	// place.
	Secrets  []string
	Redactor *fixture.Redactor
	// Vars are the pinning session's variables: a response that names its
	// scratch directory is pinned with "${JIG_SCRATCH}" in its place.
	Vars map[string]string
	Now  func() time.Time
}

// Pin builds the fixture for an exchange that just happened on s: the request
// exactly as sent (including the _meta the SDK added in the stateless era;
// replay re-sends only the name and arguments, and the SDK adds the _meta of
// the era it replays in), the response exactly as received, the tool as
// listed, how the session was opened (capabilities, roots, protocol
// version), proposed rules (from the values' shapes and from probing),
// proposed assertions, and every secret redacted. It does not save the
// fixture.
func Pin(ctx context.Context, s *session.Session, ex *session.Exchange, opts PinOptions) (*fixture.Fixture, error) {
	return PinScenario(ctx, s, []*session.Exchange{ex}, opts)
}

// PinScenario builds one fixture from several exchanges of s, in order: a
// scenario whose steps replay in one session. A value an earlier step
// returned that a later request sends again (a created entity's id) is
// captured and re-used, so that the scenario replays green when the server
// makes a new one. The last exchange is the pinned call that is probed.
func PinScenario(ctx context.Context, s *session.Session, exs []*session.Exchange, opts PinOptions) (*fixture.Fixture, error) {
	if len(exs) == 0 {
		return nil, fmt.Errorf("pin: there is no exchange to pin")
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	red := opts.Redactor
	if red == nil {
		red = fixture.NewRedactor(fixture.EnvSecrets(os.Environ())...)
		red.Add(fixture.Values(opts.Secrets...)...)
	}
	red.Add(fixture.Values(opts.Target.Secrets()...)...)
	info := s.Info()
	f := &fixture.Fixture{
		Format:          fixture.Format,
		Scenario:        opts.Scenario,
		Note:            opts.Note,
		Pinned:          fixture.Pinned{At: now().UTC().Truncate(time.Second), By: "jig " + session.Version, Keeps: []string{fixture.KeepsFlow, fixture.KeepsRounds}},
		Target:          fixtureTarget(opts.Target.Redacted()),
		Session:         &fixture.Session{Capabilities: append([]string{}, info.ClientCapabilities...), Roots: info.Roots},
		Server:          fixture.Server{Name: info.ServerName, Version: info.ServerVersion, Capabilities: clone(info.ServerCapabilities), Instructions: info.Instructions},
		ProtocolVersion: info.ProtocolVersion,
	}
	f.Target.Auth = targetAuth(s.Auth())
	var listed []json.RawMessage
	var steps []fixture.Step
	for i, ex := range exs {
		step, err := stepOf(ex, opts.Vars)
		if err != nil {
			return nil, err
		}
		step.Flow = flowOf(s.Log, ex, opts.Vars)
		step.Rounds = roundsOf(s.Log, ex, opts.Vars)
		if name := step.ToolName(); name != "" {
			if len(exs) == 1 && opts.Tool != nil {
				step.Tool = clone(opts.Tool)
			} else {
				if listed == nil {
					raw, _, err := s.ListTools(ctx)
					if err != nil {
						return nil, fmt.Errorf("pin: listing tools for %s's definition: %w", name, err)
					}
					listed = raw
				}
				step.Tool = FindTool(listed, name)
			}
		}
		if len(step.Response.Result) > 0 {
			step.Rules = fixture.ProposeRules(step.Response.Result)
			if i == len(exs)-1 {
				step.Assertions = fixture.ProposeAssertions(step.Response.Result)
			}
		}
		steps = append(steps, step)
	}
	if f.Scenario == "" {
		f.Scenario = strings.ReplaceAll(steps[len(steps)-1].Request.Method, "/", "-")
	}
	linkCaptures(steps)
	f.SetCalls(steps)
	elicit, sample := opts.Elicit, opts.Sample
	if elicit == nil && sample == nil && opts.KeepAnswers {
		elicit, sample = answersOf(steps)
	}
	if elicit != nil || sample != nil {
		f.Answers = &fixture.Answers{Elicit: elicit.ScriptJSON(), Sample: sample.ScriptJSON()}
	}

	last := len(steps) - 1
	probes := opts.Probe
	if probes < 0 {
		probes = 0
		if readOnly(steps[last].Tool) {
			probes = 1
		}
	}
	if steps[last].Request.Method != "tools/call" || len(steps[last].Response.Result) == 0 {
		probes = 0
	}
	var probed []fixture.Rule
	// second is the response the proposals are checked against: the last
	// probe's, or, unprobed, the pinned one itself.
	second := fixture.Actual{Result: steps[last].Response.Result}
	for i := 0; i < probes; i++ {
		again, err := probe(ctx, s, f, opts)
		if err != nil {
			return nil, fmt.Errorf("pin: probe call %d of %s failed: %v (pin with --probe 0 to skip probing)", i+1, steps[last].ToolName(), err)
		}
		// A fresh probe's answer comes back redacted, the pinned one is
		// not yet: compared as the fixture will hold them both, a secret
		// the server echoed is not a value that differed.
		second = again
		second.Result = unscratch(again.Result, opts.Vars)
		probed = mergeRules(probed, fixture.ProbeRules(red.JSON(steps[last].Response.Result), red.JSON(second.Result)))
	}
	calls := f.Calls()
	// A value seen to differ is evidence; it outranks a guess from its shape.
	calls[last].Rules = mergeRules(probed, calls[last].Rules)
	f.SetCalls(calls)
	red.Fixture(f)
	if len(second.Result) > 0 {
		second.Result = red.JSON(second.Result)
		f.PinNotes = holdProposals(f, last, second)
	}
	return f, nil
}

// holdProposals checks step i of f offline against a response of the same
// call (the pin's second one), as replay will compare them, and keeps only
// the proposals that hold on it: a rule that does not hold there (its
// value's shape is not what it promises, its pattern leaves the difference
// unmasked) and an assertion that fails there are dropped, each with a
// note, and what still differs is said — replay of the unchanged server
// would be red on it.
func holdProposals(f *fixture.Fixture, i int, second fixture.Actual) []string {
	calls := f.Calls()
	step := calls[i]
	// Only the result: the tool and the flow are not proposals.
	act := fixture.Actual{Result: second.Result, Substitutions: second.Substitutions}
	compare := func(st fixture.Step) fixture.StepComparison {
		calls[i] = st
		f.SetCalls(calls)
		return fixture.CompareStep(f, i, act)
	}
	var notes []string
	where := ""
	if len(calls) > 1 {
		where = f.Label(i) + ": "
	}
	var kept []fixture.Assertion
	for _, a := range step.Assertions {
		one := step
		one.Assertions = []fixture.Assertion{a}
		c := compare(one)
		if c.AssertionFailures == 0 {
			kept = append(kept, a)
			continue
		}
		detail := ""
		for _, d := range c.Differences {
			if d.Kind == fixture.KindAssertion {
				detail = ": " + d.Detail
				break
			}
		}
		notes = append(notes, fmt.Sprintf("dropped the proposed assertion %s%s: it fails on the response it was proposed from, as replay reads it%s", where, describeAssertion(a), detail))
	}
	step.Assertions = nil
	step.Rules = slices.Clone(step.Rules)
	for {
		c := compare(step)
		bad := -1
		for _, d := range c.Differences {
			if d.Severity != fixture.Breaking || d.Rule == nil {
				continue
			}
			r := *d.Rule
			if bad = slices.IndexFunc(step.Rules, func(x fixture.Rule) bool { return x.Path == r.Path && x.Type == r.Type && x.Pattern == r.Pattern }); bad >= 0 {
				notes = append(notes, fmt.Sprintf("dropped the proposed rule %s%s → %s: it does not hold on the pin's second response (%s)", where, r.Path, ruleType(r), d.Detail))
				break
			}
		}
		if bad < 0 {
			for _, d := range c.Differences {
				if d.Severity == fixture.Breaking {
					notes = append(notes, fmt.Sprintf("WARNING: %s%s differed between 2 identical calls and no rule holds it (%s): replay of the unchanged server will be red there; add a rule for it", where, d.Path, d.Detail))
				}
			}
			break
		}
		step.Rules = slices.Delete(step.Rules, bad, bad+1)
	}
	step.Assertions = kept
	calls[i] = step
	f.SetCalls(calls)
	return notes
}

func describeAssertion(a fixture.Assertion) string {
	line := a.Op
	if a.Path != "" {
		line = a.Path + " " + a.Op
	}
	if len(a.Value) > 0 {
		line += " " + string(a.Value)
	}
	return line
}

func ruleType(r fixture.Rule) string {
	if r.Pattern != "" {
		return r.Type + " " + r.Pattern
	}
	return r.Type
}

// probe makes the pinned call once more and returns its result: in a fresh
// session that replays the whole fixture when opts.Fresh is set, else on s.
func probe(ctx context.Context, s *session.Session, f *fixture.Fixture, opts PinOptions) (fixture.Actual, error) {
	calls := f.Calls()
	last := calls[len(calls)-1]
	if opts.Fresh != nil {
		act, err := opts.Fresh(ctx, f)
		if err != nil {
			return fixture.Actual{}, err
		}
		if len(act.Result) == 0 {
			return fixture.Actual{}, fmt.Errorf("the call answered %s", act.Error)
		}
		return act, nil
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(last.Request.Params, &call)
	again, err := s.CallTool(ctx, call.Name, call.Arguments)
	if err != nil || again == nil || len(again.Result) == 0 {
		return fixture.Actual{}, fmt.Errorf("%v", err)
	}
	return fixture.Actual{Result: again.Result}, nil
}

// FreshProbe returns a PinOptions.Fresh that replays a fixture with the
// runner in a fresh session (a fresh process, a fresh scratch directory)
// and returns the last step's response, redacted like any replay.
func FreshProbe(ropts Options) func(ctx context.Context, f *fixture.Fixture) (fixture.Actual, error) {
	return func(ctx context.Context, f *fixture.Fixture) (fixture.Actual, error) {
		out := Run(ctx, []Case{{Path: f.Scenario + ".json", Fixture: f}}, ropts)
		o := out[0]
		if o.Err != nil {
			return fixture.Actual{}, o.Err
		}
		if len(o.Steps) < len(f.Calls()) {
			return fixture.Actual{}, fmt.Errorf("the scenario stopped after step %d of %d in a fresh session", len(o.Steps), len(f.Calls()))
		}
		return o.Steps[len(o.Steps)-1], nil
	}
}

// stepOf turns an exchange into a step: the request and response exactly as
// they crossed, with the session's scratch directory as "${JIG_SCRATCH}".
func stepOf(ex *session.Exchange, vars map[string]string) (fixture.Step, error) {
	if ex == nil || ex.Request == nil {
		return fixture.Step{}, fmt.Errorf("pin: there is no exchange to pin")
	}
	if len(ex.Result) == 0 && len(ex.Error) == 0 {
		return fixture.Step{}, fmt.Errorf("pin: %s has no response yet", ex.Request.Method)
	}
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(ex.Request.Raw, &req); err != nil || req.Method == "" {
		return fixture.Step{}, fmt.Errorf("pin: the request frame is not a JSON-RPC request")
	}
	return fixture.Step{
		Request:  fixture.Request{Method: req.Method, Params: unscratch(clone(req.Params), vars)},
		Response: fixture.Response{Result: unscratch(clone(ex.Result), vars), Error: unscratch(clone(ex.Error), vars)},
	}, nil
}

// flowOf is what the server sent while ex was open: the notifications
// (progress for this call's token only, logging, the rest) and its requests
// to the client with the client's answers, as they crossed, timed from the
// request — not what the server did on its own meanwhile (frames.OwnAccount:
// a roots/list the handshake called for, a ping, the GET stream's). jig mock
// re-sends them.
func flowOf(log *frames.Log, ex *session.Exchange, vars map[string]string) []fixture.FlowMessage {
	if log == nil || ex.Request == nil || ex.Response == nil {
		return nil
	}
	start, end := -1, -1
	for i := log.Len() - 1; i >= 0 && start < 0; i-- {
		switch log.Frame(i) {
		case ex.Response:
			end = i
		case ex.Request:
			start = i
		}
	}
	if start < 0 || end < start {
		return nil
	}
	token := ""
	if s, e, ok := frames.MemberSpan(ex.Request.Raw, "params", "_meta", "progressToken"); ok {
		token = string(ex.Request.Raw[s:e])
	}
	var flow []fixture.FlowMessage
	asked := map[string]int{} // the server's requests, by id, to their place in flow
	var own frames.OwnAccount // what the server did on its own, the call's window or not
	for i := 0; i <= start; i++ {
		own.See(log.Frame(i))
	}
	for i := start + 1; i < end; i++ {
		f := log.Frame(i)
		if own.See(f) {
			continue // a roots/list after the handshake, a ping, the GET stream's
		}
		switch {
		case f.Dir == frames.ServerToClient && f.Kind == frames.KindNotification:
			if f.Method == "notifications/progress" {
				s, e, ok := frames.MemberSpan(f.Raw, "params", "progressToken")
				if !ok || string(f.Raw[s:e]) != token {
					continue // another call's progress
				}
			}
		case f.Dir == frames.ServerToClient && f.Kind == frames.KindRequest:
			asked[f.ID] = len(flow)
		case f.Dir == frames.ClientToServer && f.IsResponse():
			if k, ok := asked[f.ID]; ok {
				flow[k].Answer = unscratch(clone(f.Raw), vars)
				delete(asked, f.ID)
			}
			continue
		default:
			continue
		}
		flow = append(flow, fixture.FlowMessage{AtMS: f.Time.Sub(ex.Request.Time).Milliseconds(), Message: unscratch(clone(f.Raw), vars)})
	}
	return flow
}

// roundsOf are the earlier rounds of a 2026-07-28 call the server answered
// with input_required results, each as it crossed, with its flow.
func roundsOf(log *frames.Log, ex *session.Exchange, vars map[string]string) []fixture.Round {
	var rounds []fixture.Round
	for _, r := range ex.Rounds {
		step, err := stepOf(r, vars)
		if err != nil || len(step.Response.Result) == 0 {
			continue
		}
		rounds = append(rounds, fixture.Round{Request: step.Request, Response: step.Response, Flow: flowOf(log, r, vars)})
	}
	return rounds
}

// linkCaptures captures, in earlier steps, the volatile values later
// requests send again, and makes the later steps use them (see
// fixture.LinkCaptures).
func linkCaptures(steps []fixture.Step) {
	fixture.LinkCaptures(steps)
}

// answersOf are the answers the client gave the server's requests for input
// in the steps' flows and input_required rounds, in order, as scripts: each
// sampling reply as its whole result, each elicitation answer as its action
// and content. A request answered with an error has no script answer.
func answersOf(steps []fixture.Step) (elicit, sample *session.Script) {
	add := func(method string, result json.RawMessage) {
		switch method {
		case "sampling/createMessage":
			if sample == nil {
				sample = &session.Script{Source: "the answers given when pinned"}
			}
			sample.Answers = append(sample.Answers, session.Answer{Result: clone(result)})
		case "elicitation/create":
			var r struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			}
			if json.Unmarshal(result, &r) != nil || r.Action == "" {
				return
			}
			if elicit == nil {
				elicit = &session.Script{Source: "the answers given when pinned"}
			}
			elicit.Answers = append(elicit.Answers, session.Answer{Action: r.Action, Content: r.Content})
		}
	}
	flow := func(msgs []fixture.FlowMessage) {
		for _, m := range msgs {
			var q struct {
				Method string `json:"method"`
			}
			var a struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(m.Message, &q) == nil && json.Unmarshal(m.Answer, &a) == nil && len(a.Result) > 0 {
				add(q.Method, a.Result)
			}
		}
	}
	for _, st := range steps {
		for k, r := range st.Rounds {
			flow(r.Flow)
			// The answers to a round's input requests are in the request
			// after it, by the same key.
			var asked struct {
				InputRequests map[string]struct {
					Method string `json:"method"`
				} `json:"inputRequests"`
			}
			_ = json.Unmarshal(r.Response.Result, &asked)
			next := st.Request
			if k+1 < len(st.Rounds) {
				next = st.Rounds[k+1].Request
			}
			var given struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			_ = json.Unmarshal(next.Params, &given)
			keys := make([]string, 0, len(asked.InputRequests))
			for key := range asked.InputRequests {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if res, ok := given.InputResponses[key]; ok {
					add(asked.InputRequests[key].Method, res)
				}
			}
		}
		flow(st.Flow)
	}
	return elicit, sample
}

// targetAuth is what a fixture records of the session's OAuth grant: that
// there was one, by whom and for what; nil when the server needed none.
func targetAuth(g *oauth.Grant) *fixture.TargetAuth {
	if g == nil {
		return nil
	}
	grant := "authorization_code"
	if g.Source == "client credentials" {
		grant = "client_credentials"
	}
	return &fixture.TargetAuth{Issuer: g.Issuer, Scopes: append([]string(nil), g.Scopes...), Grant: grant}
}

// fixtureTarget converts a (redacted) session target to the fixture's form.
func fixtureTarget(t session.Target) fixture.Target {
	return fixture.Target{
		Transport: string(t.Transport),
		Command:   append([]string(nil), t.Command...),
		Dir:       t.Dir,
		URL:       t.URL,
		Headers:   copyMap(t.Headers),
		Env:       copyMap(t.Env),
		Release:   t.Release,
	}
}

func copyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// FindTool returns the raw definition of the tool called name, or nil.
func FindTool(raw []json.RawMessage, name string) json.RawMessage {
	for _, t := range raw {
		var d struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &d) == nil && d.Name == name {
			return t
		}
	}
	return nil
}

func readOnly(tool json.RawMessage) bool {
	var t struct {
		Annotations struct {
			ReadOnlyHint bool `json:"readOnlyHint"`
		} `json:"annotations"`
	}
	return json.Unmarshal(tool, &t) == nil && t.Annotations.ReadOnlyHint
}

// mergeRules appends to a the rules of b whose paths a does not cover yet.
//
// Two "pattern" rules on one path are one rule masking the spans of both:
// a time the shapes know stays masked when a probe saw other spans differ
// (its two calls fell in the same second, the next replay's will not).
func mergeRules(a, b []fixture.Rule) []fixture.Rule {
	at := map[string]int{}
	for i, r := range a {
		at[r.Path] = i
	}
	for _, r := range b {
		i, seen := at[r.Path]
		switch {
		case !seen:
			at[r.Path] = len(a)
			a = append(a, r)
		case a[i].Type == fixture.TypePattern && r.Type == fixture.TypePattern && !strings.Contains(a[i].Pattern, r.Pattern):
			a[i].Pattern = "(?:" + r.Pattern + ")|(?:" + a[i].Pattern + ")"
			a[i].Reason = r.Reason + "; " + a[i].Reason
		}
	}
	return a
}

func clone(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

// Describe writes what a reviewer must see before a fixture is saved: the
// steps of a scenario, every normalization rule with its reason, the
// assertions, captures, what was redacted, and the values that tie the
// fixture to this machine, each with a rule or a variable that would not.
func Describe(w io.Writer, f *fixture.Fixture) {
	calls := f.Calls()
	for i, step := range calls {
		indent := ""
		if len(calls) > 1 {
			what := step.Request.Method
			if n := step.ToolName(); n != "" {
				what += " " + n
			}
			fmt.Fprintf(w, "%s: %s\n", f.Label(i), what)
			indent = "  "
		}
		describeStep(w, indent, step)
	}
	if len(f.Redactions) > 0 {
		paths := make([]string, 0, len(f.Redactions))
		for _, r := range f.Redactions {
			what := r.Rule
			if r.Env != "" {
				what = "$" + r.Env + ", re-filled from the environment at replay"
			}
			paths = append(paths, fmt.Sprintf("%s (%s)", r.Path, what))
		}
		sort.Strings(paths)
		fmt.Fprintf(w, "redacted: %s\n", strings.Join(paths, ", "))
	}
	if a := f.Answers; a != nil {
		fmt.Fprintf(w, "answers: %s (replay answers the server's requests for input the same way)\n", describeAnswers(a))
	}
	for _, note := range f.PinNotes {
		fmt.Fprintln(w, note)
	}
	for _, warn := range Warnings(f) {
		fmt.Fprintln(w, warn)
	}
}

func describeStep(w io.Writer, indent string, step fixture.Step) {
	if len(step.Rules) == 0 {
		fmt.Fprintf(w, "%snormalization rules: none (every value is compared exactly)\n", indent)
	} else {
		fmt.Fprintf(w, "%snormalization rules:\n", indent)
		for _, r := range step.Rules {
			typ := r.Type
			if r.Pattern != "" {
				typ += " " + r.Pattern
			}
			fmt.Fprintf(w, "%s  %s → %s (%s)\n", indent, r.Path, typ, r.Reason)
		}
	}
	if len(step.Assertions) == 0 {
		fmt.Fprintf(w, "%sassertions: none\n", indent)
	} else {
		fmt.Fprintf(w, "%sassertions:\n", indent)
		for _, a := range step.Assertions {
			line := a.Op
			if a.Path != "" {
				line = a.Path + " " + a.Op
			}
			if len(a.Value) > 0 {
				line += " " + string(a.Value)
			}
			fmt.Fprintf(w, "%s  %s\n", indent, line)
		}
	}
	if len(step.Rounds) > 0 {
		fmt.Fprintf(w, "%srounds: %d input_required round(s) before the answer (%s; jig mock serves each, replay checks the server asks the same)\n",
			indent, len(step.Rounds), describeRounds(step.Rounds))
	}
	if len(step.Flow) > 0 {
		fmt.Fprintf(w, "%sflow: %s (jig mock sends it again; replay checks its requests for input)\n", indent, describeFlow(step.Flow))
	}
	for _, c := range step.Captures {
		fmt.Fprintf(w, "%scaptures %s from %s\n", indent, c.Name, c.Path)
	}
	for _, u := range step.Uses {
		fmt.Fprintf(w, "%suses %s at %s\n", indent, u.Capture, u.Path)
	}
}

// describeRounds names what each round asked for: "round 1: step1".
func describeRounds(rounds []fixture.Round) string {
	parts := make([]string, len(rounds))
	for k, r := range rounds {
		var res struct {
			InputRequests map[string]struct {
				Method string `json:"method"`
			} `json:"inputRequests"`
		}
		_ = json.Unmarshal(r.Response.Result, &res)
		var asked []string
		for _, in := range res.InputRequests {
			asked = append(asked, in.Method)
		}
		sort.Strings(asked)
		parts[k] = fmt.Sprintf("round %d: %s", k+1, strings.Join(asked, ", "))
	}
	return strings.Join(parts, "; ")
}

// describeFlow counts a call's flow by method, in the order first sent:
// "2 notifications/progress, 1 elicitation/create".
func describeFlow(flow []fixture.FlowMessage) string {
	counts := map[string]int{}
	var order []string
	for _, m := range flow {
		var head struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(m.Message, &head)
		if counts[head.Method] == 0 {
			order = append(order, head.Method)
		}
		counts[head.Method]++
	}
	parts := make([]string, len(order))
	for i, m := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[m], m)
	}
	return strings.Join(parts, ", ")
}

// describeAnswers counts a fixture's scripted answers: "1 sampling reply,
// elicitation: accept-defaults".
func describeAnswers(a *fixture.Answers) string {
	var parts []string
	for _, sc := range []struct {
		what string
		raw  json.RawMessage
	}{{"sampling", a.Sample}, {"elicitation", a.Elicit}} {
		s, err := session.ScriptFromJSON(sc.raw, sc.what)
		switch {
		case err != nil || s == nil:
		case s.Mode != "":
			parts = append(parts, sc.what+": "+s.Mode)
		default:
			parts = append(parts, fmt.Sprintf("%d %s answer%s", len(s.Answers), sc.what, frames.Plural(len(s.Answers))))
		}
	}
	return strings.Join(parts, ", ")
}
