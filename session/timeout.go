package session

import (
	"context"
	"sync"
	"time"
)

// WithTimeout is context.WithTimeout for the time allowed to connect and for
// each call (--timeout), except that its clock stops while a session waits
// on a person: an OAuth login in the browser takes as long as it takes, and
// the request that asked for it goes on after. When the wait ends every
// clock starts again with its whole timeout. The CLI and the TUI time their
// sessions with it.
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c := &clock{Context: parent, d: d, done: make(chan struct{})}
	clocks.mu.Lock()
	clocks.live[c] = struct{}{}
	// The timer may fire before AfterFunc returns: end takes c.mu, so c.timer
	// is set first.
	c.mu.Lock()
	c.timer = time.AfterFunc(d, func() { c.end(context.DeadlineExceeded) })
	if clocks.waiting > 0 {
		c.timer.Stop()
	}
	c.mu.Unlock()
	clocks.mu.Unlock()
	stop := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	return c, func() { stop(); c.end(context.Canceled) }
}

// clocks are the live WithTimeout clocks, and how many waits on a person
// are going on.
var clocks = struct {
	mu      sync.Mutex
	live    map[*clock]struct{}
	waiting int
}{live: map[*clock]struct{}{}}

// waitingOnUser stops every clock (true) or, when the last wait ends,
// starts them again (false).
func waitingOnUser(waiting bool) {
	clocks.mu.Lock()
	defer clocks.mu.Unlock()
	if waiting {
		clocks.waiting++
	} else if clocks.waiting > 0 {
		clocks.waiting--
	}
	for c := range clocks.live {
		c.mu.Lock()
		if c.err == nil {
			if waiting {
				c.timer.Stop()
			} else if clocks.waiting == 0 {
				c.timer.Reset(c.d)
			}
		}
		c.mu.Unlock()
	}
}

// A clock is a context that ends when its timeout runs out, its parent
// ends, or it is cancelled; it is not a context.WithDeadline because its
// deadline moves.
type clock struct {
	context.Context // the parent, for its values
	d               time.Duration
	done            chan struct{}

	mu    sync.Mutex
	err   error
	timer *time.Timer
}

func (c *clock) end(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	c.timer.Stop()
	close(c.done)
	c.mu.Unlock()
	clocks.mu.Lock()
	delete(clocks.live, c)
	clocks.mu.Unlock()
}

func (c *clock) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *clock) Done() <-chan struct{}       { return c.done }
func (c *clock) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
