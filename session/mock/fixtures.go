package mock

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// addFixtureDir reads every *.json fixture directly in dir, sorted by name,
// skipping the reports jig wrote there. Files are read, checked and turned
// into exchanges in parallel (that is most of a start-up), then indexed in
// name order.
func (b *Book) addFixtureDir(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	loaded := make([]*prepared, len(files))
	errs := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				var f *fixture.Fixture
				if f, errs[i] = fixture.Load(files[i]); errs[i] == nil {
					loaded[i] = prepare(files[i], f)
				}
			}
		}()
	}
	wg.Wait()
	n := 0
	for i := range files {
		if errs[i] != nil {
			if isReport(errs[i]) {
				continue
			}
			return errs[i]
		}
		b.addFixture(loaded[i])
		n++
	}
	if n == 0 {
		return fmt.Errorf("%s holds no fixtures (pin one with 'jig call TOOL --pin %s/NAME.json')", dir, dir)
	}
	return nil
}

func isReport(err error) bool {
	fe, ok := err.(*fixture.FileError)
	return ok && fe.Kind == fixture.ErrReport
}

func (b *Book) addFixtureFile(path string) error {
	f, err := fixture.Load(path)
	if err != nil {
		return err
	}
	b.addFixture(prepare(path, f))
	return nil
}

// prepared is a fixture made ready to index: its calls as exchanges (keys
// computed), their tool definitions compacted, and what cannot be served.
// Preparing needs nothing of the Book, so fixtures are prepared in
// parallel.
type prepared struct {
	path     string
	f        *fixture.Fixture
	exs      []*Exchange
	tools    []json.RawMessage // by exchange
	warnings []string
}

func prepare(path string, f *fixture.Fixture) *prepared {
	p := &prepared{path: path, f: f}
	for i, step := range f.Calls() {
		src := path
		if len(f.Steps) > 0 {
			src = fmt.Sprintf("%s %s", path, f.Label(i))
		}
		exs, err := fixtureExchanges(src, f, i, step)
		if err != nil {
			p.warnings = append(p.warnings, fmt.Sprintf("%s: not served: %v", src, err))
			continue
		}
		var def json.RawMessage
		if step.Request.Method == "tools/call" && len(step.Tool) > 0 {
			def, _ = frames.Compact(step.Tool)
		}
		for _, ex := range exs {
			p.exs = append(p.exs, ex)
			p.tools = append(p.tools, def)
		}
	}
	return p
}

// fixtureExchanges are the exchanges of step i: its input_required rounds,
// in order, then its answer. A round after the first answers only the
// retry that carries its requestState, so the client is asked round by
// round, as the pinned client was.
func fixtureExchanges(src string, f *fixture.Fixture, i int, step fixture.Step) ([]*Exchange, error) {
	calls := make([]fixture.Step, 0, len(step.Rounds)+1)
	for _, r := range step.Rounds {
		calls = append(calls, fixture.Step{Request: r.Request, Response: r.Response, Flow: r.Flow})
	}
	calls = append(calls, step)
	var exs []*Exchange
	for k, c := range calls {
		at := src
		if len(calls) > 1 {
			at = fmt.Sprintf("%s round %d", src, k+1)
		}
		ex, err := fixtureExchange(at, f, i, c)
		if err != nil {
			return nil, err
		}
		if ex.key, err = fixture.RequestKey(ex.Params); err != nil {
			return nil, fmt.Errorf("the request's params are not JSON: %v", err)
		}
		ex.state = requestState(ex.Params)
		ex.retry = k > 0 && ex.state != ""
		exs = append(exs, ex)
	}
	return exs, nil
}

// addFixture indexes a prepared fixture's calls: a scenario's steps in
// order, so that a stateful sequence (create, then read) is served as it
// was pinned.
func (b *Book) addFixture(p *prepared) {
	f := p.f
	b.Fixtures++
	b.Sources = append(b.Sources, p.path)
	b.Warnings = append(b.Warnings, p.warnings...)
	b.addVersion(f.ProtocolVersion)
	b.fixtureFace(f)
	b.origin(f.Server.Name, f.Server.Version, p.path)
	pinned := f.Pinned.At
	if n := len(f.History); n > 0 {
		pinned = f.History[n-1].At
	}
	for i, ex := range p.exs {
		if err := b.add(ex); err != nil {
			b.warn("%v", err)
			continue
		}
		switch ex.Method {
		case "tools/call":
			b.addPinnedTool(p.tools[i], ex.Name, pinned)
		case "resources/read":
			b.resources = appendNew(b.resources, ex.Name)
		case "prompts/get":
			b.prompts = appendNew(b.prompts, ex.Name)
		}
	}
}

