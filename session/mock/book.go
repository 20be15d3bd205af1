package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/frames/fixture"
)

// A Book is everything a mock server knows: the recorded exchanges it
// answers from, what the recorded server said about itself, and what it
// sent on its own after the handshake. It is read once at start and never
// changes; what each client session has been served lives in the session.
type Book struct {
	// Sources are the files the book was read from, in order.
	Sources []string
	// Warnings say what was recorded but cannot be served as it was, or
	// was served with a stated assumption.
	Warnings []string
	// Fixtures and Recordings count the files of each kind.
	Fixtures, Recordings int

	face     face
	all      []*Exchange
	byKey    map[string][]*Exchange // method + "\x00" + fixture.RequestKey(params)
	byName   map[string][]*Exchange // method + "\x00" + tool or prompt name, resource URI
	byMethod map[string][]*Exchange
	byState  map[string][]*Exchange // method, name and a 2026-07-28 retry's requestState (stateKey)
	// tools are the tool definitions the fixtures pinned, for a tools/list
	// nothing recorded answers, in the order first seen.
	tools      []json.RawMessage
	toolNames  map[string]int
	toolPinned map[string]time.Time
	// resources and prompts are what the fixtures read and got, for a list
	// nothing recorded answers (fixtures pin no definitions of them).
	resources []string
	prompts   []string
	// origins are the servers the sources were recorded from.
	origins []Origin
	// session are the messages the recorded server sent on its own after
	// the handshake (roots/list, list_changed, logging), timed from it.
	session []Event
}

// face is the recorded server's self-description: what initialize or
// server/discover answered.
type face struct {
	name, version string
	// versions are the protocol versions recorded, newest first.
	versions     []string
	capabilities json.RawMessage
	instructions string
	// initialize and discover are the recorded results, exactly as sent,
	// when a recording held them.
	initialize, discover json.RawMessage
	initVersion          string // the protocolVersion initialize answered
}

// An Exchange is one recorded request and what the server did about it:
// what it sent while the request was open, and its answer.
type Exchange struct {
	// Source says where it was recorded: "fixtures/echo.json",
	// "fixtures/memory.json step 2 (read)", "run.jsonl#7".
	Source string
	Method string
	// Name is the tool or prompt called, or the resource read; "" for
	// other methods.
	Name      string
	Params    json.RawMessage
	Arguments json.RawMessage
	key       string
	// state is the requestState a 2026-07-28 retry carried, "" otherwise;
	// retry says it is a later round of a call recorded from its first
	// round, answered only to a retry with that state.
	state string
	retry bool
	// fx and step locate a fixture's call, whose rules matching reuses; a
	// recorded exchange gets a fixture of its own request when it needs one.
	fx   *fixture.Fixture
	step int
	// Reply is the answer; nil when none was recorded (the client cancelled
	// the request, or a subscription stayed open to the end).
	Reply *Reply
	// Flow is what the server sent between the request and its answer.
	Flow []Event
	// Cancelled says the recorded client cancelled the request before it
	// was answered (a notifications/cancelled named it).
	Cancelled bool
	index     int
}

// A Reply is a recorded response message. The id is replaced on serving;
// every other byte is served as recorded.
type Reply struct {
	raw          []byte
	idStart      int // raw[idStart:idEnd] is the recorded id
	idEnd        int
	At           time.Duration // after the request arrived
	Error        bool          // a JSON-RPC error
	inputRequest bool          // a 2026-07-28 input_required result
}

// Message returns the reply with id (a JSON text) in place of the recorded
// one.
func (r *Reply) Message(id string) []byte {
	out := make([]byte, 0, len(r.raw)-(r.idEnd-r.idStart)+len(id))
	out = append(out, r.raw[:r.idStart]...)
	out = append(out, id...)
	return append(out, r.raw[r.idEnd:]...)
}

// Raw is the reply as recorded.
func (r *Reply) Raw() []byte { return r.raw }

func newReply(raw []byte, at time.Duration) (*Reply, error) {
	s, e, ok := frames.MemberSpan(raw, "id")
	if !ok {
		return nil, fmt.Errorf("the response has no id")
	}
	r := &Reply{raw: raw, idStart: s, idEnd: e, At: at}
	_, _, r.Error = frames.MemberSpan(raw, "error")
	if rs, re, ok := frames.MemberSpan(raw, "result", "resultType"); ok && string(raw[rs:re]) == `"input_required"` {
		r.inputRequest = true
	}
	return r, nil
}

// An Event is a message the server sent without being asked for it there
// and then: a notification (progress, logging, list_changed), a request to
// the client (sampling, elicitation, roots/list), or bytes that were not a
// message at all, served as recorded.
type Event struct {
	At     time.Duration // after the request arrived (or the handshake)
	Raw    []byte
	Method string
	Kind   frames.Kind
}

