package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// A ServerRequest names a request the server sent jig while the session was
// open (sampling/createMessage, elicitation/create): its method, its id as
// sent, and the frame that carried it, so an answer given later by a human
// can say which request it answers.
type ServerRequest struct {
	Method string
	ID     string        // the JSON text of the id, e.g. "1" or "\"abc\""
	Frame  *frames.Frame // nil when the frame was not found in the Log
}

// SamplingFunc answers sampling/createMessage. It runs on the SDK's goroutine
// and may block until a human answers or ctx ends; an error is sent to the
// server as a JSON-RPC error.
type SamplingFunc func(ctx context.Context, from ServerRequest, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)

// ElicitFunc answers elicitation/create, like SamplingFunc.
type ElicitFunc func(ctx context.Context, from ServerRequest, req *mcp.ElicitRequest) (*mcp.ElicitResult, error)

// CannedSampling is what jig answers sampling/createMessage with when no
// Sampling hook is set (the CLI): jig has no model, so the reply is fixed and
// labelled, and the server's flow can still be observed end to end.
const CannedSampling = "jig: canned sampling reply (no model is attached)"

// RejectSampling is the error a Sampling hook returns when the user rejects
// the request: the server receives JSON-RPC error -1, the code the MCP
// specification suggests for "user rejected sampling request".
func RejectSampling() error {
	return &jsonrpc.Error{Code: -1, Message: "jig: the user rejected the sampling request"}
}

// ErrCancelled is the cause to cancel a call's context with when the user
// cancels it (context.WithCancelCause): the SDK sends notifications/cancelled
// for the request and the call returns a *CancelledError, which is neither a
// timeout nor a broken connection.
var ErrCancelled = errors.New("cancelled by the user")

// The SDK writes notifications/cancelled by itself, with its context's
// error as the reason: Go's "context canceled" or "context deadline
// exceeded" went on the wire to the server's logs. jig says why in words
// when the call's context tells (the user cancelled it, jig's timeout ran
// out) and sends no reason when it does not (the optional field is left
// out), rather than Go's text. A cancellation sent while the session
// closes for a request that is no call of jig's (the 2026-07-28 era's
// subscriptions/listen stream, which the SDK cancels at Close) says the
// client closed the session.

// cancelReasons are the SDK's reasons (its context's errors) jig replaces.
var cancelReasons = map[string]bool{context.Canceled.Error(): true, context.DeadlineExceeded.Error(): true}

// closedReason is the reason of a cancellation the SDK sends at Close.
const closedReason = "the client closed the session"

// cancelReason is the reason to send for the call ctx belongs to, or "".
// closing: the session is closing.
func cancelReason(ctx context.Context, closing bool) string {
	w, _ := ctx.Value(writtenKey{}).(*written)
	if w == nil || w.call == nil {
		if closing {
			return closedReason
		}
		return ""
	}
	switch {
	case w.gone.Load() != nil:
		return "the client stopped waiting: the server is not answering (" + *w.gone.Load() + ")"
	case errors.Is(context.Cause(w.call), ErrCancelled):
		return ErrCancelled.Error()
	case errors.Is(w.call.Err(), context.DeadlineExceeded):
		return "timed out: the client stopped waiting"
	}
	return ""
}

// humanCancel rewrites a notifications/cancelled body whose reason is one
// of the SDK's Go errors; any other body is returned as it is.
func humanCancel(ctx context.Context, body []byte, closing bool) []byte {
	if !bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
		return body
	}
	var msg map[string]json.RawMessage
	var params map[string]json.RawMessage
	var method, reason string
	if json.Unmarshal(body, &msg) != nil || json.Unmarshal(msg["method"], &method) != nil || method != "notifications/cancelled" ||
		json.Unmarshal(msg["params"], &params) != nil || json.Unmarshal(params["reason"], &reason) != nil || !cancelReasons[reason] {
		return body
	}
	if why := cancelReason(ctx, closing); why != "" {
		params["reason"], _ = json.Marshal(why)
	} else {
		delete(params, "reason")
	}
	msg["params"], _ = json.Marshal(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return out
}

// humanCancelMessage is humanCancel for a message about to be written.
func humanCancelMessage(ctx context.Context, msg jsonrpc.Message, closing bool) jsonrpc.Message {
	r, ok := msg.(*jsonrpc.Request)
	if !ok || r.Method != "notifications/cancelled" {
		return msg
	}
	return rewriteMessage(msg, func(body []byte) []byte { return humanCancel(ctx, body, closing) })
}

// rewriteMessage is msg with its encoding passed through f: msg itself
// when f changes nothing or what it makes does not decode.
func rewriteMessage(msg jsonrpc.Message, f func([]byte) []byte) jsonrpc.Message {
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return msg
	}
	out := f(body)
	if bytes.Equal(out, body) {
		return msg
	}
	m, err := jsonrpc.DecodeMessage(out)
	if err != nil {
		return msg
	}
	return m
}