// fixtureFace takes the server's self-description from a fixture, the
// first one that has it.
func (b *Book) fixtureFace(f *fixture.Fixture) {
	if b.face.name == "" {
		b.face.name, b.face.version = f.Server.Name, f.Server.Version
	}
	if len(b.face.capabilities) == 0 && len(f.Server.Capabilities) > 0 {
		b.face.capabilities, _ = frames.Compact(f.Server.Capabilities)
	}
	if b.face.instructions == "" {
		b.face.instructions = f.Server.Instructions
	}
}

// pinnedAt remembers when each tool's listed definition was pinned, so the
// newest wins whatever the file names' order.
func (b *Book) addPinnedTool(def json.RawMessage, name string, at time.Time) {
	if b.toolPinned == nil {
		b.toolPinned = map[string]time.Time{}
	}
	if prev, ok := b.toolPinned[name]; ok && at.Before(prev) {
		return
	}
	b.toolPinned[name] = at
	b.addTool(def, name)
}

// fixtureExchange builds the exchange of step i: the request as pinned, and
// its response as a JSON-RPC message whose result or error bytes are the
// pinned ones (compacted: key order and number spelling are kept).
func fixtureExchange(src string, f *fixture.Fixture, i int, step fixture.Step) (*Exchange, error) {
	ex := &Exchange{Source: src, Method: step.Request.Method, Params: step.Request.Params, fx: f, step: i}
	ex.Name, ex.Arguments = nameOf(ex.Method, ex.Params)
	member, body := "result", step.Response.Result
	if len(body) == 0 {
		member, body = "error", step.Response.Error
	}
	c, ok := frames.Compact(body)
	if !ok {
		return nil, fmt.Errorf("its response %s is not valid JSON", member)
	}
	const head = `{"jsonrpc":"2.0","id":`
	raw := make([]byte, 0, len(c)+40)
	raw = append(raw, head+`0,"`...)
	raw = append(raw, member...)
	raw = append(raw, `":`...)
	raw = append(raw, c...)
	raw = append(raw, '}')
	// The reply is built here, so where its id is is known (newReply would
	// look for it).
	r := &Reply{raw: raw, idStart: len(head), idEnd: len(head) + 1, Error: member == "error"}
	if st, en, ok := frames.MemberSpan(c, "resultType"); ok && !r.Error && string(c[st:en]) == `"input_required"` {
		r.inputRequest = true
	}
	ex.Reply = r
	for j, m := range step.Flow {
		ev, err := flowEvent(m)
		if err != nil {
			return nil, fmt.Errorf("its flow[%d]: %v", j, err)
		}
		ex.Flow = append(ex.Flow, ev)
	}
	return ex, nil
}

// flowEvent is a pinned flow message as the mock sends it: compacted (one
// line), timed as pinned; the client's pinned answer is not needed, the
// client under test answers for itself.
func flowEvent(m fixture.FlowMessage) (Event, error) {
	raw, ok := frames.Compact(m.Message)
	if !ok {
		return Event{}, fmt.Errorf("the message is not valid JSON")
	}
	var head struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(raw, &head)
	ev := Event{At: time.Duration(m.AtMS) * time.Millisecond, Raw: raw, Method: head.Method, Kind: frames.KindNotification}
	if len(head.ID) > 0 && string(head.ID) != "null" {
		ev.Kind = frames.KindRequest
	}
	return ev, nil
}

// nameOf is what a request is about: the tool or prompt it calls, the
// resource it reads, and its arguments. It reads only those members (it
// runs for every request served).
func nameOf(method string, params json.RawMessage) (name string, args json.RawMessage) {
	member := func(key string) json.RawMessage {
		if s, e, ok := frames.MemberSpan(params, key); ok {
			return params[s:e]
		}
		return nil
	}
	switch method {
	case "tools/call", "prompts/get":
		return jsonString(member("name")), member("arguments")
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		return jsonString(member("uri")), nil
	}
	return "", nil
}

func appendNew(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}
