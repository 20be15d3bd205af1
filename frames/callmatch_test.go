package frames

import (
	"strconv"
	"testing"
)

// TestCallMatcherCountsWhatItCannotPair: a request that reuses an id still
// in flight is paired with no response (the earlier one was replaced, and
// the first response went to the later request: the statistics mixed one
// call's answer into another's), a response to no request in flight is
// counted, and requests never answered cannot grow memory without bound
// (a million of them held ~600 MB in jig stats).
func TestCallMatcherCountsWhatItCannotPair(t *testing.T) {
	m := NewCallMatcher()
	call := func(id string) *Frame {
		return &Frame{Dir: ClientToServer, Kind: KindRequest, ID: id, Method: "tools/call", Raw: []byte(`{"id":` + id + `}`)}
	}
	answer := func(id string) *Frame { return &Frame{Dir: ServerToClient, Kind: KindResult, ID: id} }
	m.Add(call("1"))
	m.Add(call("1")) // reused while 1 is in flight
	m.Add(call("1")) // and again
	for i := 0; i < 3; i++ {
		if got := m.Add(answer("1")); got != nil {
			t.Errorf("answer %d to the reused id paired with %+v, want none", i+1, got)
		}
	}
	if m.Reused("tools/call") != 3 || m.Strays() != 0 {
		t.Errorf("reused %d, stray %d; want 3 calls that shared an id and no stray answer", m.Reused("tools/call"), m.Strays())
	}
	a := call("1") // the id is free again
	m.Add(a)
	if got := m.Add(answer("1")); got != a {
		t.Errorf("a new call with the freed id paired with %+v", got)
	}
	m.Add(answer("1"))                                                                  // answered already
	m.Add(&Frame{Dir: ServerToClient, Kind: KindResult, ID: "9", Method: "tools/call"}) // never asked
	if m.Stray("") != 1 || m.Stray("tools/call") != 1 || m.Strays() != 2 {
		t.Errorf("strays %d (%d without a method), want 2", m.Strays(), m.Stray(""))
	}

	// Requests never answered: bounded by count.
	for i := 0; i < MaxOpenCalls+10; i++ {
		m.Add(call(strconv.Itoa(100 + i)))
	}
	if len(m.open) != MaxOpenCalls || m.Forgotten("tools/call") != 10 || len(m.order) > 2*MaxOpenCalls+1024 {
		t.Errorf("%d open, %d forgotten, order %d; want %d open and the 10 oldest forgotten", len(m.open), m.Forgotten("tools/call"), len(m.order), MaxOpenCalls)
	}
	if got := m.Add(answer("100")); got != nil || m.Strays() != 3 {
		t.Errorf("the answer to a forgotten call paired with %+v (strays %d)", got, m.Strays())
	}
	if got := m.Add(answer("110")); got == nil || got.ID != "110" {
		t.Errorf("the oldest call still held did not pair: %+v", got)
	}
	// And by bytes.
	m = NewCallMatcher()
	big := make([]byte, MaxOpenBytes/4+1)
	for i := 0; i < 5; i++ {
		m.Add(&Frame{Dir: ClientToServer, Kind: KindRequest, ID: strconv.Itoa(i), Method: "tools/call", Raw: big})
	}
	if m.openBytes > MaxOpenBytes || m.Forgotten("tools/call") != 2 || len(m.Pending()) != 3 {
		t.Errorf("%d bytes held, %d forgotten, %d pending; want at most %d bytes", m.openBytes, m.Forgotten("tools/call"), len(m.Pending()), MaxOpenBytes)
	}
	// Answered calls do not pile up in the order they are forgotten in.
	m = NewCallMatcher()
	for i := 0; i < 100000; i++ {
		id := strconv.Itoa(i)
		m.Add(call(id))
		m.Add(answer(id))
	}
	if len(m.order) > 1024+2 || len(m.open) != 0 {
		t.Errorf("after 100,000 answered calls: order %d, open %d", len(m.order), len(m.open))
	}
}
