package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpjig/jig/frames"
)

// RPCError is a JSON-RPC error the server answered with: the server was
// reached and said no. The CLI maps it to exit code 1.
type RPCError struct {
	Code    int64
	Message string
	Raw     json.RawMessage // the error object as received
	// Hint says what the error most likely means, when jig knows more than
	// the code does: a method of a capability the server never declared.
	Hint string
}

func (e *RPCError) Error() string {
	s := fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Exchange is one request and its response as they crossed the wire.
type Exchange struct {
	Request  *frames.Frame
	Response *frames.Frame
	// Result or Error is the response's member, exactly as received.
	Result  json.RawMessage
	Error   json.RawMessage
	Latency time.Duration
	// Rounds are the earlier round trips of a 2026-07-28 call the server
	// answered with input_required results, in order: each request (the
	// first as asked, each retry with its inputResponses and requestState)
	// and the input_required result it got. The exchange itself is the
	// last round, the one that answered.
	Rounds []*Exchange
}

// ListTools lists every tool across all pages. It returns the raw tool
// objects as the server sent them (the SDK drops tools it considers invalid;
// jig keeps them) and the SDK's typed view.
//
// A server may change its tools while they are being listed (server-everything
// adds tools for the capabilities jig declared right after the handshake); if
// notifications/tools/list_changed arrives during the listing, jig lists again
// (at most three times) so the answer is the current set.
func (s *Session) ListTools(ctx context.Context) ([]json.RawMessage, []*mcp.Tool, error) {
	for attempt := 0; ; attempt++ {
		mark := s.Log.Len()
		raw, typed, err := s.listToolsOnce(ctx)
		if err != nil || attempt == 2 || !s.changedSince(mark, "notifications/tools/list_changed") {
			return raw, typed, err
		}
	}
}

// changedSince reports whether the server sent a notification with method
// after frame index mark.
func (s *Session) changedSince(mark int, method string) bool {
	for i := mark; i < s.Log.Len(); i++ {
		f := s.Log.Frame(i)
		if f.Dir == frames.ServerToClient && f.Kind == frames.KindNotification && f.Method == method {
			return true
		}
	}
	return false
}

func (s *Session) listToolsOnce(ctx context.Context) ([]json.RawMessage, []*mcp.Tool, error) {
	var raw []json.RawMessage
	var typed []*mcp.Tool
	cursor := ""
	seen := map[string]bool{}
	for page := 0; ; page++ {
		var res *mcp.ListToolsResult
		ex, err := s.roundTrip(ctx, "tools/list", "tools/list", func(ctx context.Context) error {
			var err error
			res, err = s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			return rpcError(err)
		})
		if err != nil {
			return raw, typed, err
		}
		typed = append(typed, res.Tools...)
		if ex != nil && ex.Result != nil {
			if tools, ok := arrayMembers(ex.Result, "tools"); ok {
				raw = append(raw, tools...)
			}
		} else {
			// Answered from the SDK's cache (stateless era): no frame crossed.
			for _, t := range res.Tools {
				b, _ := json.Marshal(t)
				raw = append(raw, b)
			}
		}
		if res.NextCursor == "" || s.cycled(seen, "tools/list", res.NextCursor, page) {
			break
		}
		cursor = res.NextCursor
	}
	s.toolsMu.Lock()
	s.tools = typed
	s.toolsMu.Unlock()
	return raw, typed, nil
}

// Tool returns the definition of a tool as last listed, or nil.
func (s *Session) Tool(name string) *mcp.Tool {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	for _, t := range s.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// CallTool sends tools/call with the arguments exactly as given (they must be
// a JSON text; they are never re-encoded or coerced). A JSON-RPC error comes
// back as *RPCError; a result with isError is a normal result.
func (s *Session) CallTool(ctx context.Context, name string, args json.RawMessage) (*Exchange, error) {
	return s.CallToolWith(ctx, name, args, CallOptions{})
}

// CallToolWith is CallTool with options: a progress token and a handler for
// the call's notifications/progress. Cancelling ctx with ErrCancelled as its
// cause makes the SDK send notifications/cancelled and returns a
// *CancelledError with the exchange so far (its request, no response).
func (s *Session) CallToolWith(ctx context.Context, name string, args json.RawMessage, opts CallOptions) (*Exchange, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	token := ""
	if opts.OnProgress != nil {
		token = s.progress.add(opts.OnProgress)
		params.SetProgressToken(token)
	}
	mark := s.Log.Len()
	ex, err := s.roundTrip(ctx, "tools/call "+name, "tools/call", func(ctx context.Context) error {
		_, err := s.cs.CallTool(ctx, params)
		return rpcError(err)
	})
	var cancelled *CancelledError
	if token != "" {
		end := s.Log.Len()
		if ex != nil && ex.Response != nil {
			end = int(ex.Response.Seq) - 1
		}
		if errors.As(err, &cancelled) {
			s.progress.finishCancelled(token, s.progressOnWire(token, mark, end))
		} else {
			s.progress.finish(token, s.progressOnWire(token, mark, end))
		}
	}
	if ex == nil && err == nil {
		return nil, fmt.Errorf("tools/call %s: no response frame was recorded", name)
	}
	return ex, err
}

// awaitCancelled waits (at most limit) until the notifications/cancelled
// the SDK sends in the background for req has crossed, so a caller that
// closes the session right after a cancellation still has it in the frames.
func (s *Session) awaitCancelled(req *frames.Frame, limit time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for i := int(req.Seq); ; i++ {
		for i >= s.Log.Len() {
			if _, err := s.Log.Wait(ctx, s.Log.Len()); err != nil {
				return
			}
		}
		f := s.Log.Frame(i)
		if f.Dir != frames.ClientToServer || f.Method != "notifications/cancelled" {
			continue
		}
		var n struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(f.Raw, &n) == nil && string(n.Params.RequestID) == req.ID {
			return
		}
	}
}

func rpcError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && !rejectedByTransport(we) {
		if seq := withheldFrame(we); seq > 0 {
			return &withheldAnswer{seq: seq}
		}
		return &RPCError{Code: we.Code, Message: we.Message}
	}
	return err
}

// rejectedByTransport reports whether we is the go-sdk's own marker for a
// request its transport could not deliver (jsonrpc2.ErrRejected, which it
// wraps around the network's error so the connection stays usable): no
// server said it. A server's own error comes first in the SDK's wrapping.
func rejectedByTransport(we *jsonrpc.Error) bool {
	return we.Code == -32005 && we.Message == "rejected by transport"
}

// maxPages bounds a listing whatever the server's cursors do.
const maxPages = 10000

// cycled reports whether a listing must stop at cursor next: the server
// already sent it (its pages go round in a cycle, and every page would be
// listed again and again), or there have been maxPages pages. It records
// why as a transport frame with an Err, which the CLI prints as a warning.
func (s *Session) cycled(seen map[string]bool, method, next string, page int) bool {
	why := ""
	switch {
	case seen[next]:
		why = fmt.Sprintf("%s: the server sent the cursor %q again after page %d: its pages go round in a cycle; jig stopped listing, and what it listed may hold repeats", method, next, page+1)
	case page+1 >= maxPages:
		why = fmt.Sprintf("%s: %d pages and still a next cursor; jig stopped listing", method, maxPages)
	default:
		seen[next] = true
		return false
	}
	s.Log.Append(frames.Frame{Dir: frames.ClientToServer, Kind: frames.KindTransport, Note: "jig stopped paging", Err: why})
	return true
}
