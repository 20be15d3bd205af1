package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/session"
)

// PinOptions say how to turn one exchange into a fixture.
type PinOptions struct {
	Scenario string
	Note     string
	// Target is the target as the user gave it; only its redacted form is
	// stored (secrets stay environment references), and its expanded secrets
	// are redacted wherever they appear.
	Target session.Target
	// Tool is the tool's definition exactly as tools/list gave it. When nil,
	// Pin lists the tools itself (tools/call only).
	Tool json.RawMessage
	// Elicit and Sample are the scripted answers the call was made with
	// (--elicit, --sample); the fixture keeps them for its replay.
	Elicit, Sample *session.Script
	// Probe is how many times the identical call is re-issued to find the
	// values that vary. Negative means automatic: once for a tool annotated
	// readOnlyHint, never otherwise (a second call of a tool with side effects
	// is not jig's to make).
	Probe int
	// Secrets are more exact values to redact, e.g. of --secret-env variables.
	Secrets []string
	Now     func() time.Time
}

// Pin builds the fixture for an exchange that just happened on s: the request
// exactly as sent (including the _meta the SDK added in the stateless era;
// replay re-sends only the name and arguments, and the SDK adds the _meta of
// the era it replays in), the response exactly as received, the tool as
// listed, proposed rules (from the values' shapes and from probing), proposed
// assertions, and every secret redacted. It does not save the fixture.
func Pin(ctx context.Context, s *session.Session, ex *session.Exchange, opts PinOptions) (*fixture.Fixture, error) {
	if ex == nil || ex.Request == nil {
		return nil, fmt.Errorf("pin: there is no exchange to pin")
	}
	if len(ex.Result) == 0 && len(ex.Error) == 0 {
		return nil, fmt.Errorf("pin: %s has no response yet", ex.Request.Method)
	}
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(ex.Request.Raw, &req); err != nil || req.Method == "" {
		return nil, fmt.Errorf("pin: the request frame is not a JSON-RPC request")
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	info := s.Info()
	f := &fixture.Fixture{
		Format:          fixture.Format,
		Scenario:        opts.Scenario,
		Note:            opts.Note,
		Pinned:          fixture.Pinned{At: now().UTC().Truncate(time.Second), By: "jig " + session.Version},
		Target:          fixtureTarget(opts.Target.Redacted()),
		Server:          fixture.Server{Name: info.ServerName, Version: info.ServerVersion},
		ProtocolVersion: info.ProtocolVersion,
		Request:         fixture.Request{Method: req.Method, Params: clone(req.Params)},
		Response:        fixture.Response{Result: clone(ex.Result), Error: clone(ex.Error)},
	}
	if f.Scenario == "" {
		f.Scenario = strings.ReplaceAll(req.Method, "/", "-")
	}
	if opts.Elicit != nil || opts.Sample != nil {
		f.Answers = &fixture.Answers{Elicit: opts.Elicit.ScriptJSON(), Sample: opts.Sample.ScriptJSON()}
	}

	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(req.Params, &call)
	if req.Method == "tools/call" {
		f.Tool = clone(opts.Tool)
		if f.Tool == nil {
			raw, _, err := s.ListTools(ctx)
			if err != nil {
				return nil, fmt.Errorf("pin: listing tools for %s's definition: %w", call.Name, err)
			}
			f.Tool = FindTool(raw, call.Name)
		}
	}

	if len(f.Response.Result) > 0 {
		rules := fixture.ProposeRules(f.Response.Result)
		probes := opts.Probe
		if probes < 0 {
			probes = 0
			if readOnly(f.Tool) {
				probes = 1
			}
		}
		if req.Method != "tools/call" {
			probes = 0
		}
		var probed []fixture.Rule
		for i := 0; i < probes; i++ {
			again, err := s.CallTool(ctx, call.Name, call.Arguments)
			if err != nil || again == nil || len(again.Result) == 0 {
				return nil, fmt.Errorf("pin: probe call %d of %s failed: %v (pin with --probe 0 to skip probing)", i+1, call.Name, err)
			}
			probed = mergeRules(probed, fixture.ProbeRules(f.Response.Result, again.Result))
		}
		// A value seen to differ is evidence; it outranks a guess from its shape.
		f.Rules = mergeRules(probed, rules)
		f.Assertions = fixture.ProposeAssertions(f.Response.Result)
	}
	fixture.Redact(f, append(opts.Target.Secrets(), opts.Secrets...))
	return f, nil
}

// fixtureTarget converts a (redacted) session target to the fixture's form.
func fixtureTarget(t session.Target) fixture.Target {
	return fixture.Target{
		Transport: string(t.Transport),
		Command:   append([]string(nil), t.Command...),
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
func mergeRules(a, b []fixture.Rule) []fixture.Rule {
	seen := map[string]bool{}
	for _, r := range a {
		seen[r.Path] = true
	}
	for _, r := range b {
		if !seen[r.Path] {
			seen[r.Path] = true
			a = append(a, r)
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

// Describe writes what a reviewer must see before a fixture is saved: every
// normalization rule with its reason, the assertions, and what was redacted.
func Describe(w io.Writer, f *fixture.Fixture) {
	if len(f.Rules) == 0 {
		fmt.Fprintln(w, "normalization rules: none (every value is compared exactly)")
	} else {
		fmt.Fprintln(w, "normalization rules:")
		for _, r := range f.Rules {
			fmt.Fprintf(w, "  %s → %s (%s)\n", r.Path, r.Type, r.Reason)
		}
	}
	if len(f.Assertions) == 0 {
		fmt.Fprintln(w, "assertions: none")
	} else {
		fmt.Fprintln(w, "assertions:")
		for _, a := range f.Assertions {
			line := a.Op
			if a.Path != "" {
				line = a.Path + " " + a.Op
			}
			if len(a.Value) > 0 {
				line += " " + string(a.Value)
			}
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if len(f.Redactions) > 0 {
		paths := make([]string, 0, len(f.Redactions))
		for _, r := range f.Redactions {
			paths = append(paths, fmt.Sprintf("%s (%s)", r.Path, r.Rule))
		}
		sort.Strings(paths)
		fmt.Fprintf(w, "redacted: %s\n", strings.Join(paths, ", "))
	}
}
