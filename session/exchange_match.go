package session

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// Every call finds its own frames by the JSON-RPC id the SDK wrote for it,
// never by "the newest request of this method": two calls of one tool in
// flight at once would otherwise swap frames. The SDK chooses the id inside
// Write, so jig learns it there, from the call's own context:
//
//   - stdio, the in-process demo server and any IO transport: a connection
//     decorator (idConn) reads the id of each request the SDK writes;
//   - Streamable HTTP and SSE: the RoundTripper tap (httpTap) reads it from
//     the request body it records, because the Streamable connection must
//     never be wrapped (the client type-asserts it; see ../shared/STACK.md).
//
// Both hand the id to the written collector the call put in its context.

// written collects the ids of the requests the SDK wrote for one call of
// method. There is usually one; a stateless-era call that the server answers
// with a request for input is retried under the same context with a new id,
// and the last one is the exchange that answered.
type written struct {
	method string
	call   context.Context        // the call's own context: why it ended, if it did
	gone   atomic.Pointer[string] // set when jig stopped waiting because the server went away: why
	// delivered: the server answered the HTTP request that carried one
	// of them (with any status; what follows on its stream may not come).
	delivered atomic.Bool
	// sentLost: the HTTP request that carried one of them failed after
	// it was written, before any answer.
	sentLost atomic.Bool
	mu       sync.Mutex
	ids      []string
}

type writtenKey struct{}

// expectWrite returns a context under which the ids of the method requests
// the SDK writes are collected.
func expectWrite(ctx context.Context, method string) (context.Context, *written) {
	w := &written{method: method, call: ctx}
	return context.WithValue(ctx, writtenKey{}, w), w
}

// learnWrite records that a request with method and id (its JSON text) was
// written under ctx. It is called by the capture that saw the write.
func learnWrite(ctx context.Context, method, id string) {
	w, _ := ctx.Value(writtenKey{}).(*written)
	if w == nil || method != w.method || id == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.ids); n == 0 || w.ids[n-1] != id { // a retried POST is one request
		w.ids = append(w.ids, id)
	}
}

// learnDelivered records that the HTTP request that carried the request
// (of method) of the call ctx belongs to reached the server.
func learnDelivered(ctx context.Context, method string) {
	if w, _ := ctx.Value(writtenKey{}).(*written); w != nil && w.method == method {
		w.delivered.Store(true)
	}
}

// learnSentLost records that the HTTP request that carried the call's
// request failed after it was written, before any answer.
func learnSentLost(ctx context.Context) {
	if w, _ := ctx.Value(writtenKey{}).(*written); w != nil {
		w.sentLost.Store(true)
	}
}

// all are the ids of the requests written, in order.
func (w *written) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.ids...)
}

// idConn is the connection decorator for transports that may be wrapped
// (stdio, IO, in-memory): it learns the id of each request as it is written.
type idConn struct {
	mcp.Connection
	era     *eraState    // nil: messages go as the SDK wrote them
	closing *atomic.Bool // the session's: Close was called
}

func (c idConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
		learnWrite(ctx, r.Method, idText(r.ID))
		if c.era != nil {
			c.era.observe(r.Params)
		}
	} else if ok {
		msg = humanCancelMessage(ctx, msg, c.closing.Load())
		if c.era != nil {
			msg = c.era.completeMessage(msg)
		}
	} else if _, ok := msg.(*jsonrpc.Response); ok {
		msg = rewriteMessage(msg, withEmptyContent)
	}
	return c.Connection.Write(ctx, msg)
}

// idTransport connects with an idConn around the transport's connection.
type idTransport struct {
	mcp.Transport
	era     *eraState
	closing *atomic.Bool
}

func (t idTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return idConn{c, t.era, t.closing}, nil
}

// idText is an id as the JSON text frames.Frame.ID holds ("4", "\"abc\"").
func idText(id jsonrpc.ID) string {
	if !id.IsValid() {
		return ""
	}
	b, err := json.Marshal(id.Raw())
	if err != nil {
		return ""
	}
	return string(b)
}

// exchangeOf is the exchange of the request w learned, looked for from frame
// index mark on (the request is recorded before it is written, so it is in
// the Log by the time the SDK returns), or nil when no request was written
// (a list answered from the SDK's cache). The requests written before the
// last one (a stateless-era call retried after input_required results) are
// its Rounds.
func (s *Session) exchangeOf(mark int, w *written) *Exchange {
	ids := w.all()
	if len(ids) == 0 {
		return nil
	}
	ex := s.requestExchange(mark, w.method, ids[len(ids)-1])
	if ex == nil {
		return nil
	}
	for _, id := range ids[:len(ids)-1] {
		if r := s.requestExchange(mark, w.method, id); r != nil && r.Response != nil {
			ex.Rounds = append(ex.Rounds, r)
		}
	}
	return ex
}

// requestExchange is the exchange of the request of method with id, the
// newest from frame index mark on, with its response when it has one.
func (s *Session) requestExchange(mark int, method, id string) *Exchange {
	for i := s.Log.Len() - 1; i >= mark; i-- {
		f := s.Log.Frame(i)
		if f.Dir != frames.ClientToServer || f.Kind != frames.KindRequest || f.ID != id || f.Method != method {
			continue
		}
		ex := &Exchange{Request: f}
		if j := s.Log.Partner(i); j >= 0 {
			r := s.Log.Frame(j)
			ex.Response, ex.Latency = r, r.Time.Sub(f.Time)
			ex.Result, ex.Error = responseMembers(r.Raw)
		}
		return ex
	}
	return nil
}

// roundTrip runs one request of method (fn makes the SDK call) with the
// session's failure handling, and returns the exchange the SDK's own id
// names. A JSON-RPC error carries the error object as received.
func (s *Session) roundTrip(ctx context.Context, what, method string, fn func(ctx context.Context) error) (*Exchange, error) {
	mark := s.Log.Len()
	ctx, w := expectWrite(ctx, method)
	err := s.call(ctx, what, fn)
	ex := s.exchangeOf(mark, w)
	var gone *ServerGoneError
	if err != nil && (ctx.Err() != nil || errors.As(err, &gone)) && ex != nil && ex.Request != nil {
		// The call's context ended (the user cancelled it, its timeout ran
		// out, jig stopped waiting for a server that went away): the SDK
		// sends notifications/cancelled in the background.
		// Wait for it to cross, so a session closed right after still has
		// it, and before what Close cancels (subscriptions/listen).
		s.awaitCancelled(ex.Request, time.Second)
	}
	if re, ok := err.(*RPCError); ok {
		if ex != nil {
			re.Raw = ex.Error
		}
		re.Hint = s.undeclared(method, re)
	}
	return ex, err
}
