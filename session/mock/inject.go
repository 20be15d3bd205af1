package mock

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fault kinds.
const (
	FaultDelay      = "delay"       // answer N later
	FaultError      = "error"       // a JSON-RPC error instead of the answer
	FaultIsError    = "is-error"    // a tool result with isError: true
	FaultMalformed  = "malformed"   // half a message, not JSON
	FaultCloseAfter = "close-after" // close the connection after N messages
)

// A Fault is one --inject rule: what to do to the requests for Target (a
// tool, prompt or resource name, a method, or "*" for every request).
type Fault struct {
	Target string
	Kind   string
	Delay  time.Duration
	Code   int64
	// After is the close-after count of messages sent.
	After int
	// Times, when above 0, is how many requests it fires for; then the
	// recorded answers are served again (a retryable outage).
	Times int
	Spec  string
}

// faultUsage is the --inject syntax.
const faultUsage = "TARGET:delay=DURATION, TARGET:error[=CODE], TARGET:is-error, TARGET:malformed or close-after=N, each optionally ,times=N (TARGET: a tool, prompt or resource name, a method such as tools/list, or *)"

// ParseFault reads one --inject rule.
func ParseFault(spec string) (Fault, error) {
	f := Fault{Spec: spec}
	body := spec
	if i := strings.LastIndex(body, ",times="); i >= 0 {
		n, err := strconv.Atoi(body[i+len(",times="):])
		if err != nil || n < 1 {
			return f, fmt.Errorf("--inject %q: times must be a whole number above 0 (%s)", spec, faultUsage)
		}
		f.Times, body = n, body[:i]
	}
	if rest, ok := strings.CutPrefix(body, FaultCloseAfter+"="); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return f, fmt.Errorf("--inject %q: close-after takes a number of messages (close-after=3)", spec)
		}
		f.Kind, f.After, f.Target = FaultCloseAfter, n, "*"
		return f, nil
	}
	i := strings.LastIndex(body, ":")
	if i <= 0 {
		return f, fmt.Errorf("--inject %q: say which requests it is for (%s)", spec, faultUsage)
	}
	f.Target = body[:i]
	action, arg, hasArg := strings.Cut(body[i+1:], "=")
	f.Kind = action
	switch action {
	case FaultDelay:
		d, err := time.ParseDuration(arg)
		if err != nil || d < 0 {
			return f, fmt.Errorf("--inject %q: delay takes a duration (%s:delay=500ms)", spec, f.Target)
		}
		f.Delay = d
	case FaultError:
		f.Code = -32603
		if hasArg {
			n, err := strconv.ParseInt(arg, 10, 64)
			if err != nil {
				return f, fmt.Errorf("--inject %q: error takes a JSON-RPC error code (%s:error=-32603)", spec, f.Target)
			}
			f.Code = n
		}
	case FaultIsError, FaultMalformed:
		if hasArg {
			return f, fmt.Errorf("--inject %q: %s takes no value", spec, action)
		}
	default:
		return f, fmt.Errorf("--inject %q: %q is not a fault (%s)", spec, action, faultUsage)
	}
	return f, nil
}

// fault is the first fault for the request that still fires, counted as
// fired.
func (s *Server) fault(method, name string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.opts.Faults {
		f := &s.opts.Faults[i]
		if f.Kind == FaultCloseAfter || !(f.Target == "*" || f.Target == method || (name != "" && f.Target == name)) {
			continue
		}
		if f.Times > 0 && s.faults[i] >= f.Times {
			continue
		}
		s.faults[i]++
		return f
	}
	return nil
}

// closeAfter is the close-after fault's count of messages; ok is false
// when there is none.
func (s *Server) closeAfter() (n int, ok bool) {
	for _, f := range s.opts.Faults {
		if f.Kind == FaultCloseAfter {
			return f.After, true
		}
	}
	return 0, false
}

// inject applies f to the request; done says the request has been
// answered by it (a delay is not: the recorded answer follows).
func (c *Conn) inject(ctx context.Context, in *incoming, f *Fault, send Sender) (done bool, err error) {
	switch f.Kind {
	case FaultDelay:
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return true, nil
		}
		return false, nil
	case FaultError:
		return true, c.send(send, errorMessage(in.id, f.Code, "jig mock: injected fault ("+f.Spec+")", nil))
	case FaultIsError:
		text := fmt.Sprintf("jig mock: injected fault (%s)", f.Spec)
		res := c.srv.book.plainResult(in.params, map[string]any{"content": []map[string]string{{"type": "text", "text": text}}, "isError": true})
		return true, c.reply(send, in, res)
	case FaultMalformed:
		return true, c.send(send, []byte(`{"jsonrpc":"2.0","id":`+in.id+`,"result":{"content":[{"type":"te`))
	}
	return false, nil
}
