package main

import (
	"io"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames"
)

// BenchmarkNewRoot is what building jig's whole command tree costs, every
// flag of every command: what a run of a command that is not --version pays
// before it starts.
func BenchmarkNewRoot(b *testing.B) {
	st := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard, rawOut: io.Discard, rawErr: io.Discard, redact: frames.NewRedactor()}
	b.ReportAllocs()
	for b.Loop() {
		newRoot(st)
	}
}

// BenchmarkNewRootFor is the tree jig tools runs with: the root and the one
// command named.
func BenchmarkNewRootFor(b *testing.B) {
	st := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard, rawOut: io.Discard, rawErr: io.Discard, redact: frames.NewRedactor()}
	b.ReportAllocs()
	for b.Loop() {
		newRootFor(st, []string{"tools"})
	}
}
