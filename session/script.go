package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// A Script answers the server's requests for input without a human:
// elicitation/create and sampling/createMessage in the legacy era, and the
// same requests embedded in a 2026-07-28 input_required result (the SDK
// hands those to the same handlers, and retries the call with requestState
// echoed and a new id). Answers are matched to a request by a field of the
// request ("when") or, failing that, taken in order, so a recorded flow
// replays the same answers to the same questions.
type Script struct {
	// Source says where the script came from, for messages: "--elicit decline".
	Source string `json:"-"`
	// Mode is "accept-defaults", "decline" or "cancel" for elicitations
	// answered the same way every time; "" when Answers are given.
	Mode    string   `json:"mode,omitempty"`
	Answers []Answer `json:"answers,omitempty"`

	mu   sync.Mutex
	used []bool
	// failed are the requests the script could not answer: jig answered
	// the server with its own error instead (see Failures).
	failed []string
}

// Failures are the server's requests this script could not answer, each
// saying why and what to give instead: the server got jig's own JSON-RPC
// error for them, so what it answered next is about jig, not the server.
func (s *Script) Failures() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.failed...)
}

func (s *Script) fail(err error) error {
	s.mu.Lock()
	s.failed = append(s.failed, err.Error())
	s.mu.Unlock()
	return err
}