// Load reads fixtures and recordings into one Book: each path is a fixture
// file, a directory of them, or a recording in any format jig open reads.
// A file that cannot be read is an error naming it; a directory's
// unreadable fixtures are too, so a typo never silently shrinks the book.
func Load(paths ...string) (*Book, error) {
	b := newBook()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, pathErr(err))
		}
		if st.IsDir() {
			if err := b.addFixtureDir(p); err != nil {
				return nil, err
			}
			continue
		}
		if isFixture(p) {
			if err := b.addFixtureFile(p); err != nil {
				return nil, err
			}
			continue
		}
		if err := b.addRecording(p); err != nil {
			return nil, err
		}
	}
	if len(b.all) == 0 && len(b.tools) == 0 {
		return nil, fmt.Errorf("%s: nothing to serve: no recorded request has an answer (pin fixtures with 'jig call --pin', or record a session with --record)", strings.Join(paths, ", "))
	}
	b.finish()
	return b, nil
}

func newBook() *Book {
	return &Book{byKey: map[string][]*Exchange{}, byName: map[string][]*Exchange{}, byMethod: map[string][]*Exchange{},
		byState: map[string][]*Exchange{}, toolNames: map[string]int{}}
}

func pathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// isFixture tells a fixture file from a recording by its first bytes: a
// fixture is one JSON object with a "format" member, a jig transcript is
// JSONL of records.
func isFixture(path string) bool {
	if filepath.Ext(path) != ".json" {
		return false
	}
	head, err := frames.ReadRegular(path, frames.MaxFixtureFile)
	if err != nil {
		return false
	}
	var probe struct {
		Format   *int            `json:"format"`
		Scenario json.RawMessage `json:"scenario"`
	}
	return json.Unmarshal(head, &probe) == nil && probe.Format != nil && probe.Scenario != nil
}

// add indexes an exchange.
func (b *Book) add(ex *Exchange) error {
	if ex.key == "" {
		k, err := fixture.RequestKey(ex.Params)
		if err != nil {
			return fmt.Errorf("%s: the request's params are not JSON: %v", ex.Source, err)
		}
		ex.key = k
	}
	ex.index = len(b.all)
	b.all = append(b.all, ex)
	if ex.state != "" {
		k := stateKey(ex.Method, ex.Name, ex.state)
		b.byState[k] = append(b.byState[k], ex)
	}
	if ex.retry {
		return nil // a retry is no answer to a first request
	}
	b.byKey[ex.Method+"\x00"+ex.key] = append(b.byKey[ex.Method+"\x00"+ex.key], ex)
	b.byName[ex.Method+"\x00"+ex.Name] = append(b.byName[ex.Method+"\x00"+ex.Name], ex)
	b.byMethod[ex.Method] = append(b.byMethod[ex.Method], ex)
	return nil
}

// stateKey indexes a retry: the call it retries and the requestState it
// carries (two tools may hand out the same state).
func stateKey(method, name, state string) string {
	return method + "\x00" + name + "\x00" + state
}

// addVersion notes a recorded protocol version.
func (b *Book) addVersion(v string) {
	if v == "" {
		return
	}
	for _, have := range b.face.versions {
		if have == v {
			return
		}
	}
	b.face.versions = append(b.face.versions, v)
}

// addTool keeps a pinned tool definition (compact JSON): the last one
// pinned wins, so a fixture updated after a reviewed drift is what the mock
// lists.
func (b *Book) addTool(c json.RawMessage, name string) {
	if len(c) == 0 || name == "" {
		return
	}
	if i, ok := b.toolNames[name]; ok {
		b.tools[i] = c
		return
	}
	b.toolNames[name] = len(b.tools)
	b.tools = append(b.tools, c)
}

func (b *Book) warn(format string, a ...any) {
	b.Warnings = append(b.Warnings, fmt.Sprintf(format, a...))
}

// finish orders what was collected: versions newest first.
func (b *Book) finish() {
	sort.Sort(sort.Reverse(sort.StringSlice(b.face.versions)))
	if b.face.name == "" {
		b.face.name = "jig-mock"
	}
}

// Exchanges returns every recorded exchange in the order read.
func (b *Book) Exchanges() []*Exchange { return b.all }

// ServerName and ServerVersion are what the recorded server called itself.
func (b *Book) ServerName() string    { return b.face.name }
func (b *Book) ServerVersion() string { return b.face.version }

// Versions are the protocol versions recorded, newest first.
func (b *Book) Versions() []string { return b.face.versions }

// stateless reports whether a 2026-07-28 era version was recorded.
func (b *Book) stateless() bool {
	for _, v := range b.face.versions {
		if v >= statelessVersion {
			return true
		}
	}
	return false
}

