package session

//lint:file-ignore SA1019 roots, sampling and logging are deprecated as of 2026-07-28 (SEP-2577) but still spoken in both eras; jig inspects servers that use them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completions, ping, the roots jig declares, and resource subscriptions:
// the rest of what a client can do on a session, each one exchange (or a
// notification) on the wire like any call.

// A CompletionRef names what a completion/complete is for: a prompt's
// argument (Prompt set) or a resource template's variable (Template set).
type CompletionRef struct {
	Prompt   string
	Template string
}

func (r CompletionRef) ref() (*mcp.CompleteReference, error) {
	switch {
	case r.Prompt != "" && r.Template == "":
		return &mcp.CompleteReference{Type: "ref/prompt", Name: r.Prompt}, nil
	case r.Template != "" && r.Prompt == "":
		return &mcp.CompleteReference{Type: "ref/resource", URI: r.Template}, nil
	}
	return nil, &UsageError{errors.New("a completion is for one prompt or one resource template")}
}

// Completion is what a server offered for a partial value.
type Completion struct {
	Values  []string
	Total   int
	HasMore bool
}

// Complete asks the server for the values that complete value, for the
// argument (or template variable) arg of ref; given are the other
// arguments already filled in, which narrow the answer on some servers.
func (s *Session) Complete(ctx context.Context, ref CompletionRef, arg, value string, given map[string]string) (*Exchange, *Completion, error) {
	r, err := ref.ref()
	if err != nil {
		return nil, nil, err
	}
	params := &mcp.CompleteParams{Ref: r, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(given) > 0 {
		params.Context = &mcp.CompleteContext{Arguments: given}
	}
	var res *mcp.CompleteResult
	ex, err := s.roundTrip(ctx, "completion/complete", "completion/complete", func(ctx context.Context) error {
		var err error
		res, err = s.cs.Complete(ctx, params)
		return rpcError(err)
	})
	if err != nil {
		return ex, nil, err
	}
	c := &Completion{Values: res.Completion.Values, Total: res.Completion.Total, HasMore: res.Completion.HasMore}
	return ex, c, nil
}

// Ping sends ping and returns its exchange; the latency is the answer. The
// 2026-07-28 era removed ping: a server of that era may refuse it, which
// is what the exchange then shows.
func (s *Session) Ping(ctx context.Context) (*Exchange, error) {
	return s.roundTrip(ctx, "ping", "ping", func(ctx context.Context) error {
		return rpcError(s.cs.Ping(ctx, nil))
	})
}

// SetRoots replaces the roots jig answers roots/list with, and tells the
// server they changed (notifications/roots/list_changed, sent by the SDK).
// It needs the roots capability declared when the session opened.
func (s *Session) SetRoots(roots []Root) error {
	if !has(s.opts.Capabilities, "roots") {
		return &UsageError{errors.New("jig did not declare the roots capability for this session: reconnect with roots in --capabilities")}
	}
	var drop []string
	for _, r := range s.opts.Roots {
		drop = append(drop, r.URI)
	}
	if len(drop) > 0 {
		s.client.RemoveRoots(drop...)
	}
	add := make([]*mcp.Root, len(roots))
	for i, r := range roots {
		add[i] = &mcp.Root{URI: r.URI, Name: r.Name}
	}
	s.client.AddRoots(add...)
	s.opts.Roots = append([]Root(nil), roots...)
	s.info.Roots = nil
	for _, r := range roots {
		s.info.Roots = append(s.info.Roots, r.URI)
	}
	return nil
}

// Roots are the roots jig answers roots/list with now.
func (s *Session) Roots() []Root { return append([]Root(nil), s.opts.Roots...) }

// Subscribe asks the server for notifications/resources/updated about uri
// (resources/subscribe; in the 2026-07-28 era a subscriptions/listen
// stream). Updates reach Options.OnResourceUpdated.
func (s *Session) Subscribe(ctx context.Context, uri string) (*Exchange, error) {
	method := "resources/subscribe"
	if s.info.Era == "stateless" {
		method = "subscriptions/listen"
	}
	return s.roundTrip(ctx, "resources/subscribe "+uri, method, func(ctx context.Context) error {
		return rpcError(s.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	})
}

// Unsubscribe ends a subscription (resources/unsubscribe; in the 2026-07-28
// era the listen stream is cancelled).
func (s *Session) Unsubscribe(ctx context.Context, uri string) (*Exchange, error) {
	return s.roundTrip(ctx, "resources/unsubscribe "+uri, "resources/unsubscribe", func(ctx context.Context) error {
		return rpcError(s.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
	})
}

// CanSubscribe says whether the server declared resource subscriptions,
// and if not, why a subscription would be refused.
func (s *Session) CanSubscribe() (bool, string) {
	var caps struct {
		Resources *struct {
			Subscribe bool `json:"subscribe"`
		} `json:"resources"`
	}
	_ = json.Unmarshal(s.info.ServerCapabilities, &caps)
	switch {
	case caps.Resources == nil:
		return false, "the server did not declare the resources capability"
	case !caps.Resources.Subscribe:
		return false, fmt.Sprintf("the server's resources capability does not declare subscribe (%s)", s.info.ServerCapabilities)
	}
	return true, ""
}

// WatchResources sets what is called with the URI of each
// notifications/resources/updated from now on (with Options.OnResourceUpdated,
// which is called too).
func (s *Session) WatchResources(f func(uri string)) {
	s.watchMu.Lock()
	s.watch = f
	s.watchMu.Unlock()
}

func (s *Session) resourceUpdated(uri string) {
	s.watchMu.Lock()
	f := s.watch
	s.watchMu.Unlock()
	for _, hook := range []func(string){s.opts.OnResourceUpdated, f} {
		if hook != nil {
			go hook(uri)
		}
	}
}