// CancelledError says a call was cancelled, after how long, and why: Cause
// is the cause its context was cancelled with, ErrCancelled when the user
// cancelled it, or whatever cancelled the caller (an interrupt). The SDK
// sent notifications/cancelled for its request either way.
type CancelledError struct {
	Method string
	After  time.Duration
	Cause  error
}

func (e *CancelledError) Error() string {
	if e.Cause == nil || errors.Is(e.Cause, ErrCancelled) {
		return fmt.Sprintf("%s cancelled by you after %s (jig sent notifications/cancelled; the server may still send progress)", e.Method, e.After.Round(time.Millisecond))
	}
	return fmt.Sprintf("%s cancelled after %s: %v", e.Method, e.After.Round(time.Millisecond), e.Cause)
}

func (e *CancelledError) Unwrap() error { return e.Cause }

// Progress is one notifications/progress for a call's progress token.
type Progress struct {
	Token    string
	Progress float64
	Total    float64 // 0 when the server does not know
	Message  string
	// AfterCancel: the server sent it after jig cancelled the call (it
	// kept working on a request it was told to abandon).
	AfterCancel bool
}

// String renders the progress as "3/4 message" (or "3 message" without a total).
func (p Progress) String() string {
	s := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		s += fmt.Sprintf("/%g", p.Total)
	}
	if p.Message != "" {
		s += " " + p.Message
	}
	return s
}

// CallOptions shape one tools/call beyond its tool and arguments.
type CallOptions struct {
	// OnProgress, when set, sends the call with _meta.progressToken (a
	// different request on the wire than one without) and receives each
	// notifications/progress for that token while the call is open. It runs
	// on the SDK's goroutine and must not block.
	OnProgress func(Progress)
}

// progressRoutes sends notifications/progress to the call that owns the token.
// The SDK hands notifications to their handler on its own goroutine, so the
// last progress of a call can reach the handler after the call has returned;
// finish delivers from the Log whatever the handler had not seen by then.
type progressRoutes struct {
	mu     sync.Mutex
	next   int
	routes map[string]*progressRoute
	// lateOrder is the tokens of cancelled calls still routed, oldest first.
	lateOrder []string
}

type progressRoute struct {
	f         func(Progress)
	delivered int  // notifications handed to f so far
	seen      int  // notifications the SDK handed to deliver
	closed    bool // finish has taken over
	late      bool // the call was cancelled: what comes now comes after it
}

// maxLateRoutes bounds the cancelled calls whose late progress is still
// routed: the oldest stops being followed.
const maxLateRoutes = 64

func (r *progressRoutes) add(f func(Progress)) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	token := fmt.Sprintf("jig-progress-%d", r.next)
	if r.routes == nil {
		r.routes = map[string]*progressRoute{}
	}
	r.routes[token] = &progressRoute{f: f}
	return token
}

// finish ends a call's route: of the progress the wire carried before the
// response (in order), it delivers those the handler has not seen yet.
func (r *progressRoutes) finish(token string, onWire []Progress) {
	r.mu.Lock()
	rt := r.routes[token]
	delete(r.routes, token)
	if rt == nil {
		r.mu.Unlock()
		return
	}
	rt.closed = true
	start := rt.delivered
	r.mu.Unlock()
	for i := start; i < len(onWire); i++ {
		rt.f(onWire[i])
	}
}

// finishCancelled is finish for a cancelled call: it delivers what the
// wire carried that the handler has not seen, and keeps the route, so the
// progress a server sends after the cancel (it kept working) still reaches
// the call, marked AfterCancel.
func (r *progressRoutes) finishCancelled(token string, onWire []Progress) {
	r.mu.Lock()
	rt := r.routes[token]
	if rt == nil {
		r.mu.Unlock()
		return
	}
	rt.late = true
	r.lateOrder = append(r.lateOrder, token)
	if len(r.lateOrder) > maxLateRoutes {
		delete(r.routes, r.lateOrder[0])
		r.lateOrder = r.lateOrder[1:]
	}
	start := rt.delivered
	rt.delivered = max(rt.delivered, len(onWire))
	r.mu.Unlock()
	for i := start; i < len(onWire); i++ {
		rt.f(onWire[i])
	}
}

func (r *progressRoutes) deliver(p *mcp.ProgressNotificationParams) {
	token := fmt.Sprint(p.ProgressToken)
	r.mu.Lock()
	rt := r.routes[token]
	if rt == nil || rt.closed {
		r.mu.Unlock()
		return
	}
	rt.seen++
	if rt.seen <= rt.delivered {
		r.mu.Unlock() // finishCancelled handed this one over from the Log
		return
	}
	rt.delivered++
	late := rt.late
	r.mu.Unlock()
	rt.f(Progress{Token: token, Progress: p.Progress, Total: p.Total, Message: p.Message, AfterCancel: late})
}

