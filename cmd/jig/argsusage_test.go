package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command that needs an argument names it and shows its usage line
// when it is run without one; cobra's "requires at least 1 arg(s)" is not
// what a user should read.
func TestMissingArgumentIsNamedWithUsage(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Args != nil && c.Runnable() && len(path) > 0 && c.Args(c, nil) != nil {
			paths = append(paths, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(newRoot(&streams{out: &bytes.Buffer{}, err: &bytes.Buffer{}}), nil)
	needing := 0
	for _, p := range paths {
		code, _, stderr := jig(t, "", p...)
		if code != exitUsage || strings.Contains(stderr, "arg(s)") {
			t.Errorf("jig %s: cobra's wording: %q", strings.Join(p, " "), stderr)
		}
		if strings.Contains(stderr, " needs ") {
			needing++
		}
		if !strings.Contains(stderr, "usage: jig "+strings.Join(p, " ")) {
			t.Errorf("jig %s: no usage line: %q", strings.Join(p, " "), stderr)
		}
	}
	if needing < 10 || needing != len(paths) {
		t.Errorf("only %d commands said what they need; the walk found %d", needing, len(paths))
	}
	_, _, stderr := jig(t, "", "replay")
	if want := "jig: replay needs FIXTURES (usage: jig replay FIXTURES"; !strings.HasPrefix(stderr, want) {
		t.Errorf("jig replay: %q, want it to start %q", stderr, want)
	}
	_, _, stderr = jig(t, "", "compare", "a", "b", "c")
	if !strings.Contains(stderr, "compare takes 2 argument(s), A B; got 3") {
		t.Errorf("jig compare a b c: %q", stderr)
	}
}
