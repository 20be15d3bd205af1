package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
	"github.com/mcpjig/jig/session/peers"
)

func scriptFile(t *testing.T, body string) string {
	path := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return "@" + path
}

// Answers are matched by a field of the request first, then taken in order.
func TestScriptMatchesByFieldThenOrder(t *testing.T) {
	s, err := ParseElicitScript(scriptFile(t, `[
		{"content": {"n": 1}},
		{"when": {"message": "*colour*"}, "content": {"c": "red"}},
		{"action": "decline"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(msg string) *mcp.ElicitResult {
		res, err := s.Elicit(context.Background(), ServerRequest{}, &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: msg}})
		if err != nil {
			t.Fatalf("%q: %v", msg, err)
		}
		return res
	}
	if r := ask("your favourite colour?"); r.Action != "accept" || r.Content["c"] != "red" {
		t.Errorf("by field: %+v, want the colour answer", r)
	}
	if r := ask("a number?"); r.Action != "accept" || r.Content["n"] != float64(1) {
		t.Errorf("in order: %+v, want the first answer", r)
	}
	if r := ask("anything"); r.Action != "decline" {
		t.Errorf("in order: %+v, want decline", r)
	}
	_, err = s.Elicit(context.Background(), ServerRequest{}, &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: "more"}})
	if !errors.Is(err, ErrScriptExhausted) {
		t.Errorf("a fourth request: %v, want ErrScriptExhausted", err)
	}
}

func TestParseScripts(t *testing.T) {
	for _, bad := range []string{"accept", "yes", scriptFile(t, `{"x":1}`), scriptFile(t, `[{"action":"maybe"}]`)} {
		if _, err := ParseElicitScript(bad); err == nil {
			t.Errorf("--elicit %s accepted", bad)
		}
	}
	if _, err := ParseSampleScript(scriptFile(t, `[{"model":"m"}]`)); err == nil || !strings.Contains(err.Error(), `neither "text" nor "result"`) {
		t.Errorf("a reply without text: %v", err)
	}
	s, err := ParseSampleScript(scriptFile(t, `{"answers": [{"when": {"messages.0.content.text": "*capital*"}, "text": "Paris", "model": "m1"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Sample(context.Background(), ServerRequest{}, &mcp.CreateMessageRequest{Params: &mcp.CreateMessageParams{
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "the capital of France?"}}}}})
	if err != nil || res.Model != "m1" || res.Content.(*mcp.TextContent).Text != "Paris" {
		t.Errorf("Sample = %+v, %v", res, err)
	}
	// A fixture keeps the script; read back, it answers the same.
	again, err := ScriptFromJSON(s.ScriptJSON(), "fixture")
	if err != nil || len(again.Answers) != 1 || again.Answers[0].Text != "Paris" {
		t.Errorf("ScriptFromJSON(%s) = %+v, %v", s.ScriptJSON(), again, err)
	}
}

func conformanceServer(t *testing.T) Target {
	return Target{Transport: TransportStdio, Command: []string{peers.Path(t, peers.GoSDKConformance)}}
}

// Legacy era: elicitation/create is answered with the requested schema's
// defaults (SEP-1034), as the conformance scenario expects.
func TestElicitAcceptDefaultsLegacy(t *testing.T) {
	script, _ := ParseElicitScript("accept-defaults")
	s := open(t, Options{Target: conformanceServer(t), ProtocolVersion: "2025-11-25", Capabilities: []string{"elicitation"}, Elicit: script.Elicit})
	ex, err := s.CallTool(ctx(t), "test_elicitation_sep1034_defaults", json.RawMessage(`{}`))
	if err != nil || isErrorResult(ex.Result) {
		t.Fatalf("call: %s, %v\n%s", ex.Result, err, frameText(s.Log))
	}
	var answered bool
	for _, f := range s.Log.Frames() {
		if f.Dir == frames.ClientToServer && f.Kind == frames.KindResult && strings.Contains(string(f.Raw), `"action":"accept"`) {
			answered = true
			for _, want := range []string{`"name":"John Doe"`, `"age":30`} {
				if !strings.Contains(string(f.Raw), want) {
					t.Errorf("the answer %s lacks the default %s", f.Raw, want)
				}
			}
		}
	}
	if !answered {
		t.Errorf("no accepted elicitation answer crossed:\n%s", frameText(s.Log))
	}
}

func isErrorResult(r json.RawMessage) bool {
	var v struct{ IsError bool }
	return json.Unmarshal(r, &v) == nil && v.IsError
}

// 2026-07-28 era: the same scripts answer an input_required result; the
// retry is a new request (a new id) echoing requestState exactly.
func TestScriptsAnswerInputRequired(t *testing.T) {
	elicit, err := ParseElicitScript(scriptFile(t, `[{"when": {"message": "Please confirm"}, "content": {"ok": true}}, {"when": {"message": "*name*"}, "content": {"name": "Ada"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	sample, err := ParseSampleScript(scriptFile(t, `[{"text": "Paris"}]`))
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Options{Target: conformanceServer(t), Capabilities: []string{"elicitation", "sampling"}, Elicit: elicit.Elicit, Sampling: sample.Sample})
	if s.Info().Era != "stateless" {
		t.Fatalf("era %s, want stateless", s.Info().Era)
	}
	for tool, want := range map[string]string{
		"test_input_required_result_elicitation":   "Hello, Ada!",
		"test_input_required_result_sampling":      "Sampling response: Paris",
		"test_input_required_result_request_state": "state-ok",
	} {
		mark := s.Log.Len()
		ex, err := s.CallTool(ctx(t), tool, json.RawMessage(`{}`))
		if err != nil || !strings.Contains(string(ex.Result), want) {
			t.Errorf("%s: %s, %v; want %q", tool, ex.Result, err, want)
			continue
		}
		var ids []string
		var states []string
		for i := mark; i < s.Log.Len(); i++ {
			f := s.Log.Frame(i)
			if f.Method != "tools/call" || f.Kind != frames.KindRequest || f.Dir != frames.ClientToServer {
				continue
			}
			ids = append(ids, f.ID)
			var p struct {
				Params struct {
					RequestState *string `json:"requestState"`
				} `json:"params"`
			}
			_ = json.Unmarshal(f.Raw, &p)
			if p.Params.RequestState != nil {
				states = append(states, *p.Params.RequestState)
			}
		}
		if len(ids) != 2 || ids[0] == ids[1] {
			t.Errorf("%s: tools/call ids %v, want the first call and a retry with a new id", tool, ids)
		}
		if tool == "test_input_required_result_request_state" && (len(states) != 1 || states[0] != "request_state") {
			t.Errorf("%s: the retry's requestState %q, want the server's \"request_state\" echoed exactly", tool, states)
		}
		// The exchange is the retry that answered; the first round, with its
		// input_required result, is kept beside it.
		switch {
		case len(ex.Rounds) != 1:
			t.Errorf("%s: %d earlier rounds kept, want the first call's", tool, len(ex.Rounds))
		case ex.Rounds[0].Request.ID != ids[0] || ex.Request.ID != ids[1]:
			t.Errorf("%s: round request %s, exchange request %s; want %v in order", tool, ex.Rounds[0].Request.ID, ex.Request.ID, ids)
		case !strings.Contains(string(ex.Rounds[0].Result), `"input_required"`):
			t.Errorf("%s: the first round's result %s is not input_required", tool, ex.Rounds[0].Result)
		}
	}
}