// An Answer is one scripted answer. For an elicitation: Action ("accept",
// "decline", "cancel") and Content. For a sampling request: Text (and
// optionally Model and StopReason), or the whole Result.
type Answer struct {
	// When matches a request by its params: every key (a top-level param
	// such as "message", or "messages.0.content.text") must equal the value.
	// A string value that starts and ends with "*" matches a substring.
	When map[string]any `json:"when,omitempty"`

	Action  string         `json:"action,omitempty"`
	Content map[string]any `json:"content,omitempty"`

	Text       string          `json:"text,omitempty"`
	Model      string          `json:"model,omitempty"`
	StopReason string          `json:"stopReason,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
}

// ParseElicitScript reads --elicit: accept-defaults, decline, cancel, or
// @FILE holding a JSON array of answers (or {"answers": [...]}).
func ParseElicitScript(v string) (*Script, error) {
	switch v {
	case "accept-defaults", "decline", "cancel":
		return &Script{Source: "--elicit " + v, Mode: v}, nil
	}
	if !strings.HasPrefix(v, "@") {
		return nil, &UsageError{fmt.Errorf("--elicit %q: use accept-defaults, decline, cancel or @answers.json", v)}
	}
	s, err := readScript("--elicit", v[1:])
	if err != nil {
		return nil, err
	}
	for i, a := range s.Answers {
		switch a.Action {
		case "accept", "decline", "cancel":
		case "":
			s.Answers[i].Action = "accept"
		default:
			return nil, &UsageError{fmt.Errorf("--elicit %s: answer %d: action %q: use accept, decline or cancel", v, i, a.Action)}
		}
	}
	return s, nil
}

// ParseSampleScript reads --sample @FILE: a JSON array of replies.
func ParseSampleScript(v string) (*Script, error) {
	if !strings.HasPrefix(v, "@") {
		return nil, &UsageError{fmt.Errorf("--sample %q: give @replies.json (a JSON array of {\"text\": ...} replies)", v)}
	}
	s, err := readScript("--sample", v[1:])
	if err != nil {
		return nil, err
	}
	for i, a := range s.Answers {
		if a.Text == "" && a.Result == nil {
			return nil, &UsageError{fmt.Errorf("--sample %s: reply %d has neither \"text\" nor \"result\"", v, i)}
		}
	}
	return s, nil
}

func readScript(flag, path string) (*Script, error) {
	data, err := frames.ReadRegular(path, frames.MaxConfigFile)
	if err != nil {
		return nil, &UsageError{fmt.Errorf("%s @%s: %v", flag, path, err)}
	}
	s := &Script{Source: flag + " @" + path}
	if err := json.Unmarshal(data, &s.Answers); err != nil {
		var obj Script
		if err2 := json.Unmarshal(data, &obj); err2 != nil || obj.Answers == nil {
			return nil, &UsageError{fmt.Errorf("%s @%s: expected a JSON array of answers: %v", flag, path, err)}
		}
		s.Answers = obj.Answers
	}
	return s, nil
}

// ScriptJSON is the script as a fixture keeps it (frames/fixture Answers).
func (s *Script) ScriptJSON() json.RawMessage {
	if s == nil {
		return nil
	}
	b, _ := json.Marshal(s)
	return b
}

// ScriptFromJSON reads a script a fixture kept; source names it in messages.
func ScriptFromJSON(raw json.RawMessage, source string) (*Script, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	s := &Script{Source: source}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	switch s.Mode {
	case "", "accept-defaults", "decline", "cancel":
	default:
		return nil, fmt.Errorf("%s: mode %q: use accept-defaults, decline or cancel", source, s.Mode)
	}
	return s, nil
}

// Concat is a script that gives first's answers, then then's: a scenario's
// answers for its earlier steps followed by a new step's (jig call
// --append). Either may be nil. A script that answers every request the
// same way (a Mode) cannot be followed or preceded by other answers.
func Concat(first, then *Script) (*Script, error) {
	switch {
	case first == nil || (first.Mode == "" && len(first.Answers) == 0):
		return then, nil
	case then == nil || (then.Mode == "" && len(then.Answers) == 0):
		return first, nil
	case first.Mode != "":
		return nil, fmt.Errorf("%s answers every request the same way (%s): %s would never be used", first.Source, first.Mode, then.Source)
	case then.Mode != "":
		return nil, fmt.Errorf("%s answers every request the same way, so it cannot follow the %d answers of %s: give the new step's answers in a file (@answers.json)", then.Source, len(first.Answers), first.Source)
	}
	return &Script{Source: first.Source + ", then " + then.Source,
		Answers: append(append([]Answer(nil), first.Answers...), then.Answers...)}, nil
}

// ErrScriptExhausted is returned (and sent to the server as an error) when a
// script has no answer left for a request.
var ErrScriptExhausted = errors.New("no scripted answer left")

// next picks the answer for a request's params: the first unused answer
// whose When matches, else the first unused answer without When.
func (s *Script) next(params any) (Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used == nil {
		s.used = make([]bool, len(s.Answers))
	}
	var p map[string]any
	b, _ := json.Marshal(params)
	_ = json.Unmarshal(b, &p)
	pick := -1
	for i, a := range s.Answers {
		if !s.used[i] && len(a.When) > 0 && matches(p, a.When) {
			pick = i
			break
		}
	}
	if pick < 0 {
		for i, a := range s.Answers {
			if !s.used[i] && len(a.When) == 0 {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		if why := s.unmatched(p); why != "" {
			return Answer{}, fmt.Errorf("%s: %w for this request: %s", s.Source, ErrScriptExhausted, why)
		}
		return Answer{}, fmt.Errorf("%s: %w for this request (%d given)", s.Source, ErrScriptExhausted, len(s.Answers))
	}
	s.used[pick] = true
	return s.Answers[pick], nil
}

// unmatched says why the unused answers with a When were not picked: the
// first one's first key that does not match, with what the request has
// there. "" when every answer is used.
func (s *Script) unmatched(params map[string]any) string {
	left := 0
	first := -1
	for i := range s.Answers {
		if !s.used[i] {
			left++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return ""
	}
	when := s.Answers[first].When
	keys := make([]string, 0, len(when))
	for k := range when {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if matches(params, map[string]any{k: when[k]}) {
			continue
		}
		want, _ := json.Marshal(when[k])
		has := "nothing there"
		if got, ok := lookupPath(params, k); ok {
			b, _ := json.Marshal(got)
			has = frames.ShortenMiddle(string(b), 100)
		}
		return fmt.Sprintf("%d unused answer%s, none matching: answer %d wants %q to be %s, the request has %s", left, frames.Plural(left), first+1, k, want, has)
	}
	return ""
}

func matches(params map[string]any, when map[string]any) bool {
	for path, want := range when {
		got, ok := lookupPath(params, path)
		if !ok {
			return false
		}
		if ws, isStr := want.(string); isStr && len(ws) >= 2 && strings.HasPrefix(ws, "*") && strings.HasSuffix(ws, "*") {
			gs, _ := got.(string)
			if !strings.Contains(gs, ws[1:len(ws)-1]) {
				return false
			}
			continue
		}
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if string(wb) != string(gb) {
			return false
		}
	}
	return true
}

// lookupPath follows a dotted path ("messages.0.content.text") into v.
func lookupPath(v any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(key, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// Elicit is the script as an ElicitFunc.
func (s *Script) Elicit(ctx context.Context, from ServerRequest, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	switch s.Mode {
	case "decline", "cancel":
		return &mcp.ElicitResult{Action: s.Mode}, nil
	case "accept-defaults":
		content := schemaDefaults(req.Params.RequestedSchema)
		if missing := missingRequired(req.Params.RequestedSchema, content); len(missing) > 0 {
			return nil, s.fail(fmt.Errorf("%s: the requested schema's required %s %s %s no default, so jig cannot accept with defaults (%s); give the %s with --elicit @answers.json ({\"answers\":[{\"action\":\"accept\",\"content\":{%s}}]}), or --elicit decline",
				s.Source, fieldWord(len(missing)), quoteList(missing), hasHave(len(missing)), failedAnswer(from, "elicitation/create"), fieldWord(len(missing)), contentExample(missing)))
		}
		return accepted(req.Params, content), nil
	}
	a, err := s.next(req.Params)
	if err != nil {
		return nil, s.fail(fmt.Errorf("%w: %s; add an answer to the script", err, failedAnswer(from, "elicitation/create")))
	}
	res := &mcp.ElicitResult{Action: a.Action}
	if a.Action == "accept" {
		res = accepted(req.Params, a.Content)
		if missing := missingRequired(req.Params.RequestedSchema, res.Content); len(missing) > 0 {
			return nil, s.fail(fmt.Errorf("%s: the accepted content lacks the requested schema's required %s %s (%s); add %s to the answer's \"content\"",
				s.Source, fieldWord(len(missing)), quoteList(missing), failedAnswer(from, "elicitation/create"), contentExample(missing)))
		}
	}
	return res, nil
}

// acceptContent is the content of an accept: the submitted form data, {}
// when nothing was filled in (a form whose fields have no default), and none
// for a URL-mode elicitation, whose data goes to the URL, not the client
// (the spec: content is "only present when action is accept and mode was
// form"). An accept without content crashed go-sdk's everything server.
func acceptContent(p *mcp.ElicitParams, content map[string]any) map[string]any {
	if p != nil && (p.Mode == "url" || (p.Mode == "" && p.URL != "")) {
		return nil
	}
	if content == nil {
		return map[string]any{}
	}
	return content
}

// emptyContentKey marks, in an ElicitResult's _meta, an accept whose content
// is {}: the SDK's omitempty drops an empty content, so the message is
// rewritten as it is written (withEmptyContent), the mark taken out.
const emptyContentKey = "jig/empty-content"

// accepted is the result of an accept with content, marked when content is
// an empty form.
func accepted(p *mcp.ElicitParams, content map[string]any) *mcp.ElicitResult {
	res := &mcp.ElicitResult{Action: "accept", Content: acceptContent(p, content)}
	if res.Content != nil && len(res.Content) == 0 {
		res.Meta = mcp.Meta{emptyContentKey: true}
	}
	return res
}

// withEmptyContent rewrites a response marked by accepted: the mark out,
// "content":{} in. Other messages are returned as they are.
func withEmptyContent(body []byte) []byte {
	if !bytes.Contains(body, []byte(emptyContentKey)) {
		return body
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil || msg["result"] == nil {
		return body
	}
	var res map[string]json.RawMessage
	var meta map[string]json.RawMessage
	if json.Unmarshal(msg["result"], &res) != nil || json.Unmarshal(res["_meta"], &meta) != nil || meta[emptyContentKey] == nil {
		return body
	}
	delete(meta, emptyContentKey)
	if len(meta) == 0 {
		delete(res, "_meta")
	} else {
		res["_meta"], _ = json.Marshal(meta)
	}
	if res["content"] == nil {
		res["content"] = json.RawMessage("{}")
	}
	msg["result"], _ = json.Marshal(res)
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return out
}

// failedAnswer says what the server got when the script could not answer:
// a request it sent got jig's JSON-RPC error; a request embedded in an
// input_required result (2026-07-28, no frame of its own) got nothing,
// since jig does not call again without the answers.
func failedAnswer(from ServerRequest, method string) string {
	if from.Frame == nil && from.ID == "" {
		return "jig could not answer the server's input request (" + method + "), so it did not send the call again"
	}
	return "jig answered the server's " + method + " with an error"
}

// Sample is the script as a SamplingFunc.
func (s *Script) Sample(ctx context.Context, from ServerRequest, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a, err := s.next(req.Params)
	if err != nil {
		return nil, s.fail(fmt.Errorf("%w: %s; add a reply to the script", err, failedAnswer(from, "sampling/createMessage")))
	}
	if a.Result != nil {
		var res mcp.CreateMessageResult
		if err := json.Unmarshal(a.Result, &res); err != nil {
			return nil, fmt.Errorf("%s: reply's result is not a CreateMessageResult: %v", s.Source, err)
		}
		return &res, nil
	}
	model := a.Model
	if model == "" {
		model = "jig-scripted"
	}
	return &mcp.CreateMessageResult{Model: model, Role: "assistant", StopReason: a.StopReason, Content: &mcp.TextContent{Text: a.Text}}, nil
}

// schemaDefaults is the content accept-defaults answers with: each property
// of the requested schema that declares a default, at that default.
// missingRequired are the schema's required properties content lacks,
// sorted.
func missingRequired(schema any, content map[string]any) []string {
	var sc struct {
		Required []string `json:"required"`
	}
	b, _ := json.Marshal(schema)
	_ = json.Unmarshal(b, &sc)
	var out []string
	for _, name := range sc.Required {
		if _, ok := content[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func fieldWord(n int) string {
	if n == 1 {
		return "field"
	}
	return "fields"
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func contentExample(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n) + ":…"
	}
	return strings.Join(q, ",")
}

func schemaDefaults(schema any) map[string]any {
	var s struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(schema)
	_ = json.Unmarshal(b, &s)
	out := map[string]any{}
	for name, p := range s.Properties {
		if p.Default != nil {
			out[name] = p.Default
		}
	}
	return out
}
