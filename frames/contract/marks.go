package contract

import (
	"encoding/json"
	"sync"

	"github.com/mcpjig/jig/frames"
)

// OutputSchemaOnly is the contract every session is held to when no
// contracts file is given: each tool's own outputSchema, as tools/list
// declared it, and nothing else.
func OutputSchemaOnly() *Contracts {
	return &Contracts{File: "(the tools' own outputSchema)", OutputSchema: true, Tools: map[string]*Tool{}}
}

// Marks are violations by the sequence number of the response frame they
// are about, one line each, for a screen to mark the frame: a live check
// adds to them while the screen reads them.
type Marks struct {
	mu sync.Mutex
	m  map[int64][]string
}

// Add keeps v for its response frame.
func (m *Marks) Add(v Violation) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[int64][]string{}
	}
	m.m[v.Response] = append(m.m[v.Response], v.String())
}

// Of returns the violations of the frame with sequence number seq (nil
// when it has none). The slice is the caller's.
func (m *Marks) Of(seq int64) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m[seq]) == 0 {
		return nil
	}
	return append([]string(nil), m.m[seq]...)
}

// Len is how many frames have violations.
func (m *Marks) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}

// MarksOf reads the violations a live check wrote into a recording (its
// MetaKey records), and reports how many records could not be read.
func MarksOf(metas []frames.Meta) (*Marks, int) {
	m, bad := &Marks{}, 0
	for _, r := range metas {
		if r.Key != MetaKey {
			continue
		}
		var v Violation
		if json.Unmarshal(r.Data, &v) != nil || v.Response <= 0 {
			bad++
			continue
		}
		m.Add(v)
	}
	return m, bad
}
