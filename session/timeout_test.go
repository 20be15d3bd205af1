package session

import (
	"context"
	"errors"
	"testing"
	"time"
)

// WithTimeout ends its context when it runs out, not while a session waits
// on a person, starts again with the whole timeout after, ends with its
// parent, and a timer that fires at once races nothing (run with -race).
func TestWithTimeoutStopsWhileWaitingOnTheUser(t *testing.T) {
	for range 50 {
		ctx, cancel := WithTimeout(context.Background(), time.Nanosecond)
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err = %v, want DeadlineExceeded", ctx.Err())
		}
		cancel()
	}
	ctx, cancel := WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	waitingOnUser(true)
	late, cancelLate := WithTimeout(context.Background(), 50*time.Millisecond) // made during the wait
	defer cancelLate()
	select {
	case <-ctx.Done():
		t.Fatal("the timeout ran while a session waited on the user")
	case <-late.Done():
		t.Fatal("a timeout made during the wait ran")
	case <-time.After(200 * time.Millisecond):
	}
	waitingOnUser(false)
	<-ctx.Done()
	<-late.Done()
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(late.Err(), context.DeadlineExceeded) {
		t.Errorf("Err = %v, %v after the wait, want DeadlineExceeded", ctx.Err(), late.Err())
	}
	parent, stop := context.WithCancel(context.Background())
	ctx, cancel = WithTimeout(parent, time.Hour)
	defer cancel()
	stop()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("Err = %v after the parent was cancelled, want Canceled", ctx.Err())
	}
	clocks.mu.Lock()
	n := len(clocks.live)
	clocks.mu.Unlock()
	if n > 1 { // only ctx's, cancelled by its defer
		t.Errorf("%d clocks still registered: ended clocks must leave the registry", n)
	}
}
