package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// match finds the recorded exchange that answers in: the same request
// exactly (key order, number spelling and _meta aside), else, per the mode
// for its tool, one the fixture's rules let it match, else (mode tool) any
// for the same name. Several recorded answers to one request are a
// sequence, served in recorded order per client session. When nothing
// matches it returns the miss, with the closest recorded requests.
func (s *Server) match(c *Conn, in *incoming) (*Exchange, *Miss) {
	b := s.book
	name := in.name()
	key, err := fixture.RequestKey(in.params)
	if err != nil {
		return nil, &Miss{Method: in.method, Name: name, Params: in.params, Reason: "its params are not JSON: " + err.Error()}
	}
	if st := requestState(in.params); st != "" {
		k := stateKey(in.method, name, st)
		if exs := b.byState[k]; len(exs) > 0 {
			return s.next(c, "state\x00"+k, exs), nil
		}
	}
	mode := s.opts.Match
	if m, ok := s.opts.MatchFor[name]; ok && name != "" {
		mode = m
	}
	if exs := answered(b.byKey[in.method+"\x00"+key]); len(exs) > 0 {
		return s.next(c, in.method+"\x00"+key, exs), nil
	}
	named := b.byName[in.method+"\x00"+name]
	if mode != MatchExact {
		for _, ex := range named {
			if ex.hollow() {
				continue
			}
			if matches(fixture.MatchRequest(ex.fixture(), ex.step, in.params)) {
				return s.next(c, in.method+"\x00"+ex.key, answered(b.byKey[in.method+"\x00"+ex.key])), nil
			}
		}
	}
	if mode == MatchTool && name != "" {
		for _, ex := range named {
			if ex.Reply != nil {
				return s.next(c, in.method+"\x00"+ex.key, answered(b.byKey[in.method+"\x00"+ex.key])), nil
			}
		}
	}
	return nil, s.nearMiss(in, name)
}

// hollow says an exchange has nothing to serve: no answer, nothing sent
// meanwhile, and no cancellation to honour (a call its client cancelled is
// served by staying open until this client cancels it too, whether or not
// the server sent anything before).
func (ex *Exchange) hollow() bool {
	return ex.Reply == nil && len(ex.Flow) == 0 && !ex.Cancelled
}

// answered keeps the exchanges that have something to serve.
func answered(exs []*Exchange) []*Exchange {
	for _, ex := range exs {
		if ex.hollow() {
			out := make([]*Exchange, 0, len(exs))
			for _, ex := range exs {
				if !ex.hollow() {
					out = append(out, ex)
				}
			}
			return out
		}
	}
	return exs
}

// next serves a sequence: the client session's next answer of seq, then
// the last again (or, with Cycle, the first).
func (s *Server) next(c *Conn, seq string, exs []*Exchange) *Exchange {
	c.mu.Lock()
	n := c.next[seq]
	c.next[seq] = n + 1
	c.mu.Unlock()
	switch {
	case n < len(exs):
	case s.opts.Cycle:
		n %= len(exs)
	default:
		n = len(exs) - 1
	}
	ex := exs[n]
	s.mu.Lock()
	s.served[ex.index]++
	s.mu.Unlock()
	return ex
}

func matches(diffs []fixture.Difference) bool {
	for _, d := range diffs {
		if d.Severity > fixture.Cosmetic {
			return false
		}
	}
	return true
}

// fixture is the fixture whose rules the exchange is matched by: its own,
// or for a recorded exchange one holding just its request.
func (ex *Exchange) fixture() *fixture.Fixture {
	if ex.fx == nil {
		ex.fx = &fixture.Fixture{Format: fixture.Format, Scenario: ex.Source, Request: fixture.Request{Method: ex.Method, Params: ex.Params}}
	}
	return ex.fx
}

