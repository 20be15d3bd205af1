package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

var allCapabilities = []string{"roots", "sampling", "elicitation"}

// waitFrame waits until a frame after index from satisfies ok, and returns
// its index.
func waitFrame(t *testing.T, log *frames.Log, from int, what string, ok func(*frames.Frame) bool) int {
	t.Helper()
	wctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for i := from; ; i++ {
		for i >= log.Len() {
			if _, err := log.Wait(wctx, log.Len()); err != nil {
				t.Fatalf("waited 15 s for %s; the frames are %v", what, methods(log))
			}
		}
		if ok(log.Frame(i)) {
			return i
		}
	}
}

// TestSamplingAnsweredByTheHook: server-everything's trigger-sampling-request
// sends sampling/createMessage while its tools/call is open; the hook's
// reply is what the tool returns, and the hook is told which request it
// answers.
func TestSamplingAnsweredByTheHook(t *testing.T) {
	var from ServerRequest
	var asked string
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities,
		Sampling: func(ctx context.Context, r ServerRequest, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			from = r
			if tc, ok := req.Params.Messages[0].Content.(*mcp.TextContent); ok {
				asked = tc.Text
			}
			return &mcp.CreateMessageResult{Model: "a-human", Role: "assistant", Content: &mcp.TextContent{Text: "forty-two, said the test"}}, nil
		}})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx(t), "trigger-sampling-request", json.RawMessage(`{"prompt":"the answer?","maxTokens":5}`))
	if err != nil {
		t.Fatalf("trigger-sampling-request: %v", err)
	}
	if !strings.Contains(string(ex.Result), "forty-two, said the test") {
		t.Errorf("the tool's result does not carry the hook's reply:\n%s", ex.Result)
	}
	if !strings.Contains(asked, "the answer?") {
		t.Errorf("the hook was asked %q, want the prompt the tool was given", asked)
	}
	if from.Frame == nil || from.Frame.Method != "sampling/createMessage" || from.ID == "" || from.Frame.Seq <= ex.Request.Seq || from.Frame.Seq >= ex.Response.Seq {
		t.Errorf("the hook was told it answers %+v; want the sampling/createMessage frame between the call's request #%d and response #%d", from, ex.Request.Seq, ex.Response.Seq)
	}
	// The nested exchange is in order: call, server request, its answer, result.
	var order []string
	for i := int(ex.Request.Seq - 1); i < int(ex.Response.Seq); i++ {
		// Notifications (server-everything logs when it likes) are not part of it.
		if f := s.Log.Frame(i); f.Kind.IsMessage() && f.Kind != frames.KindNotification && f.Method != "" {
			order = append(order, f.Dir.Arrow()+f.Method+":"+string(f.Kind))
		}
	}
	want := "→tools/call:request ←sampling/createMessage:request →sampling/createMessage:result ←tools/call:result"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("the nested exchange is %s\nwant %s", got, want)
	}
}

func TestSamplingWithoutAHookIsTheCannedReply(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx(t), "trigger-sampling-request", json.RawMessage(`{"prompt":"x"}`))
	if err != nil || !strings.Contains(string(ex.Result), CannedSampling) {
		t.Errorf("without a hook the tool returned %s, %v; want the canned reply %q", ex.Result, err, CannedSampling)
	}
}

func TestSamplingRejectedIsAJSONRPCError(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities,
		Sampling: func(context.Context, ServerRequest, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, RejectSampling()
		}})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	_, _ = s.CallTool(ctx(t), "trigger-sampling-request", json.RawMessage(`{"prompt":"x"}`))
	for _, f := range s.Log.Frames() {
		if f.Dir == frames.ClientToServer && f.Method == "sampling/createMessage" {
			if f.Kind != frames.KindError || f.Code != -1 {
				t.Errorf("the rejection went out as %s code %d (%s); want a JSON-RPC error with code -1", f.Kind, f.Code, f.Raw)
			}
			return
		}
	}
	t.Errorf("no answer to sampling/createMessage was sent; frames %v", methods(s.Log))
}

func TestElicitationAcceptedByTheHook(t *testing.T) {
	var fields int
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities,
		Elicit: func(ctx context.Context, r ServerRequest, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			b, _ := json.Marshal(req.Params.RequestedSchema)
			var sch struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			json.Unmarshal(b, &sch)
			fields = len(sch.Properties)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7}}, nil
		}})
	if _, _, err := s.ListTools(ctx(t)); err != nil {
		t.Fatal(err)
	}
	ex, err := s.CallTool(ctx(t), "trigger-elicitation-request", json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("trigger-elicitation-request: %v", err)
	}
	for _, want := range []string{"Name: Ada Lovelace", "Agreed to terms: true", "Favorite Integer: 7"} {
		if !strings.Contains(string(ex.Result), want) {
			t.Errorf("the result lacks %q:\n%s", want, ex.Result)
		}
	}
	if fields < 10 {
		t.Errorf("the hook saw %d requested fields, want server-everything's form (13)", fields)
	}
}

