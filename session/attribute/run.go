package attribute

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpjig/jig/session"
)

// A Step is one point of the plan as it ran.
type Step struct {
	// Point indexes Plan.Points.
	Point int
	// Exchange is the call's request and response frames, exactly as they
	// crossed; nil when the call never got a request out.
	Exchange *session.Exchange
	// Summary is the result's, when the server answered (a JSON-RPC error
	// is an answer).
	Summary Summary
	// Err is why the server gave no answer (it crashed, stopped answering,
	// timed out); the run stops there.
	Err error
}

// Answered reports whether the server answered the step.
func (s *Step) Answered() bool { return s.Err == nil }

// Run is an attribution: the plan, and every step that ran.
type Run struct {
	Plan  *Plan
	Steps []*Step
	// Server names the server the steps ran on ("jig-demo 1.0.0").
	Server string
}

// Failed is the step at which the server stopped answering, or nil.
func (r *Run) Failed() *Step {
	for _, s := range r.Steps {
		if !s.Answered() {
			return s
		}
	}
	return nil
}

// step is the step that ran point i, or nil.
func (r *Run) step(i int) *Step {
	for _, s := range r.Steps {
		if s.Point == i && s.Answered() {
			return s
		}
	}
	return nil
}

// NewRun starts an attribution of plan on the session's server; the steps
// are recorded as they come back (Record), by Execute or by a caller that
// sends them itself (the TUI, which shows each as a call).
func NewRun(plan *Plan, s *session.Session) *Run {
	info := s.Info()
	return &Run{Plan: plan, Server: fmt.Sprintf("%s %s", info.ServerName, info.ServerVersion)}
}

// Record adds the step that ran point i: its exchange and the error
// CallTool returned. A JSON-RPC error is an answer; any other error means
// the server gave none.
func (r *Run) Record(i int, ex *session.Exchange, err error) *Step {
	st := &Step{Point: i, Exchange: ex}
	var rpc *session.RPCError
	switch {
	case err == nil || errors.As(err, &rpc):
		if ex != nil {
			st.Summary = Summarize(ex.Result, ex.Error)
		}
	default:
		st.Err = err
	}
	r.Steps = append(r.Steps, st)
	return st
}

// Execute runs every point of the plan on s, one call at a time, in plan
// order: the first call's arguments, then each argument changed alone, and
// so on up to the second call's. Nothing else is sent on the session
// between them, so everything but the one argument is held still. onStep,
// when set, is told of each step as it finishes.
//
// A server that stops answering ends the run: the finished steps are kept,
// the failed one says why, and the points after it are not run. The error
// returned is then the failed step's; a JSON-RPC error is an answer, not a
// failure.
func Execute(ctx context.Context, s *session.Session, plan *Plan, onStep func(*Step)) (*Run, error) {
	run := NewRun(plan, s)
	for i, pt := range plan.Points {
		ex, err := s.CallTool(ctx, plan.Tool, pt.Arguments)
		st := run.Record(i, ex, err)
		if onStep != nil {
			onStep(st)
		}
		if st.Err != nil {
			return run, fmt.Errorf("step %d (%s) %s: %w", i+1, pt.Label(len(plan.Vars)), pt.Arguments, st.Err)
		}
	}
	return run, nil
}