// A Miss is a request nothing recorded answers, with the recorded requests
// closest to it.
type Miss struct {
	Method string          `json:"method"`
	Name   string          `json:"name,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Reason string          `json:"reason,omitempty"`
	// Unknown says nothing recorded names the tool, prompt or resource at
	// all; Recorded are the ones recorded.
	Unknown  bool     `json:"unknown,omitempty"`
	Recorded []string `json:"recorded,omitempty"`
	Closest  []Near   `json:"closest,omitempty"`
	// Count is how many times it was asked; At when first.
	Count int       `json:"count"`
	At    time.Time `json:"at"`
}

// Near is a recorded request close to a missed one, and where they differ.
type Near struct {
	Source      string       `json:"source"`
	Differences []Difference `json:"differences"`
}

// A Difference is one field where a request differs from a recorded one:
// a JSON Pointer into the params, the recorded and the sent value (absent
// when missing), and what a rule said.
type Difference struct {
	Path     string          `json:"path"`
	Recorded json.RawMessage `json:"recorded,omitempty"`
	Sent     json.RawMessage `json:"sent,omitempty"`
	Detail   string          `json:"detail,omitempty"`
}

// maxNear is how many close recorded requests a miss names.
const maxNear = 3

// nearMiss ranks the recorded requests of the same method by how far they
// are from the one sent: another name is farthest, then the number of
// fields that differ.
func (s *Server) nearMiss(in *incoming, name string) *Miss {
	m := &Miss{Method: in.method, Name: name, Params: in.params}
	if _, ok := namedKinds[in.method]; ok && name != "" && len(answered(s.book.byName[in.method+"\x00"+name])) == 0 {
		m.Unknown = true
		seen := map[string]bool{}
		for _, ex := range answered(s.book.byMethod[in.method]) {
			if ex.Name != "" && !seen[ex.Name] {
				seen[ex.Name] = true
				m.Recorded = append(m.Recorded, ex.Name)
			}
		}
		sort.Strings(m.Recorded)
	}
	type scored struct {
		near  Near
		score int
		index int
	}
	var all []scored
	for _, ex := range s.book.byMethod[in.method] {
		if ex.hollow() {
			continue
		}
		diffs := fixture.MatchRequest(ex.fixture(), ex.step, in.params)
		sc := scored{near: Near{Source: ex.Source}, index: ex.index}
		for _, d := range diffs {
			if d.Severity <= fixture.Cosmetic {
				continue
			}
			sc.score++
			if d.Path == "/params/name" || d.Path == "/params/uri" {
				sc.score += 1000
			}
			sc.near.Differences = append(sc.near.Differences, Difference{Path: strings.TrimPrefix(d.Path, "/params"), Recorded: d.Expected, Sent: d.Actual, Detail: d.Detail})
		}
		all = append(all, sc)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score < all[j].score })
	for i := 0; i < len(all) && i < maxNear; i++ {
		m.Closest = append(m.Closest, all[i].near)
	}
	return m
}

// message is the JSON-RPC error a miss is answered with: it says what was
// not matched and, in its data, which recorded requests came closest and
// how they differ.
func (m *Miss) message(id string) []byte {
	what := m.Method
	if m.Name != "" {
		what += " " + m.Name
	}
	var code int64 = -32602
	msg := "jig mock: no recorded " + what + " matches this request"
	switch {
	case m.Reason != "":
		msg += ": " + m.Reason
	case len(m.Closest) == 0:
		code = -32601
		msg = "Method not found: jig mock has no recorded " + m.Method
	case m.Unknown:
		msg = "jig mock: " + m.Unrecorded() // the data still ranks the others' calls
	default:
		msg += "; closest: " + m.Closest[0].Source
		if d := m.Closest[0].Differences; len(d) > 0 {
			msg += " (" + Describe(d, 3) + ")"
		}
	}
	return errorMessage(id, code, msg, struct {
		Closest []Near `json:"closest,omitempty"`
	}{m.Closest})
}

// namedKinds say, per method, what its name names: a request for a name
// nothing recorded is told so before any near miss.
var namedKinds = map[string][2]string{
	"tools/call":     {"call of tool", "tools"},
	"prompts/get":    {"get of prompt", "prompts"},
	"resources/read": {"read of resource", "resources"},
}

// Unrecorded says that nothing recorded names the request's tool, prompt
// or resource, and what was recorded: "no recorded call of tool
// cancel_order; recorded tools: echo, get_report".
func (m *Miss) Unrecorded() string {
	k := namedKinds[m.Method]
	out := fmt.Sprintf("no recorded %s %s", k[0], m.Name)
	if len(m.Recorded) == 0 {
		return out + "; no " + k[1] + " recorded"
	}
	names := m.Recorded
	more := ""
	if len(names) > 20 {
		names, more = names[:20], fmt.Sprintf(" and %d more", len(names)-20)
	}
	return out + "; recorded " + k[1] + ": " + strings.Join(names, ", ") + more
}

// Describe says up to max differences in words, each with its recorded
// and its sent value, then how many more there are.
func Describe(d []Difference, max int) string {
	var parts []string
	for i, x := range d {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(d)-max))
			break
		}
		parts = append(parts, x.describe())
	}
	return strings.Join(parts, "; ")
}

// describe is one difference in words: "/arguments/since: recorded
// "last month", sent "yesterday"".
func (d Difference) describe() string {
	path := d.Path
	if path == "" {
		path = "params"
	}
	switch {
	case d.Recorded == nil:
		return fmt.Sprintf("%s: not recorded, sent %s", path, clip(d.Sent))
	case d.Sent == nil:
		return fmt.Sprintf("%s: recorded %s, not sent", path, clip(d.Recorded))
	}
	return fmt.Sprintf("%s: recorded %s, sent %s", path, clip(d.Recorded), clip(d.Sent))
}

func clip(raw json.RawMessage) string {
	const max = 60
	s := string(raw)
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// missed lists a miss for the report at exit, once per distinct request.
func (s *Server) missed(m *Miss) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.misses {
		if have.Method == m.Method && string(have.Params) == string(m.Params) {
			have.Count++
			return
		}
	}
	m.Count, m.At = 1, time.Now().UTC()
	m.Params = append(json.RawMessage(nil), m.Params...)
	s.misses = append(s.misses, m)
}

// requestState is the state a 2026-07-28 retry carries, "" if none. It
// runs for every request served: it reads that member only.
func requestState(params json.RawMessage) string {
	st, en, ok := frames.MemberSpan(params, "requestState")
	if !ok {
		return ""
	}
	return jsonString(params[st:en])
}

// jsonString is the string a JSON string literal holds, "" for any other
// value.
func jsonString(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var v string
	_ = json.Unmarshal(raw, &v)
	return v
}
