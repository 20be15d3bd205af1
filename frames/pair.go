package frames

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A Pairer matches responses to requests. Ids are only unique per direction:
// server-everything sends roots/list with id 0 while the client's initialize
// also had id 0, so the key is the requester's direction plus the id.
type Pairer struct {
	open     map[pairKey]int // request index awaiting its response
	answered map[pairKey]int // request index already answered
	partner  []int32         // per frame: index of its pair, or -1
	method   map[int]string  // request index → method, until answered
	// cancelled maps a request index to the notifications/cancelled that
	// named it: such a request will never be answered, and is not "pending".
	cancelled map[int]int
	// ended maps a request index to the transport frame that said the
	// server exited while it was open: it will never be answered either.
	ended map[int]int
	// A bounded Pairer keeps no partner per frame and remembers only the
	// last len(ring) answered ids (oldest at ring[next]).
	bounded bool
	ring    []answer
	next    int
}

type answer struct {
	k   pairKey
	req int
}

type pairKey struct {
	dir Direction // the direction the request travelled
	id  string
}

// NewPairer returns an empty Pairer.
func NewPairer() *Pairer {
	return &Pairer{open: map[pairKey]int{}, answered: map[pairKey]int{}, method: map[int]string{}, cancelled: map[int]int{}, ended: map[int]int{}}
}

// newBoundedPairer returns a Pairer for a Log that keeps no frames: it
// fills methods and flags strays like any Pairer, but Partner always says
// -1, and only the last remember answered ids are told apart from unknown
// ones, so its memory does not grow with the session.
func newBoundedPairer(remember int) *Pairer {
	p := NewPairer()
	p.bounded = true
	p.ring = make([]answer, 0, remember)
	return p
}

// markAnswered marks k as answered by the request at req.
func (p *Pairer) markAnswered(k pairKey, req int) {
	p.answered[k] = req
	if !p.bounded {
		return
	}
	if len(p.ring) < cap(p.ring) {
		p.ring = append(p.ring, answer{k, req})
		return
	}
	// Forget the oldest answer, unless its id was answered again since.
	if old := p.ring[p.next]; p.answered[old.k] == old.req {
		delete(p.answered, old.k)
	}
	p.ring[p.next] = answer{k, req}
	p.next = (p.next + 1) % len(p.ring)
}

// Add records frame f at index i (indexes must arrive in order) and, for a
// response, links it to its request. It fills the response's Method from the
// request and sets Err on a response that answers nothing or answers twice.
func (p *Pairer) Add(i int, f *Frame) {
	for !p.bounded && len(p.partner) <= i {
		p.partner = append(p.partner, -1)
	}
	switch {
	case f.Kind == KindNotification && f.Method == "notifications/cancelled" && f.Raw != nil:
		p.NoteCancel(i, f)
	case f.Kind == KindRequest:
		p.open[pairKey{f.Dir, f.ID}] = i
		p.method[i] = f.Method
	case f.Kind == KindTransport && f.Dir == ServerToClient && (strings.HasPrefix(f.Note, ServerExitedNote) || strings.HasPrefix(f.Note, ServerGoneNote)):
		// Whatever was open is over: nobody is left to answer it (and a
		// reconnected session's ids start again, answering none of it).
		for k, req := range p.open {
			p.ended[req] = i
			delete(p.open, k)
			delete(p.method, req)
		}
	case f.IsResponse() && (f.ID != "" || f.Answers != ""):
		id := f.ID
		if id == "" {
			id = f.Answers // tied by where it came, not by its id (AnswersPost)
		}
		k := pairKey{f.Dir.Opposite(), id}
		if req, ok := p.open[k]; ok {
			delete(p.open, k)
			defer delete(p.method, req)
			p.markAnswered(k, req)
			if f.Method == "" {
				f.Method = p.method[req]
			}
			if !p.bounded {
				p.partner[i], p.partner[req] = int32(req), int32(i)
			}
			return
		}
		if _, ok := p.answered[k]; ok {
			f.Err = fmt.Sprintf("duplicate response to id %s: its request was already answered", id)
		} else {
			who := "client"
			if f.Dir == ClientToServer {
				who = "server"
			}
			f.Err = fmt.Sprintf("response to unknown id %s: no %s request has this id", id, who)
		}
	}
}

// NoteCancel records that the notifications/cancelled at index i (its body
// in f.Raw) cancels the open request it names. The request was sent the same
// way the notification travels. Readers that index without bodies call it
// for these few small frames themselves.
func (p *Pairer) NoteCancel(i int, f *Frame) {
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(f.Raw, &n) != nil || len(n.Params.RequestID) == 0 {
		return
	}
	if req, ok := p.open[pairKey{f.Dir, string(n.Params.RequestID)}]; ok {
		p.cancelled[req] = i
	}
}

// Cancelled returns the index of the notifications/cancelled that named the
// request at i, or -1.
func (p *Pairer) Cancelled(i int) int {
	if j, ok := p.cancelled[i]; ok {
		return j
	}
	return -1
}

// Ended returns the index of the transport frame that said the server
// exited while the request at i was open, or -1.
func (p *Pairer) Ended(i int) int {
	if j, ok := p.ended[i]; ok {
		return j
	}
	return -1
}

// ServerExitedNote begins the Note of the transport frame that says a stdio
// server's process exited ("server exited: exit status 1").
const ServerExitedNote = "server exited"

// ServerGoneNote begins the Note of the transport frame that says an HTTP
// server went away while requests were open ("server went away: connect:
// connection refused (...)"): jig stopped waiting for them.
const ServerGoneNote = "server went away"

// StreamEndedNote begins the Note of the transport frame (its Answers
// names the request) that says the server closed a request's event stream
// without answering it and gave no event id to resume from: no answer can
// come.
const StreamEndedNote = "event stream ended without the answer"

// SentNote begins the Note of the transport frame (its Answers names the
// request) that says the HTTP request failed after it was written, before
// any answer came: the server may have received it.
const SentNote = "HTTP request failed after it was sent"

// Partner returns the index paired with i, or -1.
func (p *Pairer) Partner(i int) int {
	if i < 0 || i >= len(p.partner) {
		return -1
	}
	return int(p.partner[i])
}

// Open reports whether the request at index i is still waiting for its response.
func (p *Pairer) Open(i int, f *Frame) bool {
	j, ok := p.open[pairKey{f.Dir, f.ID}]
	return ok && j == i
}

// Pending reports whether a request with id (its JSON text) that travelled
// dir is still waiting for its response.
func (p *Pairer) Pending(dir Direction, id string) bool {
	_, ok := p.open[pairKey{dir, id}]
	return ok
}
