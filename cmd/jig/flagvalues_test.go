package main

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"
)

// TestFlagValuesArePflags: jig's slice flags give the help text, the type,
// the value after any sequence of uses and the errors pflag's StringArray
// and StringSlice give.
func TestFlagValuesArePflags(t *testing.T) {
	defs := [][]string{nil, {}, {"roots", "sampling", "elicitation"}, {"a,b"}, {`say "hi"`}, {" lead"}, {"\u00a0nbsp"}, {""}, {`\.`}, {"x\ny"}}
	uses := [][]string{nil, {"one"}, {"a", "b,c"}, {`"q,r",s`}, {""}, {`bad"quote`}, {"x", "", "y"}}
	for _, def := range defs {
		for _, use := range uses {
			var theirsA, oursA, theirsS, oursS []string
			theirs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			ours := pflag.NewFlagSet("t", pflag.ContinueOnError)
			theirs.StringArrayVar(&theirsA, "arr", def, "an array")
			theirs.StringSliceVar(&theirsS, "sl", def, "a slice")
			sliceVar(ours, newStringArray(&oursA, def), "arr", "an array")
			sliceVar(ours, newStringSlice(&oursS, def), "sl", "a slice")
			if a, b := theirs.FlagUsages(), ours.FlagUsages(); a != b {
				t.Errorf("default %q: help\n%s\nwant pflag's\n%s", def, b, a)
			}
			var args []string
			for _, u := range use {
				args = append(args, "--arr", u, "--sl", u)
			}
			errA, errB := theirs.Parse(args), ours.Parse(args)
			if (errA == nil) != (errB == nil) {
				t.Errorf("default %q, uses %q: error %v, pflag's %v", def, use, errB, errA)
			}
			if !reflect.DeepEqual(oursA, theirsA) || !reflect.DeepEqual(oursS, theirsS) {
				t.Errorf("default %q, uses %q: array %q slice %q, pflag's %q and %q", def, use, oursA, oursS, theirsA, theirsS)
			}
			for _, name := range []string{"arr", "sl"} {
				a, b := theirs.Lookup(name), ours.Lookup(name)
				if a.Value.String() != b.Value.String() || a.Value.Type() != b.Value.Type() ||
					a.DefValue != b.DefValue && !(a.DefValue == "[]" && b.DefValue == "") {
					t.Errorf("--%s default %q uses %q: %q %s (default %q), pflag's %q %s (default %q)", name, def, use,
						b.Value.String(), b.Value.Type(), b.DefValue, a.Value.String(), a.Value.Type(), a.DefValue)
				}
				sa, sb := a.Value.(pflag.SliceValue), b.Value.(pflag.SliceValue)
				if !reflect.DeepEqual(sa.GetSlice(), sb.GetSlice()) {
					t.Errorf("--%s GetSlice %q, pflag's %q", name, sb.GetSlice(), sa.GetSlice())
				}
			}
		}
	}
}
