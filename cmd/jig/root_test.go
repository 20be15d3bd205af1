package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpjig/jig/frames"
)

// execTree runs args on root as run does, and returns what it printed and
// the error.
func execTree(root *cobra.Command, args []string) string {
	var out strings.Builder
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		out.WriteString("error: " + err.Error())
	}
	return out.String()
}

func testStreams() *streams {
	return &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard, rawOut: io.Discard, rawErr: io.Discard, redact: frames.NewRedactor()}
}

// TestLazyTreeIsTheTree: run builds only the command its first argument
// names (newRootFor); every command and subcommand must answer --help, -h
// and flag mistakes exactly as in the whole tree, and commandNames must be
// every command the whole tree has, each built under its own name.
func TestLazyTreeIsTheTree(t *testing.T) {
	full := newRoot(testStreams())
	var names []string
	for _, c := range full.Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
		if len(c.Aliases) > 0 {
			t.Errorf("%s has aliases %v: newCommand builds commands by name only; teach it the aliases", c.Name(), c.Aliases)
		}
	}
	if got, want := slices.Sorted(slices.Values(commandNames)), slices.Sorted(slices.Values(names)); !slices.Equal(got, want) {
		t.Fatalf("commandNames = %v\nthe tree has %v", got, want)
	}
	for _, name := range commandNames {
		if c := newCommand(testStreams(), name); c == nil || c.Name() != name {
			t.Errorf("newCommand(%q) built %v", name, c)
		}
	}
	var paths, bare [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			p := append(slices.Clone(path), sub.Name())
			paths = append(paths, p)
			if sub.Args != nil && sub.Args(sub, nil) != nil {
				bare = append(bare, p) // refused before it runs: its usage error
			}
			walk(sub, p)
		}
	}
	walk(full, nil)
	for _, p := range paths {
		for _, tail := range [][]string{{"--help"}, {"-h"}, {"--no-such-flag"}, {"--tim", "1s"}, {"--frames=x", "--recrd", "f"}} {
			args := append(slices.Clone(p), tail...)
			want := execTree(newRoot(testStreams()), args)
			got := execTree(newRootFor(testStreams(), args), args)
			if got != want {
				t.Errorf("jig %s:\n%s\nthe whole tree says:\n%s", strings.Join(args, " "), got, want)
			}
		}
	}
	for _, args := range bare {
		if got, want := execTree(newRootFor(testStreams(), args), args), execTree(newRoot(testStreams()), args); got != want || want == "" {
			t.Errorf("jig %s:\n%s\nthe whole tree says:\n%s", strings.Join(args, " "), got, want)
		}
	}
	if len(paths) < len(commandNames)+5 || len(bare) < 5 {
		t.Errorf("walked only %d commands, %d refusing no arguments", len(paths), len(bare))
	}
}