func TestProgressReachesTheCall(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities})
	var mu sync.Mutex
	var got []Progress
	ex, err := s.CallToolWith(ctx(t), "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":4}`),
		CallOptions{OnProgress: func(p Progress) { mu.Lock(); got = append(got, p); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ex.Request.Raw), `"progressToken":"jig-progress-`) {
		t.Errorf("the request carries no progress token: %s", ex.Request.Raw)
	}
	frames := 0
	for i := int(ex.Request.Seq); i < int(ex.Response.Seq); i++ {
		if s.Log.Frame(i).Method == "notifications/progress" {
			frames++
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if frames != 4 || len(got) != 4 || got[3].Progress != 4 || got[3].Total != 4 {
		t.Errorf("%d progress frames, %d delivered (%v); want 4 and 4, the last 4/4", frames, len(got), got)
	}
}

// TestCancelMidCall cancels trigger-long-running-operation after its first
// progress: jig sends notifications/cancelled naming the request, no
// response comes, and progress for the token keeps arriving (PEERS #4).
func TestCancelMidCall(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio"), Capabilities: allCapabilities})
	cctx, cancel := context.WithCancelCause(ctx(t))
	var once sync.Once
	ex, err := s.CallToolWith(cctx, "trigger-long-running-operation", json.RawMessage(`{"duration":2,"steps":4}`),
		CallOptions{OnProgress: func(Progress) { once.Do(func() { cancel(ErrCancelled) }) }})
	var ce *CancelledError
	if !errors.As(err, &ce) {
		t.Fatalf("the cancelled call returned %v, want a *CancelledError", err)
	}
	if ex == nil || ex.Request == nil || ex.Response != nil {
		t.Fatalf("the cancelled call's exchange is %+v; want its request and no response", ex)
	}
	req := int(ex.Request.Seq - 1)
	at := waitFrame(t, s.Log, req, "notifications/cancelled", func(f *frames.Frame) bool {
		return f.Dir == frames.ClientToServer && f.Method == "notifications/cancelled"
	})
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	json.Unmarshal(s.Log.Frame(at).Raw, &n)
	if string(n.Params.RequestID) != ex.Request.ID {
		t.Errorf("notifications/cancelled names request %s, want the call's id %s", n.Params.RequestID, ex.Request.ID)
	}
	waitFrame(t, s.Log, at+1, "progress after the cancellation", func(f *frames.Frame) bool {
		return f.Method == "notifications/progress"
	})
	if s.Log.Partner(req) >= 0 {
		t.Errorf("the cancelled call got a response: %s", s.Log.Frame(s.Log.Partner(req)).Raw)
	}
}

func TestSetLogLevel(t *testing.T) {
	s := open(t, Options{Target: nodeTarget(t, "stdio")})
	if err := s.SetLogLevel(ctx(t), "debug"); err != nil {
		t.Fatalf("logging/setLevel debug on server-everything: %v", err)
	}
	if err := s.SetLogLevel(ctx(t), "loud"); err == nil {
		t.Errorf("an unknown level was accepted")
	}
	demo := open(t, Options{Target: Target{Transport: TransportDemo}})
	if err := demo.SetLogLevel(ctx(t), "debug"); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("in the stateless era SetLogLevel = %v, want it to say logging/setLevel is not available", err)
	}
}

// Two sampling requests in flight at once: each hook is told its own
// request's frame, found by what the request says, whichever hook runs
// first. (The SDK gives a hook no id; "the oldest unclaimed one" handed the
// second request's hook the first request's frame and id.)
func TestServerRequestFindsItsOwnFrame(t *testing.T) {
	s := &Session{Log: frames.NewLog(nil)}
	req := func(id int, text string) {
		s.Log.Append(frames.Frame{Dir: frames.ServerToClient, Raw: []byte(fmt.Sprintf(
			`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":%q}}],"maxTokens":5}}`, id, text))})
	}
	req(1, "first")
	req(2, "second")
	req(3, "third")
	params := func(text string) *mcp.CreateMessageParams {
		return &mcp.CreateMessageParams{MaxTokens: 5, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
	}
	for _, c := range []struct{ text, id string }{
		{"second", "2"},
		{"first", "1"},
		{"said differently", "3"}, // nothing decodes equal: the oldest unclaimed
	} {
		got := s.serverRequest("sampling/createMessage", params(c.text))
		if got.ID != c.id || got.Frame == nil {
			t.Errorf("the hook for %q was told it answers id %s (frame %v), want id %s", c.text, got.ID, got.Frame != nil, c.id)
		}
	}
	if got := s.serverRequest("sampling/createMessage", params("first")); got.Frame != nil {
		t.Errorf("a fourth hook got frame #%d, but every request was claimed", got.Frame.Seq)
	}
}