// progressOnWire reads the notifications/progress for token that crossed
// between frame indexes from and to (exclusive).
func (s *Session) progressOnWire(token string, from, to int) []Progress {
	var out []Progress
	for i := from; i < to && i < s.Log.Len(); i++ {
		f := s.Log.Frame(i)
		if f.Dir != frames.ServerToClient || f.Kind != frames.KindNotification || f.Method != "notifications/progress" {
			continue
		}
		var n struct {
			Params struct {
				ProgressToken any     `json:"progressToken"`
				Progress      float64 `json:"progress"`
				Total         float64 `json:"total"`
				Message       string  `json:"message"`
			} `json:"params"`
		}
		if json.Unmarshal(f.Raw, &n) != nil || fmt.Sprint(n.Params.ProgressToken) != token {
			continue
		}
		out = append(out, Progress{Token: token, Progress: n.Params.Progress, Total: n.Params.Total, Message: n.Params.Message})
	}
	return out
}

// serverRequest finds the frame of the request the SDK is handing to a hook.
// The SDK does not tell the hook the request's id, so the frame is found by
// what it says: the oldest unanswered server→client request with method,
// not yet claimed by a hook, whose params decode to the params the SDK
// decoded (two requests in flight at once each get their own frame); when
// none decodes equal (a server writing what the SDK reads differently), the
// oldest unclaimed one. The tap records a line before the SDK reads it, so
// the frame is in the Log by the time the hook runs.
func (s *Session) serverRequest(method string, params any) ServerRequest {
	want, _ := json.Marshal(params)
	s.hookMu.Lock()
	defer s.hookMu.Unlock()
	if s.hookClaimed == nil {
		s.hookClaimed = map[int]bool{}
	}
	first := -1
	for i := 0; i < s.Log.Len(); i++ {
		f := s.Log.Frame(i)
		if f.Dir != frames.ServerToClient || f.Kind != frames.KindRequest || f.Method != method || s.hookClaimed[i] || s.Log.Partner(i) >= 0 {
			continue
		}
		if first < 0 {
			first = i
		}
		if want != nil && sameParams(f.Raw, params, want) {
			first = i
			break
		}
	}
	if first < 0 {
		return ServerRequest{Method: method}
	}
	s.hookClaimed[first] = true
	f := s.Log.Frame(first)
	return ServerRequest{Method: method, ID: f.ID, Frame: f}
}

// sameParams reports whether the params of the request in raw, decoded into
// a value of params' type and encoded again, are want (params encoded).
func sameParams(raw []byte, params any, want []byte) bool {
	var env struct {
		Params json.RawMessage `json:"params"`
	}
	t := reflect.TypeOf(params)
	if json.Unmarshal(raw, &env) != nil || t == nil || t.Kind() != reflect.Pointer {
		return false
	}
	v := reflect.New(t.Elem())
	if json.Unmarshal(env.Params, v.Interface()) != nil {
		return false
	}
	got, err := json.Marshal(v.Interface())
	return err == nil && bytes.Equal(got, want)
}

func (s *Session) samplingHandler() func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	hook := s.opts.Sampling
	return func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		if hook == nil {
			return &mcp.CreateMessageResult{Model: "jig-no-model", Role: "assistant",
				Content: &mcp.TextContent{Text: CannedSampling}}, nil
		}
		return hook(ctx, s.serverRequest("sampling/createMessage", req.Params), req)
	}
}

func (s *Session) elicitHandler() func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	hook := s.opts.Elicit
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if hook == nil {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		return hook(ctx, s.serverRequest("elicitation/create", req.Params), req)
	}
}

// LogLevels are the levels logging/setLevel accepts, most verbose first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// SetLogLevel sends logging/setLevel. It exists only in the legacy era: the
// 2026-07-28 protocol removed it (the level travels in each request's _meta),
// so in that era it sends nothing and says so.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	ok := false
	for _, l := range LogLevels {
		ok = ok || l == level
	}
	if !ok {
		return &UsageError{fmt.Errorf("log level %q: use one of %s", level, strings.Join(LogLevels, ", "))}
	}
	if s.info.Era == "stateless" {
		return &UsageError{fmt.Errorf("logging/setLevel is not available in protocol %s (the 2026-07-28 era removed it; connect with --protocol-version 2025-11-25 to use it)", s.info.ProtocolVersion)}
	}
	return s.call(ctx, "logging/setLevel", func(ctx context.Context) error {
		return rpcError(s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}))
	})
}

// ServerDeclares reports whether the server's capabilities include name
// (e.g. "logging").
func (s *Session) ServerDeclares(name string) bool {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(s.info.ServerCapabilities, &caps)
	v, ok := caps[name]
	return ok && string(v) != "null"
}
