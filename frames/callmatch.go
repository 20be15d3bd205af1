package frames

import (
	"encoding/json"
	"sort"
)

// A CallMatcher pairs responses with their requests as a stream of frames
// goes by, the way a Pairer does (by id, per direction), but forgets each
// request once it is answered: memory is bounded by the calls in flight, so
// a million recorded calls stream through it. Unlike a Pairer it also pairs
// a response that is not a valid message but names its id (a cut-off or
// malformed answer), so the call it answered can be told what came back.
//
// What cannot be paired is counted, never guessed: requests that reused an
// id still in flight (their responses cannot be told apart), responses to
// no request in flight, and requests forgotten because more than
// MaxOpenCalls (or MaxOpenBytes of them) were waiting at once — a stream of
// requests never answered keeps memory bounded.
type CallMatcher struct {
	open map[pairKey]*Frame
	// order is the open requests in arrival order (answered ones are
	// skipped when it is walked), for forgetting the oldest.
	order     []*Frame
	openBytes int
	// reused are the keys whose requests shared an id in flight: how many
	// responses are still due, and the method.
	reused map[pairKey]reusedID
	// counts by method: cancelled (a notifications/cancelled forgot the
	// request before any response), reusedN (requests that shared an id
	// in flight), forgotten (past the bounds) and stray (responses to no
	// request in flight, by the response's own method, "" when unknown).
	cancelled, reusedN, forgotten, stray map[string]int
}

type reusedID struct {
	due    int
	method string
}

// MaxOpenCalls and MaxOpenBytes bound the requests a CallMatcher holds
// while they wait for their responses.
const (
	MaxOpenCalls = 1 << 16
	MaxOpenBytes = 64 << 20
)

// NewCallMatcher returns an empty CallMatcher.
func NewCallMatcher() *CallMatcher {
	return &CallMatcher{open: map[pairKey]*Frame{}, reused: map[pairKey]reusedID{},
		cancelled: map[string]int{}, reusedN: map[string]int{}, forgotten: map[string]int{}, stray: map[string]int{}}
}

// Cancelled is how many requests with method were cancelled before any
// response came.
func (m *CallMatcher) Cancelled(method string) int { return m.cancelled[method] }

// Reused is how many requests with method shared their id with another
// request still in flight: none of them is paired with a response.
func (m *CallMatcher) Reused(method string) int { return m.reusedN[method] }

// Forgotten is how many requests with method were let go unanswered
// because too many were waiting at once (MaxOpenCalls, MaxOpenBytes).
func (m *CallMatcher) Forgotten(method string) int { return m.forgotten[method] }

// Stray is how many responses answered no request in flight: method is the
// response's own (a recording's), "" when it had none.
func (m *CallMatcher) Stray(method string) int { return m.stray[method] }

// Strays is how many responses answered no request in flight, whatever
// their method.
func (m *CallMatcher) Strays() int {
	n := 0
	for _, c := range m.stray {
		n += c
	}
	return n
}

// Add takes the next frame. A request is kept until answered; a response
// returns the request it answers (and fills the response's Method from it),
// or nil when it answers no request in flight, or one of several that
// shared its id. A notifications/cancelled (its body in f.Raw) forgets the
// request it names: it will not be answered.
func (m *CallMatcher) Add(f *Frame) *Frame {
	switch {
	case f.Kind == KindRequest:
		m.request(f)
	case (f.IsResponse() || f.Kind == KindInvalid && f.Method == "") && f.ID != "":
		k := pairKey{f.Dir.Opposite(), f.ID}
		if r, ok := m.reused[k]; ok {
			m.endReused(k, r)
			return nil
		}
		req, ok := m.open[k]
		if !ok {
			m.stray[f.Method]++
			return nil
		}
		m.close(k, req)
		if f.Method == "" {
			f.Method = req.Method
		}
		return req
	case f.Kind == KindNotification && f.Method == "notifications/cancelled" && f.Raw != nil:
		var n struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(f.Raw, &n) == nil && len(n.Params.RequestID) > 0 {
			k := pairKey{f.Dir, string(n.Params.RequestID)}
			if r, ok := m.reused[k]; ok {
				m.endReused(k, r)
			} else if req, ok := m.open[k]; ok {
				m.cancelled[req.Method]++
				m.close(k, req)
			}
		}
	}
	return nil
}

func (m *CallMatcher) request(f *Frame) {
	k := pairKey{f.Dir, f.ID}
	if r, ok := m.reused[k]; ok {
		r.due++
		m.reused[k] = r
		m.reusedN[f.Method]++
		return
	}
	if prev, ok := m.open[k]; ok {
		m.close(k, prev)
		m.reused[k] = reusedID{due: 2, method: prev.Method}
		m.reusedN[prev.Method]++
		m.reusedN[f.Method]++
		return
	}
	m.open[k] = f
	m.openBytes += len(f.Raw)
	m.order = append(m.order, f)
	for len(m.open) > MaxOpenCalls || m.openBytes > MaxOpenBytes && len(m.open) > 1 {
		m.forgetOldest()
	}
	if len(m.order) > 2*len(m.open)+1024 {
		m.compact()
	}
}

// forgetOldest lets the oldest open request go, counted as forgotten.
func (m *CallMatcher) forgetOldest() {
	for len(m.order) > 0 {
		f := m.order[0]
		m.order[0] = nil
		m.order = m.order[1:]
		k := pairKey{f.Dir, f.ID}
		if m.open[k] == f {
			m.forgotten[f.Method]++
			m.close(k, f)
			return
		}
	}
}

// compact drops the answered requests from order.
func (m *CallMatcher) compact() {
	kept := m.order[:0]
	for _, f := range m.order {
		if m.open[pairKey{f.Dir, f.ID}] == f {
			kept = append(kept, f)
		}
	}
	clear(m.order[len(kept):])
	m.order = kept
}

func (m *CallMatcher) close(k pairKey, req *Frame) {
	delete(m.open, k)
	m.openBytes -= len(req.Raw)
}

func (m *CallMatcher) endReused(k pairKey, r reusedID) {
	if r.due--; r.due <= 0 {
		delete(m.reused, k)
		return
	}
	m.reused[k] = r
}

// Pending returns the requests still waiting for a response (those that
// shared an id are counted by Reused instead).
func (m *CallMatcher) Pending() []*Frame {
	out := make([]*Frame, 0, len(m.open))
	for _, f := range m.open {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