// statelessVersion is the first version of the stateless era.
const statelessVersion = "2026-07-28"

// Fill serves the values of redacted secrets: each "[REDACTED:NAME]" (or
// "[REDACTED:$NAME]") in a recorded answer or message becomes values[NAME],
// JSON-escaped. Without it a mock serves the placeholders as recorded and
// never needs a secret to start.
func (b *Book) Fill(values map[string]string) {
	if len(values) == 0 {
		return
	}
	var pairs [][2][]byte
	for name, v := range values {
		esc, _ := json.Marshal(v)
		esc = esc[1 : len(esc)-1]
		pairs = append(pairs, [2][]byte{[]byte("[REDACTED:" + name + "]"), esc}, [2][]byte{[]byte("[REDACTED:$" + name + "]"), esc})
	}
	fill := func(raw []byte) []byte {
		for _, p := range pairs {
			raw = bytes.ReplaceAll(raw, p[0], p[1])
		}
		return raw
	}
	for _, ex := range b.all {
		if ex.Reply != nil {
			if r, err := newReply(fill(ex.Reply.raw), ex.Reply.At); err == nil {
				ex.Reply = r
			}
		}
		for i := range ex.Flow {
			ex.Flow[i].Raw = fill(ex.Flow[i].Raw)
		}
	}
	for i, t := range b.tools {
		b.tools[i] = fill(t)
	}
}

// A Report is what a mock server served: the exchanges never asked for,
// the requests nothing matched, and the faults injected.
type Report struct {
	Sources []string `json:"sources"`
	// Served is how many recorded answers were served (an exchange may be
	// served many times; a handshake answered from the recorded server's
	// self-description is not one).
	Served int `json:"served"`
	// Exchanges is how many exchanges were recorded: Used + len(Unused) +
	// len(Unanswered).
	Exchanges int      `json:"exchanges"`
	Used      int      `json:"used"`
	Unused    []Unused `json:"unused"`
	// Unanswered are the recorded calls that got no answer, which no
	// client asked for: there is nothing in them to serve.
	Unanswered []Unused   `json:"unanswered"`
	Misses     []*Miss    `json:"misses"`
	Faults     []Injected `json:"faults,omitempty"`
}

// Unused is a recorded exchange no client asked for.
type Unused struct {
	Source string `json:"source"`
	Method string `json:"method"`
	Name   string `json:"name,omitempty"`
	// Why says why a call in Unanswered has no answer.
	Why string `json:"why,omitempty"`
}

// NoAnswer says a recorded call got no answer it should have had: not a
// subscriptions/listen, a stream its client ends by cancelling it, which
// has no answer by nature.
func (ex *Exchange) NoAnswer() bool {
	return ex.Reply == nil && ex.Method != "subscriptions/listen"
}

// Unanswered says why a recorded call has no answer.
func (ex *Exchange) unanswered() string {
	if ex.Cancelled {
		return "its client cancelled it before its answer"
	}
	return "the recording ends before its answer"
}

// Unanswered counts the recorded calls that got no answer, and of them
// the ones their client cancelled.
func (b *Book) Unanswered() (all, cancelled int) {
	for _, ex := range b.all {
		if ex.NoAnswer() {
			all++
			if ex.Cancelled {
				cancelled++
			}
		}
	}
	return all, cancelled
}

// Injected is how often a fault fired.
type Injected struct {
	Spec  string `json:"spec"`
	Fired int    `json:"fired"`
}

// Report says what has been served so far.
func (s *Server) Report() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Report{Sources: s.book.Sources, Exchanges: len(s.book.all), Unused: []Unused{}, Unanswered: []Unused{}, Misses: append([]*Miss{}, s.misses...)}
	// The recorded handshakes are the face every handshake is answered
	// from: used once a client shook hands, either way.
	shook := false
	for i, ex := range s.book.all {
		shook = shook || len(s.handshakes) > 0 || (handshake(ex.Method) && s.served[i] > 0)
	}
	for i, ex := range s.book.all {
		r.Served += s.served[i]
		u := Unused{Source: ex.Source, Method: ex.Method, Name: ex.Name}
		switch {
		case s.served[i] > 0, handshake(ex.Method) && shook:
			r.Used++
		case ex.NoAnswer():
			u.Why = ex.unanswered()
			r.Unanswered = append(r.Unanswered, u)
		default:
			r.Unused = append(r.Unused, u)
		}
	}
	for i, f := range s.opts.Faults {
		r.Faults = append(r.Faults, Injected{Spec: f.Spec, Fired: s.faults[i]})
	}
	return r
}

// handshake methods are answered from the recorded server's face, never
// matched: a recorded handshake is used when a client shook hands so.
func handshake(method string) bool {
	return method == "initialize" || method == "server/discover" || method == "ping" || strings.HasPrefix(method, "notifications/")
}
